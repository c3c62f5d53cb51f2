/**
 * What is wrong with a line among a request's headers (parse-http.ts's `HeaderLineError`): a
 * name that is none (named by its column), or no `Name: value` form at all, with a hint — the
 * header it nearly is (`X-Token abc`), the body, when it reads like one (a form `a=1&b=2`; JSON
 * and XML already start the body by themselves), or httpyac's spread written with more than a
 * name. Loaded only when a file has such a line.
 */
import { ParseError } from '../../core/errors/index.js';
import { clip, HEADER_NAME, type HeaderLineError } from './parse-http.js';

function headerLineHint(line: string): string {
  const form = 'a header is "Name: value"';
  if (line.trimStart().startsWith('...')) return `${form}; httpyac's spread is ...name, the name of a variable that holds an object`;
  if (/^\s*[{[<]/.test(line) || (line.includes('=') && line.includes('&'))) return `${form}; if this line is the body, put a blank line before it`;
  const [, name, value] = /^([^\s:]+)\s+(\S.*)$/.exec(line.trim()) ?? [];
  return name !== undefined && HEADER_NAME.test(name) ? `did you mean "${clip(`${name}: ${value}`)}"? ${form}` : `${form}, e.g. Accept: application/json`;
}

/** The error said exactly: where the name goes wrong, or what the line should be. */
export function withHeaderLineHint(error: HeaderLineError): ParseError {
  const { file, line, written } = error;
  const colon = written.indexOf(':');
  if (colon > 0) {
    const bad = written.search(/[^A-Za-z0-9!#$%&'*+.^_`|~-]/);
    return new ParseError(file, line, bad + 1, `invalid header name ${JSON.stringify(written.slice(0, colon).trim())}`);
  }
  return new ParseError(file, line, 1, error.message.slice(`${file}:${line}:1: `.length), { hint: headerLineHint(written) });
}
