import { describe, expect, test } from '@jest/globals';
import { indexHttpText } from '../src/plugins/format-http/parse-http.js';
import { parseHttpText } from '../src/plugins/format-http/parse-http-text.js';
import { printHttpText } from '../src/plugins/format-http/print-http.js';
import { ReqflowError } from '../src/core/errors/index.js';

function parseError(text: string): ReqflowError {
  try {
    parseHttpText(text, 'api.http');
  } catch (error) {
    return error as ReqflowError;
  }
  throw new Error('expected a parse error');
}

describe('HTTP text format', () => {
  test('a file without ### is one request, with headers and body', () => {
    const [spec, ...rest] = parseHttpText('POST https://api.test/users HTTP/1.1\nContent-Type: application/json\nX-Trace:  a:b \n\n{"name": "ada"}\n\n', 'api.http');
    expect(rest).toHaveLength(0);
    expect(spec).toMatchObject({ name: 'request-1', method: 'POST', url: 'https://api.test/users', headers: { 'Content-Type': 'application/json', 'X-Trace': 'a:b' }, body: '{"name": "ada"}' });
    expect(spec?.source).toEqual({ file: 'api.http', line: 1, bodyLine: 5 });
  });

  test('### names requests; annotations, comments and unknown annotations are kept', () => {
    const text = [
      '# a file comment',
      '### login',
      '# @filter token',
      '// @auth bearer',
      '# @tls.certFile ./client.pem',
      '# @tls.insecureSkipVerify true',
      '# @my-plugin.option some value',
      '# plain comment',
      'GET https://api.test/login',
      '',
      '### second',
      'PROPFIND https://api.test/dav',
      'Depth: 1',
    ].join('\n');
    const specs = parseHttpText(text, 'api.http');
    expect(specs.map((s) => s.name)).toEqual(['login', 'second']);
    expect(specs[0]?.annotations).toEqual({ filter: 'token', auth: 'bearer', 'tls.certFile': './client.pem', 'tls.insecureSkipVerify': 'true', 'my-plugin.option': 'some value' });
    expect(specs[0]?.tls).toEqual({ certFile: './client.pem', insecureSkipVerify: true });
    expect(specs[0]?.body).toBeUndefined();
    expect(specs[1]).toMatchObject({ method: 'PROPFIND', headers: { Depth: '1' }, source: { line: 12 } });
  });

  test('the body runs up to the next ### and keeps its inner blank lines; # and // lines in it are comments (VS Code, httpyac, resterm)', () => {
    const specs = parseHttpText('### a\nPOST http://x.test/\n\nline 1\n\n# a comment in a body\n  // indented too\nline 3\n\n### b\nGET http://x.test/b', 'f.http');
    expect(specs[0]?.body).toBe('line 1\n\nline 3');
    expect(specs[1]?.url).toBe('http://x.test/b');
    // A Markdown body keeps its # headings (httpyac): the content type decides.
    const markdown = parseHttpText('POST http://x.test/\nContent-Type: text/markdown\n\n# Title\n\n// text\n', 'f.http');
    expect(markdown[0]?.body).toBe('# Title\n\n// text');
  });

  test('comments around a body are not body: above it, below it, after a blank line, /* */ paragraphs', () => {
    const text = '### a\nPOST http://x.test/\n\n// above\n{"a": 1}\n# below, no blank line before it\n\n# about the next request\n// more\n\n/*\n### Markdown, not a separator\n*/\n\n### b\nGET http://x.test/b\n\n# @lang=lua\n#@var = 1\n';
    const specs = parseHttpText(text, 'f.http');
    expect(specs.map((spec) => spec.body)).toEqual(['{"a": 1}', undefined]);
    expect(specs[1]?.url).toBe('http://x.test/b');
  });

  test('# @key value below the request line is an annotation of the request (httpyac, kulala, restcli); # @key = value there is a commented-out variable', () => {
    const [spec] = parseHttpText('GET http://x.test/\n# @no-redirect\nAccept: */*\n\n# @filter data.id\n// @query @\n#@var = 1\n', 'f.http');
    expect(spec?.annotations).toEqual({ 'no-redirect': 'true', filter: 'data.id', query: '@' });
    expect(spec?.body).toBeUndefined();
  });

  test('after a ?, an indented line goes on with the query (JetBrains spec §3.2.1.4); an indented header or JSON body does not', () => {
    const [spec] = parseHttpText('GET http://x.test/s?a=1&\n    page={{page}}&\n    limit=3\n  Accept: */*\n', 'f.http');
    expect([spec?.url, spec?.headers]).toEqual(['http://x.test/s?a=1&page={{page}}&limit=3', { Accept: '*/*' }]);
    const [json] = parseHttpText('POST http://x.test/s?a=1\n  {"a": 1}\n', 'f.http');
    expect([json?.url, json?.body]).toEqual(['http://x.test/s?a=1', '  {"a": 1}']);
  });

  test('GET /path with a Host header: https for ports 443 and 8443 (VS Code, httpyac), http otherwise; kulala\'s Host with a scheme names it and the Host line keeps the authority', () => {
    const specs = parseHttpText('GET /a\nHost: x.test:8443\n\n###\nGET /b\nHost: x.test:443\n\n###\nGET /c\nHost: x.test:8080\n\n###\nGET /d\nHost: https://x.test:9000/ignored\n', 'f.http');
    expect(specs.map((spec) => [spec.url, spec.headers])).toEqual([
      ['https://x.test:8443/a', { Host: 'x.test:8443' }],
      ['https://x.test:443/b', { Host: 'x.test:443' }],
      ['http://x.test:8080/c', { Host: 'x.test:8080' }],
      ['https://x.test:9000/ignored/d', { Host: 'x.test:9000' }],
    ]);
  });

  test('GraphQL variables: after a blank line, or (kulala) on a line opening with {" or {} right below the query; a { line that opens a selection set stays the query', () => {
    const [kulala, selection] = parseHttpText('GRAPHQL http://x.test/g\n\nquery A($id: ID) { a(id: $id) { b } }\n{\n  "id": 1\n}\n###\nGRAPHQL http://x.test/g\n\nquery B\n{\n  b\n}\n', 'f.http');
    expect([kulala?.body, kulala?.annotations.variables]).toEqual(['query A($id: ID) { a(id: $id) { b } }', '{\n  "id": 1\n}']);
    expect([selection?.body, selection?.annotations.variables]).toEqual(['query B\n{\n  b\n}', undefined]);
  });

  test('a status line below the body starts a pasted response, ignored to the next ### (httpyac)', () => {
    const specs = parseHttpText('POST http://x.test/\n\n{"a": 1}\nHTTP/1.1 200 OK\nContent-Type: application/json\n\n{"b": 2}\n###\nGET http://x.test/b\n', 'f.http');
    expect(specs.map((spec) => spec.body)).toEqual(['{"a": 1}', undefined]);
  });

  test("rest.nvim's # @lang=lua above a script is kept (its scripts run as Lua); another language is refused naming the line", () => {
    const [spec] = parseHttpText('GET http://x.test/\n\n# @lang=lua\n> {%\nprint(1)\n%}\n', 'f.http');
    expect([spec?.annotations.lang, spec?.chain?.scripts]).toEqual(['lua', [{ phase: 'post', code: '\nprint(1)\n', line: 4 }]]);
    expect(() => parseHttpText('GET http://x.test/\n\n# @lang=python\n> {%\nprint(1)\n%}\n', 'f.http')).toThrow('f.http:3:1: # @lang python: reqflow runs request scripts in JavaScript or Lua');
  });

  test('a request line after a blank line, or among the headers, starts a request without ### (httpyac)', () => {
    const specs = parseHttpText('# @name first\nGET http://x.test/a\nGET http://x.test/b\n\nPOST http://x.test/c\n\nbody\n\n# @name last\nDELETE http://x.test/d\n', 'f.http');
    expect(specs.map((spec) => `${spec.name} ${spec.method} ${spec.url} ${spec.body ?? ''}`)).toEqual(['first GET http://x.test/a ', 'request-2 GET http://x.test/b ', 'request-3 POST http://x.test/c body', 'last DELETE http://x.test/d ']);
    expect(specs[3]?.source.line).toBe(10);
    // Inside a JetBrains script block it is script text.
    const scripted = parseHttpText('GET http://x.test/a\n\n> {%\nGET http://x.test/b\n%}\n', 'f.http');
    expect(scripted).toHaveLength(1);
  });

  test('file variables below a body are for the requests below, not body text', () => {
    const specs = parseHttpText('POST http://x.test/a\n\n{"a": 1}\n\n@next = 2\n\n###\nGET http://x.test/{{next}}\n', 'f.http');
    expect(specs[0]?.body).toBe('{"a": 1}');
    expect(specs[0]?.fileVariables).toBeUndefined();
    expect(specs[1]?.fileVariables).toEqual({ next: '2' });
  });

  test('a body straight after the headers (httpyac) when its first line cannot be a header', () => {
    const specs = parseHttpText('POST http://x.test/a\nContent-Type: application/json\n{"a": 1}\n', 'f.http');
    expect(specs[0]?.headers).toEqual({ 'Content-Type': 'application/json' });
    expect(specs[0]?.body).toBe('{"a": 1}');
    expect(parseError('GET http://x.test/\nContent-Type application/json\n').message).toMatch(/header line has no "Name: value" form/);
    // A JetBrains response reference right below the headers: no body.
    expect(parseHttpText('GET http://x.test/a\nAccept: text/plain\n<> ./2024-01-31T120000.200.txt\n', 'f.http')[0]?.body).toBeUndefined();
  });

  test('CRLF line endings, a BOM and lower-case standard methods', () => {
    const [spec] = parseHttpText('\uFEFF### crlf\r\nget http://x.test/\r\nAccept: */*\r\n\r\nbody\r\n', 'f.http');
    expect(spec).toMatchObject({ name: 'crlf', method: 'GET', headers: { Accept: '*/*' }, body: 'body' });
  });

  // Found by the round-trip property: a lone CR (old Mac line end) hid a `###` and an annotation.
  test('a lone CR inside a ### line or an annotation is content, not a reason to miss the line', () => {
    const specs = parseHttpText('GET http://x.test/ HTTP/1.1\n### :\rz\n# @note a\rb\nGET http://x.test/b', 'f.http');
    expect(specs.map((s) => s.name)).toEqual(['request-1', ':\rz']);
    expect(specs[0]?.headers).toEqual({});
    expect(specs[1]?.annotations).toEqual({ note: 'a\rb' });
  });

  test('a bare URL is a GET', () => {
    expect(parseHttpText('{{baseUrl}}/health', 'f.http')[0]).toMatchObject({ method: 'GET', url: '{{baseUrl}}/health' });
  });

  test('errors name file, line and column', () => {
    expect(parseError('### a\nGET http://x.test/\nNoColonHere\n').message).toBe('api.http:3:1: header line has no "Name: value" form: NoColonHere');
    expect(parseError('### a\nG@T http://x.test/\n').message).toBe('api.http:2:2: invalid method "G@T"');
    expect(parseError('### a\n  GET\n').message).toBe('api.http:2:6: request line has no URL: GET');
    expect(parseError('### a\nGET http://x.test/ HTTP/3\n').message).toBe('api.http:2:20: HTTP/3 is not supported: reqflow speaks HTTP/1.1 and HTTP/2 and will not send this request as another version');
    expect(parseError('### a\nGET /users\n/* never closed\n').message).toBe('api.http:3:1: comment "/*" is never closed with "*/"');
    expect(parseError('GET http://x\u0000').message).toMatch(/not a text file/);
    const error = parseError('### a\nGET http://x.test/\nBad Name: v\n');
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe('api.http:3:4: invalid header name "Bad Name"');
  });

  test('a file of only comments has no requests', () => {
    expect(parseHttpText('# nothing here\n// or here\n', 'f.http')).toEqual([]);
  });

  test('print → parse is stable', () => {
    const text = '### one\n# @filter a.b\nPOST http://x.test/a\nContent-Type: text/plain\n\nhello\n\n### two\nDELETE http://x.test/b';
    const once = parseHttpText(text, 'f.http');
    const twice = parseHttpText(printHttpText(once), 'f.http');
    expect(twice.map(({ source: _s, ...rest }) => rest)).toEqual(once.map(({ source: _s, ...rest }) => rest));
  });
});

