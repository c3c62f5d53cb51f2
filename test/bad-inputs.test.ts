/**
 * Every bad input has a clear answer: the exit code of DESIGN.md, one `reqflow: ...` line, a
 * `hint:` where one helps, never a stack trace. One row per bad input, each run through the
 * built CLI against real local servers (a refused port, a `.invalid` host, servers that hang,
 * stall, reset, send too much or send nonsense).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runCli, type CliResult } from './helpers/cli.js';
import { sessionFileFor } from './helpers/session-file.js';
import { errorLines, expectCleanFailure, expectNoStackTrace, type ExpectedFailure } from './helpers/expect-error.js';
import { refusedPort, startFaultServer, startGarbageServer, type FaultServer } from './helpers/fault-server.js';

interface Fixture {
  /** The fault server (see test/helpers/fault-server.ts). */
  api: string;
  /** http://127.0.0.1:<a port nothing listens on> */
  refused: string;
  /** A TCP server that does not speak HTTP. */
  garbage: string;
}

interface Case extends Partial<ExpectedFailure> {
  name: string;
  /** Files of the case's own folder; the request file is the first one unless `args` says otherwise. */
  files: (f: Fixture) => Record<string, string | Buffer>;
  /** Arguments after `run`; default: the first file. */
  args?: (f: Fixture, first: string) => string[];
  env?: Record<string, string>;
  /** For inputs that must be accepted: what stdout shows. */
  stdout?: RegExp;
  /** A warning line the run must print. */
  warning?: RegExp;
  /** Checks on what the server received. */
  received?: (server: FaultServer) => void;
  /** Session variables of profile `default`, as an earlier run in the case's folder left them. */
  session?: Record<string, string>;
}

const profiles = (value: unknown): string => JSON.stringify(value);
const http = (text: string) => (f: Fixture): Record<string, string> => ({ 'req.http': text.replaceAll('API', f.api) });
const withProfiles = (request: string, profileText: string) => (f: Fixture): Record<string, string> => ({ 'req.http': request.replaceAll('API', f.api), '.profiles.json': profileText });

