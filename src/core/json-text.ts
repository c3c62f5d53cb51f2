import { ParseError } from './errors/index.js';
import { lineColumn } from './json-error.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from './json-depth.js';

/** jsonc-parser's token kinds (a `const enum` there, which isolated modules cannot read). */
const OPEN_BRACE = 1;
const CLOSE_BRACE = 2;
const OPEN_BRACKET = 3;
const CLOSE_BRACKET = 4;
const EOF = 17;

/**
 * Where JSONC text first nests deeper than `limit`, found by its tokens without recursion:
 * jsonc-parser's `parse` recurses once per level and overflows the call stack on a file nested
 * some thousands deep, so such text is measured before it is parsed. Undefined: it does not.
 */
async function tooDeepAt(text: string, limit: number): Promise<number | undefined> {
  const { createScanner } = await import('jsonc-parser');
  const scanner = createScanner(text, true);
  let depth = 0;
  for (let token = scanner.scan(); token !== EOF; token = scanner.scan()) {
    if (token === OPEN_BRACE || token === OPEN_BRACKET) {
      depth += 1;
      if (depth > limit) return scanner.getTokenOffset();
    } else if (token === CLOSE_BRACE || token === CLOSE_BRACKET) depth -= 1;
  }
  return undefined;
}

/** Exit 2 naming where `text` nests past {@link MAX_JSON_DEPTH}: code that walks the value (flattening, `JSON.stringify`) would overflow the stack. */
function tooDeep(path: string, text: string, offset: number): ParseError {
  const { line, column } = lineColumn(text, offset);
  return new ParseError(path, line, column, `nested more than ${MAX_JSON_DEPTH} levels deep`);
}

type ParseErrors = NonNullable<Parameters<typeof import('jsonc-parser').parseTree>[1]>;

/**
 * JSONC text's value, its objects without a prototype: jsonc-parser's `parse` assigns keys, so a
 * key `"__proto__"` is lost (or, holding an object, becomes the prototype); `getNodeValue` of its
 * tree defines each key as data, as `JSON.parse` does. The depth is checked before (it recurses).
 */
async function jsoncTreeValue(text: string, errors: ParseErrors, options: NonNullable<Parameters<typeof import('jsonc-parser').parseTree>[2]>): Promise<unknown> {
  const { parseTree, getNodeValue } = await import('jsonc-parser');
  const tree = parseTree(text, errors, options);
  return tree === undefined ? undefined : (getNodeValue(tree) as unknown);
}

/**
 * JSON text to a value (`jsonc`: comments and trailing commas allowed, as VS Code writes it).
 * Invalid text is exit 2 naming the file, line and column, with the caller's hint; so is text
 * nested more than {@link MAX_JSON_DEPTH} levels deep where the JSONC parser would read it, and
 * with `shallow` (a caller that walks the value recursively) wherever it is. With `exact`, a
 * number of plain JSON that a double cannot hold as written is a lossless-json `LosslessNumber`
 * (core/json-exact.ts): `12345678901234567890` stays that, not `12345678901234567000`.
 */
export async function parseJsonText(path: string, text: string, options: { jsonc: boolean; hint: string; shallow?: boolean; exact?: boolean }): Promise<unknown> {
  const { jsonc } = options;
  // Most files are plain JSON: the JSONC parser loads only for one that is not (comments, an error).
  let plain: { value: unknown } | undefined;
  try {
    plain = { value: options.exact ? (await import('./json-exact.js')).parseJsonExact(text).value : JSON.parse(text) };
  } catch {
    // fall through: the JSONC parser reads comments and trailing commas, or finds where the text breaks
  }
  if (plain !== undefined && !(options.shallow === true && nestedDeeperThan(plain.value, MAX_JSON_DEPTH))) return plain.value;
  const deep = await tooDeepAt(text, MAX_JSON_DEPTH);
  if (deep !== undefined) throw tooDeep(path, text, deep);
  if (plain !== undefined) return plain.value;
  const { printParseErrorCode } = await import('jsonc-parser');
  const errors: ParseErrors = [];
  const value = await jsoncTreeValue(text, errors, { disallowComments: !jsonc, allowTrailingComma: jsonc, allowEmptyContent: jsonc });
  const first = errors?.[0];
  if (first || (!jsonc && value === undefined)) {
    const { line, column } = lineColumn(text, first?.offset ?? 0);
    const what = first ? printParseErrorCode(first.error) : 'ValueExpected';
    throw new ParseError(path, line, column, `not valid JSON${jsonc ? ' with comments' : ''} (${what})`, { hint: options.hint });
  }
  return value;
}

/** JSONC text (comments, trailing commas) to a value; undefined when it is not valid even so, or nested past {@link MAX_JSON_DEPTH} levels. */
export async function jsoncValue(text: string): Promise<unknown> {
  if ((await tooDeepAt(text, MAX_JSON_DEPTH)) !== undefined) return undefined;
  const errors: ParseErrors = [];
  const value = await jsoncTreeValue(text, errors, { allowTrailingComma: true });
  return errors.length === 0 ? value : undefined;
}
