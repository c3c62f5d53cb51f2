/**
 * Secrets never reach the user's screen or logs: a full run with every kind of secret (auth
 * headers, cookies, API keys, secret-named variables from -e, the profile, a shell command
 * and the session, secrets in URL paths and query strings, in headers with harmless names,
 * in error messages) is made in every output mode, and every output channel (stdout and
 * stderr, with -v, -o json, --debug, REQFLOW_DEBUG) is searched for the raw values and their
 * URL and base64 encodings. The server proves the secrets were really sent.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { CliResult } from './helpers/cli.js';
import { expectMaskedHeaders, expectNoSecrets, project, type Project } from './helpers/auth-project.js';
import { refusedPort, startFaultServer, type FaultServer } from './helpers/fault-server.js';

const SECRETS = {
  cliToken: 'CLI-apiToken-7f3a9c1e',
  profileKey: 'PROFILE-apiKey-2b8d4e6f',
  clientSecret: 'PROFILE-clientSecret-91ac',
  shellPassword: 'SHELL-dbPassword-5e0f',
  sessionToken: 'SESSION-token-c4d2a8b0',
  cookie: 'COOKIE-sessionid-66aa',
  signature: 'HMAC-signature-0b1c2d',
  proxy: 'proxyuser:PROXY-pass-3c3c',
  querySecret: 'QUERY-accessKey-8e8e',
  literalKey: 'LITERAL-api-key-4d4d',
} as const;
const ALL = Object.values(SECRETS);

let server: FaultServer;
let refused: string;
let p: Project;

const REQUESTS = `### call
POST {{baseUrl}}/echo-nothing/{{apiToken}}?access_key={{accessKey}}&plain=1&sig={{requestSignature}}
Authorization: Bearer {{token}}
Proxy-Authorization: Basic {{base64 proxyCreds}}
Cookie: sessionid=${SECRETS.cookie}
X-Client-Secret: {{clientSecret}}
X-Db-Password: {{dbPassword}}
X-Signature: {{requestSignature}}
X-Harmless-Name: {{apiToken}}
Content-Type: application/json

{"password": "{{dbPassword}}", "key": "{{apiKey}}"}

### refused
GET {{refusedBase}}/users/{{apiToken}}?api_key={{apiKey}}
Authorization: Bearer {{token}}

### bad-url
GET {{apiToken}}

### shell-fails
GET {{baseUrl}}/ok
X-Leak: {{leakyPassword}}
`;

/** A URL written whole that cannot be sent is refused before the run sends anything: its own file. */
const LITERAL = `### literal-key-in-url
GET ftp://files.example.test/report.csv?api_key=${SECRETS.literalKey}
`;

beforeAll(async () => {
  server = await startFaultServer();
  refused = `http://127.0.0.1:${await refusedPort()}`;
  p = project();
  p.write('api.http', REQUESTS);
  p.write('literal.http', LITERAL);
  p.profiles([
    {
      name: 'dev',
      variables: {
        baseUrl: server.url,
        refusedBase: refused,
        apiKey: SECRETS.profileKey,
        clientSecret: SECRETS.clientSecret,
        dbPassword: `$(printf %s ${SECRETS.shellPassword})`,
        // A failing command whose error output repeats a secret: the message must not show it.
        leakyPassword: `$(printf 'bad password %s' {{dbPassword}} >&2; exit 1)`,
        requestSignature: SECRETS.signature,
        proxyCreds: SECRETS.proxy,
        accessKey: SECRETS.querySecret,
      },
      headers: { 'X-API-Key': '{{apiKey}}' },
    },
  ]);
  p.seedSession('dev', { token: SECRETS.sessionToken });
});

afterAll(async () => {
  await server.close();
  p.cleanup();
});

const run = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> => p.run(['run', 'api.http', '-e', `apiToken=${SECRETS.cliToken}`, '--trust', ...args], env);