const FILES: Case[] = [
  { name: 'empty HTTP file', files: () => ({ 'req.http': '' }), code: 2, message: /req\.http: no requests found/, hint: /request line/ },
  { name: 'HTTP file with only comments', files: () => ({ 'req.http': '# nothing here\n// nor here\n' }), code: 2, message: /no requests found/ },
  { name: 'bad method token', files: () => ({ 'req.http': 'G@T http://127.0.0.1/\n' }), code: 2, message: /req\.http:1:2: invalid method "G@T"/, hint: /METHOD URL/ },
  { name: 'request line without URL', files: () => ({ 'req.http': 'POST\n' }), code: 2, message: /req\.http:1:5: request line has no URL/, hint: /METHOD URL/ },
  { name: 'space inside the host of a URL', files: () => ({ 'req.http': 'GET http://exa mple.com/\n' }), code: 2, message: /not a valid URL: "http:\/\/exa%20mple\.com\/"/ },
  { name: 'HTTP/3 in the request line (never sent as another version)', files: () => ({ 'req.http': 'GET http://127.0.0.1/ HTTP/3\n' }), code: 2, message: /req\.http:1:\d+: HTTP\/3 is not supported/ },
  { name: 'saving the response to a file (>> ./out.json)', files: () => ({ 'req.http': 'GET http://127.0.0.1/\n\n>> ./out.json\n' }), code: 2, message: /req\.http:3:1: saving the response to a file \(>> \.\/file\) is not supported yet/ },
  { name: 'a script block never closed', files: () => ({ 'req.http': 'GET http://127.0.0.1/\n\n> {%\n  client.test("x", () => {});\n' }), code: 2, message: /req\.http:3:1: script block "\{%" is never closed with "%\}"/ },
  { name: 'an annotation after the checks', files: () => ({ 'req.http': 'GET http://127.0.0.1/\n\n?? status == 200\n# @capture id = $.id\n' }), code: 2, message: /req\.http:4:1: annotation after the response checks/, hint: /above the request line/ },
  { name: 'a # @capture without an expression', files: () => ({ 'req.http': '# @capture id\nGET http://127.0.0.1/\n' }), code: 2, message: /req\.http:1:1: # @capture needs a name and an expression/, hint: /# @capture id = \$\.data\.id/ },
  { name: 'a missing body file', files: () => ({ 'req.http': 'POST http://127.0.0.1:1/\nContent-Type: application/json\n\n< ./missing.json\n' }), code: 2, message: /cannot read the body file \.\/missing\.json \(.*req\.http:4\): no such file/ },
  { name: 'header without colon', files: () => ({ 'req.http': 'GET http://127.0.0.1/\nX-Token abc\n' }), code: 2, message: /req\.http:2:1: header line has no "Name: value" form: X-Token abc/, hint: /did you mean "X-Token: abc"\? a header is "Name: value"$/ },
  { name: 'header name alone', files: () => ({ 'req.http': 'GET http://127.0.0.1/\nAuthorization\n' }), code: 2, message: /req\.http:2:1: header line has no "Name: value" form: Authorization/, hint: /a header is "Name: value", e\.g\. Accept: application\/json$/ },
  { name: 'form body without a blank line before it', files: () => ({ 'req.http': 'POST http://127.0.0.1/\nContent-Type: application/x-www-form-urlencoded\na=1&b=2\n' }), code: 2, message: /req\.http:3:1: header line has no "Name: value" form: a=1&b=2/, hint: /a header is "Name: value"; if this line is the body, put a blank line before it$/ },
  { name: 'header name with a space', files: () => ({ 'req.http': 'GET http://127.0.0.1/\nX Token: abc\n' }), code: 2, message: /req\.http:2:2: invalid header name "X Token"/ },
  { name: 'binary junk (NUL bytes)', files: () => ({ 'req.http': Buffer.from([0x47, 0x45, 0x00, 0x01, 0x02, 0xff, 0x7f, 0x00, 0x0a]) }), code: 2, message: /req\.http:1:\d+: not a text file \(it contains NUL bytes\)/, hint: /UTF-8/ },
  { name: 'not UTF-8 (Latin-1 body)', files: () => ({ 'req.http': Buffer.concat([Buffer.from('POST http://127.0.0.1/\n\ncaf'), Buffer.from([0xe9]), Buffer.from('\n')]) }), code: 2, message: /req\.http:3:4: not valid UTF-8 text/, hint: /iconv/ },
  { name: '10 MB single line', files: () => ({ 'req.http': 'A'.repeat(10 * 1024 * 1024) }), code: 2, message: /req\.http:1:\d+: request line has no URL: A{50,}\.\.\./ },
  {
    name: 'CRLF line endings, a BOM and tabs are accepted',
    files: http('\uFEFF### crlf\r\nPOST\tAPI/ok?via=crlf\tHTTP/1.1\r\nX-Tab:\tvalue\t\r\nContent-Type: text/plain\r\n\r\nline one\r\nline two\r\n'),
    code: 0,
    stdout: /"ok": true/,
    received: (server) => {
      const got = server.requests.find((r) => r.url === '/ok?via=crlf');
      expect(got?.headers['x-tab']).toBe('value');
      expect(got?.body).toBe('line one\nline two');
    },
  },
  { name: 'an unknown # @streaming value', files: () => ({ 'req.http': '# @streaming maybe\nGET http://127.0.0.1:1/\n' }), code: 2, message: /# @streaming of request "request-1" \(.*req\.http:1\) expects true or false, got "maybe"/ },
  { name: 'a protocol reqflow does not speak (# @protocol grpc)', files: () => ({ 'req.http': '# @protocol grpc\nGET http://127.0.0.1:1/\n' }), code: 2, message: /# @protocol of request "request-1" \(.*req\.http:1\) expects graphql or websocket, got "grpc"/, hint: /plugins/ },
  { name: 'a YAML protocol reqflow does not speak', files: () => ({ 'req.yaml': 'url: http://127.0.0.1:1/\nprotocol: grpc\n' }), code: 2, message: /# @protocol of request "request-1" .* expects graphql or websocket/ },
  {
    name: 'UTF-16 (BE) with a byte-order mark is read as UTF-16',
    files: (f) => ({ 'req.http': Buffer.from(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(`GET ${f.api}/ok?via=utf16be\n`, 'utf16le').swap16()])) }),
    code: 0,
    stdout: /"ok": true/,
    received: (server) => expect(server.requests.some((r) => r.url === '/ok?via=utf16be')).toBe(true),
  },
  { name: 'UTF-16 without a byte-order mark', files: () => ({ 'req.http': Buffer.from('GET http://127.0.0.1:1/\n', 'utf16le') }), code: 2, message: /req\.http:1:1: not UTF-8 text: it looks like UTF-16 without a byte-order mark/, hint: /iconv -f utf-16le/ },
  {
    name: 'UTF-16 (LE) with a byte-order mark is read as UTF-16',
    // Past ASCII in the URL, where it goes out percent-encoded as UTF-8 (a header value holds ASCII only).
    files: (f) => ({ 'req.http': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`GET ${f.api}/ok?via=utf16&name=Zoë\nX-Name: Zoe\n`, 'utf16le')]) }),
    code: 0,
    stdout: /"ok": true/,
    received: (server) => {
      expect(server.requests.find((r) => r.url === '/ok?via=utf16&name=Zo%C3%AB')?.headers['x-name']).toBe('Zoe');
    },
  },
  { name: 'YAML that does not parse', files: () => ({ 'req.yaml': 'name: a\nurl: [http://x\n' }), code: 2, message: /req\.yaml:\d+:\d+: invalid YAML: / },
  { name: 'empty YAML file', files: () => ({ 'req.yaml': '\n' }), code: 2, message: /req\.yaml:1:1: empty file/, hint: /requests/ },
  { name: 'YAML field of the wrong type', files: () => ({ 'req.yaml': 'url: 5\n' }), code: 2, message: /req\.yaml: url: expected a URL string/ },
  { name: 'YAML unknown field', files: () => ({ 'req.yaml': 'url: http://127.0.0.1/\nheadrs: {}\n' }), code: 2, message: /req\.yaml: headrs: unknown field/, hint: /known fields: .*headers/ },
  { name: 'YAML method that is not a token', files: () => ({ 'req.yaml': 'method: "GE T"\nurl: http://127.0.0.1/\n' }), code: 2, message: /req\.yaml: method: expected an HTTP method/ },
  { name: 'YAML scalar document', files: () => ({ 'req.yaml': 'just some words\n' }), code: 2, message: /req\.yaml: expected a request object, an array of requests/ },
  { name: 'JSON that does not parse', files: () => ({ 'req.json': '{\n  "url": "http://127.0.0.1/",\n  oops\n}' }), code: 2, message: /req\.json:3:3: invalid JSON: / },
  { name: 'empty JSON file', files: () => ({ 'req.json': '' }), code: 2, message: /req\.json:1:1: empty file/ },
  { name: 'JSON headers of the wrong type', files: () => ({ 'req.json': '{"url": "http://127.0.0.1/", "headers": ["a"]}' }), code: 2, message: /req\.json: headers: expected an object/ },
  { name: 'JSON header value that is an object', files: () => ({ 'req.json': '{"requests": [{"url": "http://127.0.0.1/", "headers": {"X": {}}}]}' }), code: 2, message: /req\.json: requests\[0\]\.headers\.X: expected a string/ },
  { name: 'request file that does not exist', files: () => ({}), args: () => ['missing.http'], code: 2, message: /cannot read request file .*missing\.http: no such file/ },
  { name: 'request file that is a folder', files: () => ({ 'sub/.keep': '' }), args: () => ['sub'], code: 2, message: /cannot read request file .*sub: it is a folder/, hint: /to run every request file in it: reqflow test \/.*\/sub$/ },
  { name: 'a URL instead of a request file', files: () => ({}), args: () => ['http://127.0.0.1:1/x?a=1&b=2'], code: 2, message: /reqflow runs request files, not URLs: http:\/\/127\.0\.0\.1:1\/x\?a=1&b=2$/, hint: /to send one request: reqflow send 'http:\/\/127\.0\.0\.1:1\/x\?a=1&b=2'$/ },
  { name: 'a method and a URL instead of a request file', files: () => ({}), args: () => ['POST', 'http://127.0.0.1:1/x'], code: 2, message: /reqflow runs request files, not URLs: POST http:\/\/127\.0\.0\.1:1\/x$/, hint: /to send one request: reqflow send POST http:\/\/127\.0\.0\.1:1\/x$/ },
  { name: 'YAML requests that is no list', files: () => ({ 'req.yaml': 'requests: 5\n' }), code: 2, message: /req\.yaml: requests: expected a list of requests, got number$/ },
  { name: 'a flag whose value starts with a dash', files: () => ({ 'req.http': 'GET http://127.0.0.1:1/\n' }), args: (_f, file) => [file, '--timeout', '-5'], code: 2, message: /--timeout takes a value, and the next argument starts with a dash$/, hint: /write --timeout=VALUE/ },
  { name: 'request name that does not exist', files: () => ({ 'req.http': '### one\nGET http://127.0.0.1/\n\n### two\nGET http://127.0.0.1/\n' }), args: (_f, file) => [file, '-n', 'three'], code: 2, message: /no request named "three"/, hint: /requests in this file: one, two/ },
];

