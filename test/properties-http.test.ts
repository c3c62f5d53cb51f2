/**
 * Properties of the HTTP request-file parser and printer, over generated text:
 * - any text gives requests or a ReqflowError (exit 2, `file:line:col:` message), never another exception;
 * - parse → print → parse gives the same requests, for every text that parses;
 * - print → parse gives back the requests that were printed (valid requests built from parts).
 */
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { isReqflowError } from '../src/core/errors/index.js';
import type { RequestSpec } from '../src/core/model.js';
import { parseHttpText } from '../src/plugins/format-http/parse-http-text.js';
import { printHttpText } from '../src/plugins/format-http/print-http.js';

const FILE = 'gen.http';

/** What a request means, without where it was written. */
function meaning(specs: readonly RequestSpec[]): unknown[] {
  return specs.map(({ source: _source, ...rest }) => rest);
}

/** Parses, turning the only allowed failure (a ReqflowError) into undefined. */
function tryParse(text: string): RequestSpec[] | undefined {
  try {
    return parseHttpText(text, FILE);
  } catch (error) {
    if (!isReqflowError(error)) throw error;
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(/^gen\.http:\d+:\d+: \S/);
    expect(error.message).not.toContain('\n');
    return undefined;
  }
}

// Lines an HTTP file is made of, mixed with junk: the parser meets all of them in every order.
const token = fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,8}$/);
const word = fc.string({ unit: fc.constantFrom(...'ab{}$()#@:/?&=%. \t-_é😀\u0000\r'.split('')), maxLength: 12 });
const line = fc.oneof(
  fc.constant(''),
  fc.constant('###'),
  word.map((w) => `### ${w}`),
  fc.tuple(token, word).map(([k, v]) => `# @${k} ${v}`),
  word.map((w) => `# ${w}`),
  word.map((w) => `// ${w}`),
  fc.tuple(fc.constantFrom('GET', 'POST', 'get', 'PROPFIND', 'G@T', ''), word).map(([m, u]) => `${m} http://h.test/${u}`),
  fc.tuple(fc.constantFrom('GET', 'POST'), word).map(([m, u]) => `${m} http://h.test/${u} HTTP/1.1`),
  word.map((w) => `https://h.test/${w}`),
  fc.tuple(token, word).map(([k, v]) => `${k}: ${v}`),
  fc.tuple(word, word).map(([k, v]) => `${k}:${v}`),
  word,
);
const httpText = fc.tuple(fc.array(line, { maxLength: 30 }), fc.constantFrom('\n', '\r\n'), fc.boolean()).map(([lines, eol, bom]) => `${bom ? '\uFEFF' : ''}${lines.join(eol)}`);

describe('HTTP request-file parser', () => {
  test('any text gives requests or a ReqflowError, never another exception', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), httpText), (text) => {
        const specs = tryParse(text);
        for (const spec of specs ?? []) {
          expect(spec.method).toMatch(/^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*$/);
          expect(spec.url).not.toMatch(/\s/);
          expect(spec.name).not.toBe('');
        }
      }),
      { numRuns: 1500 },
    );
  });

  test('parse → print → parse is stable', () => {
    fc.assert(
      fc.property(httpText, (text) => {
        const first = tryParse(text);
        fc.pre(first !== undefined);
        const printed = printHttpText(first as RequestSpec[]);
        const second = parseHttpText(printed, FILE);
        expect(meaning(second)).toEqual(meaning(first as RequestSpec[]));
        // And printing again changes nothing: the printed form is a fixed point.
        expect(printHttpText(second)).toBe(printed);
      }),
      { numRuns: 1500 },
    );
  });

  // Valid requests built from their parts: what the printer writes, the parser reads back.
  const headerValue = fc.string({ unit: fc.constantFrom(...'abc XYZ09{}$()/:;,=."\'é😀'.split('')), maxLength: 20 }).map((v) => v.trim());
  const bodyLine = fc.string({ unit: fc.constantFrom(...'ab{}$()"#: \t@é'.split('')), maxLength: 20 });
  const request = fc.record({
    name: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 _.-]{0,15}[A-Za-z0-9]$/),
    method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'PROPFIND', 'MKCOL'),
    url: fc.webUrl({ withQueryParameters: true, withFragments: true }).map((u) => u.replace(/\s/g, '')),
    headers: fc.dictionary(fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,15}$/), headerValue, { maxKeys: 5 }),
    // reqflow's `# @auth` is one word: with arguments it is resterm's directive (docs/http-dialect.md).
    annotations: fc
      .dictionary(fc.constantFrom('filter', 'protocol', 'streaming', 'auth', 'operation', 'note'), fc.stringMatching(/^\S(.{0,15}\S)?$/), { maxKeys: 3 })
      .map((annotations) => (annotations.auth === undefined ? annotations : { ...annotations, auth: annotations.auth.replace(/\s+/g, '-') })),
    body: fc.option(
      fc
        .array(bodyLine, { minLength: 1, maxLength: 6 })
        .map((lines) => lines.join('\n'))
        // Not what the format gives a meaning of its own in a body: a separator, an httpyac
        // script opening (`{{` alone), comment lines, blank lines before it.
        .filter((b) => b.trim() !== '' && !/^###/m.test(b) && b.trimEnd() === b && !/^[ \t]*\n/.test(b) && !/^\s*\{\{(?:[@+][\w-]*)?\s*$/m.test(b) && !/^[ \t]*#/m.test(b)),
      { nil: undefined },
    ),
  });

  test('print → parse returns the printed requests', () => {
    fc.assert(
      fc.property(fc.uniqueArray(request, { selector: (r) => r.name, minLength: 1, maxLength: 4 }), (requests) => {
        // Header names are case-insensitive on the wire; keep one spelling of each.
        const specs: RequestSpec[] = requests.map((r) => {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(r.headers)) if (!Object.keys(headers).some((h) => h.toLowerCase() === name.toLowerCase())) headers[name] = value;
          const spec: RequestSpec = { name: r.name, method: r.method, url: r.url, headers, annotations: r.annotations, source: { file: FILE, line: 1 } };
          if (r.body !== undefined) spec.body = r.body;
          return spec;
        });
        expect(meaning(parseHttpText(printHttpText(specs), FILE))).toEqual(meaning(specs));
      }),
      { numRuns: 500 },
    );
  });
});
