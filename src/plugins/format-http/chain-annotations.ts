/**
 * The annotations that chain requests, read into the request's `chain` lists:
 * `# @capture name = expression` (a JSONPath `$.x`, `header:Name`, `status`, `regex:…`,
 * `jmespath:…`), restcli's `# @extract name expression` (JMESPath), httpyac's `# @ref name` and
 * `# @forceRef name` and `# @import ./other.http`, restcli's `# @depends ./other.http`.
 */
import { ParseError } from '../../core/errors/index.js';
import type { ChainSpec } from '../../core/model.js';

const KEYS = new Set(['capture', 'extract', 'ref', 'forceRef', 'depends', 'dependsOn', 'import']);

export function isChainAnnotation(key: string): boolean {
  return KEYS.has(key);
}

const CAPTURE = /^([A-Za-z_][\w.-]*)\s*=\s*(\S.*)$/;
const EXTRACT = /^([A-Za-z_][\w.-]*)\s+(\S.*)$/;

/** Adds one chaining annotation to `chain`; a malformed one is a parse error naming its line. */
export function chainAnnotation(chain: ChainSpec, key: string, value: string, file: string, line: number): void {
  const text = value.trim();
  if (key === 'capture' || key === 'extract') {
    const match = (key === 'capture' ? CAPTURE : EXTRACT).exec(text);
    if (!match) {
      const form = key === 'capture' ? '# @capture id = $.data.id' : '# @extract id data.id';
      throw new ParseError(file, line, 1, `# @${key} needs a name and an expression`, { hint: `write: ${form}` });
    }
    (chain.captures ??= []).push({ name: match[1] as string, expression: (match[2] as string).trim(), line, syntax: key === 'capture' ? 'capture' : 'jmespath' });
    return;
  }
  const files = key === 'depends' || key === 'dependsOn' || key === 'import';
  if (text === '') throw new ParseError(file, line, 1, `# @${key} needs a ${files ? 'file' : 'request name'}`, { hint: files ? `write: # @${key} ./login.http` : `write: # @${key} login` });
  if (key === 'import') {
    (chain.imports ??= []).push({ path: text, line });
    return;
  }
  if (files) {
    for (const path of text.split(/\s*,\s*|\s+/)) (chain.depends ??= []).push({ path, line });
    return;
  }
  for (const name of text.split(/\s*,\s*|\s+/)) (chain.refs ??= []).push({ name, force: key === 'forceRef', line });
}