const PROFILES: Case[] = [
  { name: '.profiles.json that is not JSON', files: withProfiles('GET API/ok\n', '[{"name": "dev",]'), code: 2, message: /\.profiles\.json:1:17: not valid JSON \(Expected double-quoted property name\)/, hint: /array of profiles/ },
  { name: '.profiles.json of the wrong shape', files: withProfiles('GET API/ok\n', '{"dev": {}}'), code: 2, message: /\.profiles\.json: expected an array of profiles or \{"profiles": \[\.\.\.\]\}/ },
  { name: 'profile name of the wrong type', files: withProfiles('GET API/ok\n', profiles([{ name: 7 }])), code: 2, message: /profiles\[0\]\.name: expected a non-empty string/ },
  { name: 'profile variables of the wrong type', files: withProfiles('GET API/ok\n', profiles([{ name: 'dev', variables: ['a'] }])), code: 2, message: /profiles\[0\]\.variables: expected an object/ },
  { name: 'profile header value of the wrong type', files: withProfiles('GET API/ok\n', profiles({ profiles: [{ name: 'dev', headers: { 'X-Retry': 3 } }] })), code: 2, message: /profiles\[0\]\.headers\.X-Retry: expected a string/ },
  { name: 'profile tls flag of the wrong type', files: withProfiles('GET API/ok\n', profiles([{ name: 'dev', tls: { insecureSkipVerify: 'maybe' } }])), code: 2, message: /profiles\[0\]\.tls\.insecureSkipVerify: expected true or false/ },
  { name: 'profile OAuth grant that does not exist', files: withProfiles('GET API/ok\n', profiles([{ name: 'dev', oauth: { clientId: 'a', grant: 'password' } }])), code: 2, message: /profiles\[0\]\.oauth\.grant: expected "authorization_code", "client_credentials" or "device_code"/ },
  { name: 'duplicate profile names', files: withProfiles('GET API/ok\n', profiles([{ name: 'dev' }, { name: 'prod' }, { name: 'dev' }])), code: 2, message: /profile name "dev" is used more than once/, hint: /unique/ },
  { name: 'unknown profile selected with -p', files: withProfiles('GET API/ok\n', profiles([{ name: 'dev' }, { name: 'prod' }])), args: (_f, file) => [file, '-p', 'staging'], code: 2, message: /unknown profile "staging" in .*\.profiles\.json/, hint: /available profiles: dev, prod/ },
  { name: 'unknown profile selected with REQFLOW_PROFILE', files: withProfiles('GET API/ok\n', profiles([{ name: 'dev' }])), env: { REQFLOW_PROFILE: 'qa' }, code: 2, message: /unknown profile "qa"/, hint: /available profiles: dev/ },
  { name: '--profiles file that does not exist', files: http('GET API/ok\n'), args: (_f, file) => [file, '--profiles', 'nope.json'], code: 2, message: /cannot read profiles file .*nope\.json: no such file/ },
];