describe('secrets are masked in every output channel', () => {
  // Every row has three entries: jest treats a missing one as a `done` callback.
  const modes: Array<[string, string[], NodeJS.ProcessEnv]> = [
    ['pretty -v', ['-v'], {}],
    ['pretty -v --debug', ['-v', '--debug'], {}],
    ['-o json', ['-o', 'json'], {}],
    ['-o json -v --debug', ['-o', 'json', '-v', '--debug'], {}],
    ['-o raw -v', ['-o', 'raw', '-v'], {}],
    ['pretty -v with REQFLOW_DEBUG=1', ['-v'], { REQFLOW_DEBUG: '1' }],
    ['pretty -v --color', ['-v', '--color'], {}],
  ];

  test.each(modes)('%s', async (_name, args, env) => {
    const before = server.requests.length;
    const result = await run(args, env);
    // The run really happened: the call reached the server carrying every secret...
    const sent = server.requests.slice(before).find((r) => r.url.startsWith('/echo-nothing/'));
    expect(sent).toBeDefined();
    const wire = JSON.stringify(sent);
    for (const secret of [SECRETS.cliToken, SECRETS.profileKey, SECRETS.clientSecret, SECRETS.shellPassword, SECRETS.sessionToken, SECRETS.cookie, SECRETS.signature, SECRETS.querySecret]) expect(wire).toContain(secret);
    expect(wire).toContain(Buffer.from(SECRETS.proxy).toString('base64'));
    // ...the other requests failed as expected (refused: 4 is the first error's code)...
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/connection refused/);
    expect(result.stderr).toMatch(/not a valid URL: "•••"/);
    expect(result.stderr).toMatch(/shell value of "leakyPassword" failed with exit code 1: bad password •••/);
    // ...and no secret, raw or encoded, appears on stdout or stderr.
    expectNoSecrets(result, ALL);
  });

  test('a URL written whole that cannot be sent: exit 2 before anything is sent, its key masked in the error', async () => {
    const result = await p.run(['run', 'literal.http', '-o', 'json'], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/literal\.http:2: unsupported URL scheme "ftp" in ftp:\/\/files\.example\.test\/report\.csv\?api_key=•••/);
    expectNoSecrets(result, ALL);
  });

  test('-v shows secret headers as ••• and keeps harmless ones readable', async () => {
    const result = await run(['-v', '-n', 'call']);
    expect(result.code).toBe(0);
    expectMaskedHeaders(result.stderr, ['Authorization', 'Proxy-Authorization', 'Cookie', 'X-API-Key', 'X-Client-Secret', 'X-Db-Password', 'X-Signature']);
    // A harmless header name carrying a secret variable's value: the value is still masked.
    expect(result.stderr).toMatch(/^X-Harmless-Name: •••$/m);
    expect(result.stderr).toMatch(/^Content-Type: application\/json$/m);
    expect(result.stderr).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/echo-nothing\/•••\?access_key=•••&plain=1&sig=•••$/m);
    expectNoSecrets(result, ALL);
  });

  test('-o json request echoes mask the URL and headers, error records too', async () => {
    const result = await run(['-o', 'json']);
    const records = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { name: string; url: string; request: { headers: Record<string, string> }; error?: { message: string } });
    expect(records.map((r) => r.name)).toEqual(['call', 'refused', 'bad-url', 'shell-fails']);
    const [call, failed] = records;
    expect(call?.url).toMatch(/\/echo-nothing\/•••\?access_key=•••&plain=1&sig=•••$/);
    expect(call?.request.headers).toMatchObject({ Authorization: '•••', 'Proxy-Authorization': '•••', Cookie: '•••', 'X-API-Key': '•••', 'X-Client-Secret': '•••', 'X-Db-Password': '•••', 'X-Signature': '•••', 'X-Harmless-Name': '•••' });
    expect(failed?.url).toMatch(/\/users\/•••\?api_key=•••$/);
    expect(failed?.error?.message).toMatch(/connection refused/);
    expectNoSecrets(result, ALL);
  });
});