describe('building a request again (a run keeps none: src/pipeline/request-file.ts)', () => {
  test('request N built from its place in the text is the request the whole parse gave, in any order', () => {
    // File variables before and between requests, an httpyac global script, requests without
    // ### after a blank line, comments above them, a block comment holding ###, CRLF and CR CR LF
    // line ends, a body, checks and a trailing separator.
    const text = [
      '\uFEFF@host = http://x.test',
      '{{',
      '  exports.token = "t";',
      '}}',
      '',
      '### first',
      'GET {{host}}/a',
      'Accept: application/json',
      '',
      '@id = 7',
      '',
      '# @name second',
      'POST {{host}}/b/{{id}}\r',
      'Content-Type: application/json\r\r',
      '',
      '{"a": 1}',
      '',
      '?? status == 200',
      '',
      '# a comment above',
      'GET {{host}}/c',
      '',
      '/* ### not a separator',
      '*/',
      '###',
      '@id = 8',
      'DELETE {{host}}/d/{{id}}',
      '###',
      '',
    ].join('\n');
    const all = parseHttpText(text, 'f.http');
    const seen: unknown[] = [];
    const build = indexHttpText(text, 'f.http', (spec) => seen.push(spec));
    expect(seen).toEqual(all);
    expect(all.map((spec) => spec.name)).toEqual(['first', 'second', 'request-3', 'request-4']);
    for (const index of [3, 0, 2, 1, 3]) expect(build(index)).toEqual(all[index]);
    expect(build(1)).not.toBe(build(1)); // a fresh object each time: nothing is kept
  });

  test('a name written after ### is read again from its line: extra #, spaces, CR LF, the first line, # @name over it', () => {
    const text = ['### first\r', 'GET http://x.test/a\r', '\r', '#### ##  spaced  name \r\r', 'GET http://x.test/b', '', '###', 'GET http://x.test/c', '', '### third', '# @name over', 'GET http://x.test/d', '', 'GET http://x.test/e', ''].join('\n');
    const all = parseHttpText(text, 'f.http');
    const build = indexHttpText(text, 'f.http', () => undefined);
    expect(all.map((spec) => spec.name)).toEqual(['first', '##  spaced  name', 'request-3', 'over', 'request-5']);
    for (const index of [4, 3, 2, 1, 0]) expect(build(index)).toEqual(all[index]);
  });
});