const VARIABLES: Case[] = [
  // No .profiles.json: the hint says how to start one, not to edit one that is not there.
  { name: 'unknown variable', files: http('GET API/{{userId}}\n'), code: 3, message: /unknown variable "userId" in request "request-1"/, hint: /set it with -e userId=value, or in a \.profiles\.json beside the request file: \[\{"name": "default", "variables": \{"userId": "…"\}\}\]$/ },
  { name: 'unknown variable with a .profiles.json', files: withProfiles('GET API/{{userId}}\n', profiles([{ name: 'dev' }])), code: 3, message: /unknown variable "userId"/, hint: /set it with -e userId=value, in the "variables" of profile "dev" in \/.*\/\.profiles\.json, or from an earlier response/ },
  { name: 'variable typo, close to a profile variable', files: withProfiles('GET {{baseUrll}}/ok\n', profiles([{ name: 'dev', variables: { baseUrl: 'http://127.0.0.1:1' } }])), code: 3, message: /unknown variable "baseUrll"/, hint: /did you mean "\{\{baseUrl\}\}"\? \(in profile "dev" of \/.*\/\.profiles\.json\)$/ },
  { name: 'variable typo, close to a -e variable', files: http('GET {{baseurl}}/ok\n'), args: (f, file) => [file, '-e', `baseUrl=${f.api}`], code: 3, message: /unknown variable "baseurl"/, hint: /did you mean "\{\{baseUrl\}\}"\? \(set with -e\)$/ },
  { name: 'variable typo, close to a file variable', files: http('@host = API\n\nGET {{hots}}/ok\n'), code: 3, message: /unknown variable "hots"/, hint: /did you mean "\{\{host\}\}"\? \(a file variable: @host = …\)$/ },
  {
    name: 'variable typo, close to a session variable',
    files: () => ({ 'req.http': 'GET http://127.0.0.1:1/\nAuthorization: Bearer {{tokn}}\n' }),
    session: { token: 'abc' },
    code: 3,
    message: /unknown variable "tokn"/,
    hint: /did you mean "\{\{token\}\}"\? \(in the session of profile "default"\)$/,
  },
  // A package.json makes the case folder the project root: no environment file above it is read.
  { name: 'variable typo, close to a variable of the environment picked', files: () => ({ 'req.http': 'GET {{baseUrll}}/ok\n', 'http-client.env.json': JSON.stringify({ dev: { baseUrl: 'http://127.0.0.1:1' } }), 'package.json': '{}' }), args: (_f, file) => [file, '--env', 'dev'], code: 3, message: /unknown variable "baseUrll"/, hint: /did you mean "\{\{baseUrl\}\}"\? \(in environment "dev"\)$/ },
  {
    name: 'variable that an environment not picked defines',
    files: () => ({ 'req.http': 'GET {{baseUrl}}/ok\n', 'http-client.env.json': JSON.stringify({ $shared: { other: 'x' }, dev: { baseUrl: 'http://127.0.0.1:1' } }), 'package.json': '{}' }),
    code: 3,
    message: /unknown variable "baseUrl"/,
    hint: /--env dev \(http-client\.env\.json\) defines it; or set it with -e baseUrl=value$/,
  },
  { name: 'variable that another environment than the one picked defines', files: () => ({ 'req.http': 'GET {{baseUrl}}/ok\n', 'dev.env': 'other=x\n', 'prod.env': 'baseUrl=http://127.0.0.1:1\n', 'package.json': '{}' }), args: (_f, file) => [file, '--env', 'dev'], code: 3, message: /unknown variable "baseUrl"/, hint: /--env prod \(prod\.env\) defines it/ },
  { name: '--env in another case than the environment', files: () => ({ 'req.http': 'GET {{baseUrl}}/ok\n', 'http-client.env.json': JSON.stringify({ dev: { baseUrl: 'x' }, prod: { baseUrl: 'y' } }), 'package.json': '{}' }), args: (_f, file) => [file, '--env', 'Dev'], code: 2, message: /no environment "Dev" in the environment files/, hint: /did you mean --env dev\? environments found: dev \(http-client\.env\.json\), prod \(http-client\.env\.json\)$/ },
  { name: 'variable cycle a → b → a', files: withProfiles('GET API/{{a}}\n', profiles([{ name: 'dev', variables: { a: 'x{{b}}', b: 'y{{a}}' } }])), code: 3, message: /variable cycle: a → b → a/, hint: /itself/ },
  { name: 'shell value that fails', args: (_f, file) => [file, '--trust'], files: withProfiles('GET API/{{who}}\n', profiles([{ name: 'dev', variables: { who: '$(echo "no such user" >&2; exit 7)' } }])), code: 3, message: /shell value of "who" failed with exit code 7: no such user/, hint: /the command was/ },
  { name: 'shell value that prints without end (yes)', args: (_f, file) => [file, '--trust'], files: withProfiles('GET API/{{who}}\n', profiles([{ name: 'dev', variables: { who: '$(yes)' } }])), code: 3, message: /shell value of "who" printed more than 4 MiB/, hint: /the command was/ },
  { name: 'shell value that prints nothing', args: (_f, file) => [file, '--trust'], files: withProfiles('GET API/{{who}}\n', profiles([{ name: 'dev', variables: { who: '$(true)' } }])), code: 3, message: /shell value of "who" printed nothing/ },
  { name: 'shell value that hangs past the time-out', args: (_f, file) => [file, '--trust'], files: withProfiles('GET API/{{who}}\n', profiles([{ name: 'dev', variables: { who: '$(sleep 60)' } }])), code: 3, message: /shell value of "who" timed out after 10 s/, hint: /check the command/ },
  { name: 'environment variable that is not set', files: http('GET API/{{env.REQFLOW_TEST_UNSET}}\n'), code: 3, message: /environment variable REQFLOW_TEST_UNSET is not set/, hint: /export REQFLOW_TEST_UNSET=/ },
  { name: 'interactive variable without a terminal', files: withProfiles('GET API/{{otp}}\n', profiles([{ name: 'dev', variables: { otp: { value: '', interactive: true } } }])), code: 3, message: /variable "otp" is interactive but stdin is not a terminal/, hint: /-e otp=/ },
  { name: 'unknown template helper', files: http('GET API/ok\nX-Name: {{shout name}}\n'), code: 3, message: /unknown template helper "shout"/, hint: /urlencode, base64/ },
  { name: '-e without NAME=VALUE', files: http('GET API/ok\n'), args: (_f, file) => [file, '-e', 'token'], code: 2, message: /-e expects NAME=VALUE, got "token"/, hint: /-e token=abc123/ },
];

