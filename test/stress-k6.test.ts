/**
 * `reqflow stress --as k6`: the script for the same scenario, built from the request as the
 * loop builds it (variables, auth) without sending it; secrets as `__ENV` references; valid
 * JavaScript (parsed as an ES module with acorn); an existing file kept unless --force.
 */
import { afterEach, beforeEach, expect, test } from '@jest/globals';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sessionFileFor } from './helpers/session-file.js';
import { parse } from 'acorn';
import { runCli, tempDir } from './helpers/cli.js';

let files: ReturnType<typeof tempDir>;
beforeEach(() => {
  files = tempDir('reqflow-stress-k6-');
});
afterEach(() => files.cleanup());

const env = (): NodeJS.ProcessEnv => ({ REQFLOW_STATE_DIR: join(files.dir, 'state') });
const TOKEN = 'sk_live_0123456789abcdef';
const PASSWORD = 'hunter2-hunter2';

const FILE = `@host = http://127.0.0.1:9
### create
# @expectedStatusCodes 200,2xx
# @expectedBodyField $.user.id 7
POST {{host}}/users?api_key={{apiKey}}&page=2
Authorization: Bearer {{token}}
Content-Type: application/json

{"name": "Ada", "password": "{{password}}"}

?? status == 201
?? header content-type includes json
?? body $.items[0].name == Ada
?? xpath //user == 1
`;

test('the k6 script: request, checks, thresholds, arrival rate — secrets as __ENV, valid JavaScript', async () => {
  files.write('api.http', FILE);
  const result = await runCli(
    ['stress', 'api.http', '-n', 'create', '--as', 'k6', '--rate', '50', '--duration', '30s', '--workers', '8', '--threshold', 'p95<300ms', '--threshold', 'error_rate<1%', '--threshold', 'p99<1.5s', '-e', `token=${TOKEN}`, '-e', `password=${PASSWORD}`, '-e', 'apiKey=ak_9876543210'],
    { cwd: files.dir, env: env() },
  );
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const script = result.stdout;
  // Nothing secret is in it, in any form.
  for (const secret of [TOKEN, PASSWORD, 'ak_9876543210', encodeURIComponent(PASSWORD)]) expect(script).not.toContain(secret);
  expect(script).toContain('"Authorization": "Bearer " + __ENV.TOKEN');
  expect(script).toContain('__ENV.PASSWORD');
  expect(script).toContain('"http://127.0.0.1:9/users?api_key=" + __ENV.APIKEY + "&page=2"');
  expect(script).toMatch(/-e TOKEN=… .*-e PASSWORD=…|-e PASSWORD=… .*-e TOKEN=…/);
  expect(script).toContain('http.request("POST", url, body, params)');
  expect(script).toContain('"executor": "constant-arrival-rate"');
  expect(script).toContain('"rate": 50');
  expect(script).toContain('"duration": "30000ms"');
  expect(script).toContain('"preAllocatedVUs": 8');
  expect(script).toContain('"p(95)<300"');
  expect(script).toContain('"p(99)<1500"');
  expect(script).toContain('"http_req_failed": [\n      "rate<0.01"');
  expect(script).toContain('"status == 201": (r) =>');
  expect(script).toContain('"header content-type includes json": (r) =>');
  expect(script).toContain('json(r, "items.0.name")');
  expect(script).toContain('"expectedStatusCodes 200,2xx": (r) =>');
  expect(script).toContain('"expectedBodyField $.user.id": (r) =>');
  expect(script).toContain('//   ?? xpath //user == 1 (line 14)');
  expect(() => parse(script, { ecmaVersion: 'latest', sourceType: 'module' })).not.toThrow();
});

test('stages from --ramp-up and --duration; -o FILE is never overwritten without --force', async () => {
  files.write('api.http', '### ping\nGET http://127.0.0.1:9/ping\n');
  const args = ['stress', 'api.http', '--as', 'k6', '--workers', '20', '--ramp-up', '10s', '--duration', '1m', '-o', 'load.js'];
  const first = await runCli(args, { cwd: files.dir, env: env() });
  expect(first.code).toBe(0);
  expect(first.stderr).toContain('wrote load.js');
  const script = readFileSync(join(files.dir, 'load.js'), 'utf8');
  expect(script).toContain('"executor": "ramping-vus"');
  expect(script).toContain('"duration": "10000ms",\n          "target": 20');
  expect(script).toContain('"duration": "50000ms",\n          "target": 20');
  expect(script).not.toContain('check(');
  expect(() => parse(script, { ecmaVersion: 'latest', sourceType: 'module' })).not.toThrow();

  files.write('load.js', '// my edits\n');
  const again = await runCli(args, { cwd: files.dir, env: env() });
  expect(again.code).toBe(2);
  expect(again.stderr.split('\n')[0]).toBe('reqflow: load.js exists: not overwritten');
  expect(readFileSync(join(files.dir, 'load.js'), 'utf8')).toBe('// my edits\n');
  const forced = await runCli([...args, '--force'], { cwd: files.dir, env: env() });
  expect(forced.code).toBe(0);
  expect(readFileSync(join(files.dir, 'load.js'), 'utf8')).toContain('ramping-vus');
});

test('-o naming the request file itself (or a link to it) is refused even with --force: the file is kept', async () => {
  const text = '### ping\nGET http://127.0.0.1:9/ping\n';
  files.write('api.http', text);
  symlinkSync(join(files.dir, 'api.http'), join(files.dir, 'link.http'));
  for (const target of ['api.http', 'link.http', join(files.dir, 'api.http')]) {
    const result = await runCli(['stress', 'api.http', '--as', 'k6', '-o', target, '--force'], { cwd: files.dir, env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toMatch(/^reqflow: -o .*\.http: that is the request file being exported, which the script would replace$/);
    expect(readFileSync(join(files.dir, 'api.http'), 'utf8')).toBe(text);
  }
});

test('--requests without --rate: shared iterations over the workers', async () => {
  files.write('api.http', '### ping\nGET http://127.0.0.1:9/ping\n');
  const result = await runCli(['stress', 'api.http', '--as', 'k6', '--requests', '1000', '-c', '4'], { cwd: files.dir, env: env() });
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('"executor": "shared-iterations"');
  expect(result.stdout).toContain('"iterations": 1000');
  expect(result.stdout).toContain('"vus": 4');
});

test('a secret the run knows but the request does not hold (the session\'s token) is not asked of k6', async () => {
  files.write('.profiles.json', '[]');
  files.write('login.http', `### login\nPOST http://127.0.0.1:9/login\nContent-Type: application/json\n\n{"password": "{{password}}"}\n`);
  const session = sessionFileFor(env().REQFLOW_STATE_DIR as string, files.dir);
  mkdirSync(dirname(session), { recursive: true });
  writeFileSync(session, JSON.stringify({ version: 1, variables: { token: TOKEN }, data: {} }), { mode: 0o600 });
  const result = await runCli(['stress', 'login.http', '--as', 'k6', '-o', 'login.js', '-e', `password=${PASSWORD}`], { cwd: files.dir, env: env() });
  expect(result.code).toBe(0);
  expect(result.stderr).toContain('run it with: k6 run -e PASSWORD=… login.js');
  const script = readFileSync(join(files.dir, 'login.js'), 'utf8');
  expect(script).not.toContain('TOKEN');
  expect(script).not.toContain(TOKEN);
  expect(script).toContain('__ENV.PASSWORD');
});