const FILTERS_URLS_FLAGS: Case[] = [
  { name: 'invalid --filter', files: http('GET API/ok\n'), args: (_f, file) => [file, '--filter', 'items[?'], code: 2, message: /invalid JMESPath filter "items\[\?" \(--filter\): /, hint: /jmespath/ },
  { name: 'invalid # @filter', files: http('# @filter users[0\nGET API/ok\n'), code: 2, message: /invalid JMESPath filter "users\[0" in request "request-1" \(.*req\.http:2\)/, hint: /jmespath/ },
  { name: 'filter on a response that is not JSON', files: http('GET API/html\n'), args: (_f, file) => [file, '--filter', 'a'], code: 1, message: /cannot apply the filter to the response of "request-1": the body is not valid JSON/, hint: /JSON responses only/ },
  { name: 'URL that is not a URL', files: http('GET not-a-url\n'), code: 2, message: /not a valid URL: "not-a-url"/, hint: /absolute/ },
  { name: 'URL made of a variable that is not a URL', files: http('GET {{base}}/users\n'), args: (_f, file) => [file, '-e', 'base=users-api'], code: 2, message: /not a valid URL: "users-api\/users"/ },
  { name: 'unsupported scheme ftp://', files: http('GET ftp://127.0.0.1/file.txt\n'), code: 2, message: /unsupported URL scheme "ftp"/, hint: /http:\/\/ and https:\/\// },
  { name: 'unsupported scheme file://', files: http('GET file:///etc/passwd\n'), code: 2, message: /unsupported URL scheme "file"/ },
  // WHATWG URL only says "Invalid URL": not blamed on a missing {{baseUrl}}.
  { name: 'port out of range', files: http('GET http://127.0.0.1:99999/ok\n'), code: 2, message: /req\.http:1: port 99999 is out of range \(1–65535\) in http:\/\/127\.0\.0\.1:99999\/ok$/ },
  { name: 'port out of range, from a variable', files: http('### a\nGET {{base}}/ok\n'), args: (_f, file) => [file, '-e', 'base=http://127.0.0.1:70000'], code: 2, message: /req\.http:2: port 70000 is out of range \(1–65535\) in http:\/\/127\.0\.0\.1:70000\/ok, from \{\{base\}\}$/ },
  { name: 'flag with a typo', files: http('GET API/ok\n'), args: (_f, file) => [file, '--evn', 'dev'], code: 2, message: /^reqflow: unknown flag '--evn'$/, hint: /did you mean --env\? \(see reqflow run --help\)$/ },
  { name: '--timeout that is not a number', files: http('GET API/ok\n'), args: (_f, file) => [file, '--timeout', '3s'], code: 2, message: /--timeout expects a positive whole number, got "3s"/ },
  { name: '--output that does not exist', files: http('GET API/ok\n'), args: (_f, file) => [file, '-o', 'xml'], code: 2, message: /xml/ },
];

const TLS: Case[] = [
  { name: 'TLS CA file missing', files: http('# @tls.caFile missing-ca.pem\nGET https://127.0.0.1:1/\n'), code: 5, message: /CA file.*missing-ca\.pem.*(not found|no such file)|CA file not found: .*missing-ca\.pem/, hint: /tls paths/ },
  { name: 'TLS client certificate missing', files: withProfiles('GET https://127.0.0.1:1/\n', profiles([{ name: 'dev', tls: { certFile: 'client.pem', keyFile: 'client.key' } }])), code: 5, message: /client certificate.*client\.pem|client certificate not found: .*client\.pem/ },
  { name: 'TLS CA file unreadable (a folder)', files: () => ({ 'req.http': '# @tls.caFile certs\nGET https://127.0.0.1:1/\n', 'certs/.keep': '' }), code: 5, message: /cannot read CA file .*certs/ },
  { name: 'TLS client certificate and key not PEM', files: () => ({ 'req.http': '# @tls.certFile cert.pem\n# @tls.keyFile key.pem\nGET https://127.0.0.1:1/\n', 'cert.pem': 'not a certificate\n', 'key.pem': 'not a key\n' }), code: 5, message: /not PEM|PEM/i },
  { name: 'TLS CA file not PEM', files: () => ({ 'req.http': '# @tls.caFile ca.pem\nGET https://127.0.0.1:1/\n', 'ca.pem': 'just text, no certificate\n' }), code: 5, message: /CA file .*ca\.pem.*(not PEM|no PEM certificate)/i },
  { name: 'TLS PKCS#12 file that is not a bundle', files: () => ({ 'req.http': '# @tls.pfxFile client.p12\nGET https://127.0.0.1:1/\n', 'client.p12': 'garbage' }), code: 5, message: /PKCS#12/ },
];

const NETWORK: Case[] = [
  { name: 'connection refused', files: (f) => ({ 'req.http': `GET ${f.refused}/users\n` }), code: 4, message: /connection refused by 127\.0\.0\.1:\d+/, hint: /server running/ },
  { name: 'DNS failure (.invalid host)', files: () => ({ 'req.http': 'GET http://reqflow-test.invalid/users\n' }), code: 4, message: /cannot resolve host "reqflow-test\.invalid" \(DNS lookup failed\)/, hint: /host name/ },
  { name: 'server that accepts and never answers', files: http('GET API/hang\n'), args: (_f, file) => [file, '--timeout', '300'], code: 4, message: /GET http:\/\/127\.0\.0\.1:\d+\/hang timed out after 300 ms/, hint: /--timeout/ },
  { name: 'server that stalls mid-body', files: http('GET API/stall\n'), args: (_f, file) => [file, '--timeout', '300'], code: 4, message: /\/stall timed out after 300 ms/, hint: /--timeout/ },
  { name: 'server that resets mid-body', files: http('GET API/reset\n'), code: 4, message: /connection to 127\.0\.0\.1:\d+ was reset/, hint: /closed the connection/ },
  { name: 'server that resets mid-body (-o raw)', files: http('GET API/reset\n'), args: (_f, file) => [file, '-o', 'raw'], code: 4, message: /was reset/ },
  { name: 'server that does not speak HTTP', files: (f) => ({ 'req.http': `GET ${f.garbage}/\n` }), code: 4, message: /127\.0\.0\.1:\d+ (did not answer with valid HTTP|sent a malformed HTTP response)/ },
  { name: 'https:// to a plain HTTP port', files: (f) => ({ 'req.http': `GET ${f.api.replace('http:', 'https:')}/ok\n` }), code: 5, message: /TLS error with 127\.0\.0\.1:\d+/ },
  // --max-size bounds what must be held in memory (-o json, filters); streamed output needs no bound.
  { name: 'response larger than --max-size (-o json)', files: http('GET API/big?bytes=200000\n'), args: (_f, file) => [file, '--max-size', '10000', '-o', 'json'], code: 4, message: /response is larger than --max-size \(10000 bytes\)/, hint: /raise --max-size/ },
  { name: 'response larger than --max-size with a filter', files: http('GET API/big?bytes=200000\n'), args: (_f, file) => [file, '--max-size', '10000', '--filter', 'items[0]', '-o', 'raw'], code: 4, message: /larger than --max-size/ },
  { name: 'invalid UTF-8 in a JSON response', files: http('GET API/bad-utf8\n'), code: 0, warning: /response says JSON but the body is not valid UTF-8/, stdout: /"name":"\uFFFD\(\uFFFD"/ },
  { name: 'invalid JSON in a JSON response', files: http('GET API/bad-json\n'), code: 0, warning: /response says JSON but the body is not valid JSON/, stdout: /\{"name": nope,/ },
  { name: 'invalid JSON in a JSON response (-o json)', files: http('GET API/bad-json\n'), args: (_f, file) => [file, '-o', 'json'], code: 0, warning: /"body" holds it as text/, stdout: /"body":"\{\\"name\\": nope,"/ },
  { name: 'invalid UTF-8 in a JSON response with a filter', files: http('GET API/bad-utf8\n'), args: (_f, file) => [file, '--filter', 'name'], code: 1, message: /the body is not valid UTF-8/ },
];

/** A profile whose client-credentials token endpoint misbehaves; the request uses {{token}}. */
const oauthProfile = (path: string) => (f: Fixture): Record<string, string> => ({
  'req.http': `GET ${f.api}/ok\nAuthorization: Bearer {{token}}\n`,
  '.profiles.json': profiles([{ name: 'dev', oauth: { grant: 'client_credentials', clientId: 'cli', clientSecret: 'client-secret-value', tokenUrl: `${f.api}${path}` } }]),
});

const OAUTH: Case[] = [
  { name: 'OAuth token endpoint answers HTML', files: oauthProfile('/oauth/html'), code: 6, message: /token endpoint http:\/\/127\.0\.0\.1:\d+\/oauth\/html answered HTTP 200 with text\/html, not an OAuth JSON response/, hint: /oauth\.tokenUrl/ },
  { name: 'OAuth token endpoint answers garbage', files: oauthProfile('/oauth/garbage'), code: 6, message: /token endpoint .*\/oauth\/garbage answered with malformed JSON/, hint: /oauth\.tokenUrl/ },
  { name: 'OAuth token endpoint answers without access_token', files: oauthProfile('/oauth/empty'), code: 6, message: /token endpoint .*\/oauth\/empty .*access_token/, hint: /oauth\.tokenUrl/ },
  { name: 'OAuth token endpoint refuses the client', files: oauthProfile('/oauth/denied'), code: 6, message: /token endpoint rejected the request: invalid_client/, hint: /clientSecret/ },
  // A network failure keeps its own exit code (4), naming the OAuth endpoint.
  { name: 'OAuth token endpoint unreachable', files: (f) => ({ ...oauthProfile('/x')(f), '.profiles.json': profiles([{ name: 'dev', oauth: { grant: 'client_credentials', clientId: 'cli', clientSecret: 's', tokenUrl: `${f.refused}/token` } }]) }), code: 4, message: /cannot reach the OAuth endpoint http:\/\/127\.0\.0\.1:\d+\/token: connection refused/, hint: /server running/ },
];

const ALL: Array<[string, Case[]]> = [
  ['request files', FILES],
  ['profiles', PROFILES],
  ['variables', VARIABLES],
  ['filters, URLs and flags', FILTERS_URLS_FLAGS],
  ['TLS files', TLS],
  ['network', NETWORK],
  ['OAuth endpoints', OAUTH],
];

let api: FaultServer;
let garbage: { url: string; close(): Promise<void> };
let fixture: Fixture;
const root = mkdtempSync(join(tmpdir(), 'reqflow-bad-'));

beforeAll(async () => {
  api = await startFaultServer();
  garbage = await startGarbageServer();
  fixture = { api: api.url, refused: `http://127.0.0.1:${await refusedPort()}`, garbage: garbage.url };
});

afterAll(async () => {
  await api.close();
  await garbage.close();
  rmSync(root, { recursive: true, force: true });
});

async function runCase(c: Case, index: number): Promise<CliResult> {
  const dir = join(root, `case-${index}`);
  mkdirSync(dir, { recursive: true });
  const files = c.files(fixture);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  if (c.session) {
    const path = sessionFileFor(join(dir, 'state'), dir);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify({ version: 1, variables: c.session, data: {} }));
  }
  const first = Object.keys(files)[0] ?? 'req.http';
  const args = c.args ? c.args(fixture, first) : [first];
  return runCli(['run', ...args], { cwd: dir, env: { REQFLOW_STATE_DIR: join(dir, 'state'), ...c.env }, timeoutMs: 25_000 });
}

test('the table covers at least 40 bad inputs', () => {
  expect(ALL.reduce((n, [, cases]) => n + cases.length, 0)).toBeGreaterThanOrEqual(40);
});

let counter = 0;
for (const [group, cases] of ALL) {
  describe(group, () => {
    // Concurrent: the rows are independent child processes (the shell time-out row waits 10 s).
    test.concurrent.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
      const result = await runCase(c, counter++);
      if (c.message) {
        expectCleanFailure(result, { code: c.code ?? 2, message: c.message, ...(c.hint ? { hint: c.hint } : {}) });
      } else {
        expect({ code: result.code, stderr: result.stderr }).toEqual({ code: c.code ?? 0, stderr: expect.any(String) });
        expect(errorLines(result.stderr)).toEqual([]);
        expectNoStackTrace(result.stderr + result.stdout);
      }
      if (c.warning) expect(result.stderr).toMatch(new RegExp(`^reqflow: warning: .*${c.warning.source}`, 'm'));
      if (c.stdout) expect(result.stdout).toMatch(c.stdout);
      c.received?.(api);
    });
  });
}
