/**
 * `reqflow test` end to end with the built CLI against the demo API: a folder of request files,
 * the summary and exit codes, --grep, --bail, --jobs, --repeat, and the reports: JUnit checked
 * against Jenkins' junit-10.xsd with xmllint-wasm (libxml2's xmllint compiled to WebAssembly, so
 * no system program is needed), TAP read back with tap-parser, the JSON report against
 * docs/record.schema.json.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { copyFileSync, createReadStream, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Parser } from 'tap-parser';
import { validateXML } from 'xmllint-wasm';
import { startDemoApi, type DemoApi } from './servers/demo-api.js';
import { ROOT, runCli, tempDir } from './helpers/cli.js';
import { startCli, stopAllClis } from './helpers/cli-live.js';
import { parseRecords } from './helpers/records.js';

let api: DemoApi;
const tmp = tempDir('reqflow-testcmd-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };
const reqflowTest = (...args: string[]) => runCli(['test', ...args, '-e', `baseUrl=${api.url}`], { cwd: tmp.dir, env });

const JUNIT_XSD = { fileName: 'junit-10.xsd', contents: readFileSync(join(ROOT, 'test/fixtures/junit/junit-10.xsd'), 'utf8') };
/** xmllint's verdict on `xml` against Jenkins' JUnit schema: the errors, none when valid. */
async function junitSchemaErrors(xml: string): Promise<string[]> {
  const result = await validateXML({ xml: { fileName: 'report.xml', contents: xml }, schema: JUNIT_XSD });
  return result.valid ? [] : result.errors.map((error) => error.rawMessage);
}

interface TapSummary {
  ok: boolean;
  count: number;
  pass: number;
  fail: number;
  failures: Array<{ name: string; diag?: { message?: string; at?: string } }>;
}
/** A TAP report as tap-parser reads it back. */
function tapSummary(tap: string): Promise<TapSummary> {
  return new Promise((resolve) => {
    const parser = new Parser((summary) => resolve(summary as never));
    parser.end(tap);
  });
}

beforeAll(async () => {
  api = await startDemoApi();
  tmp.write('suite/auth.http', `# @name login
POST {{baseUrl}}/login
Content-Type: application/json

{"username": "alice", "password": "secret"}

?? status == 200
?? body $.user == alice

###
# @name me
GET {{baseUrl}}/me
Authorization: Bearer {{login.response.body.$.token}}

?? status == 200
?? body $.scopes includes write
`);
  tmp.write('suite/notes/notes.http', `# @name login
POST {{baseUrl}}/login
Content-Type: application/json

{"username": "alice", "password": "secret"}

> {% client.global.set("auth", response.body.token); %}

###
# @name create
POST {{baseUrl}}/notes
Authorization: Bearer {{auth}}
Content-Type: application/json

{"text": "ci"}

?? status == 201
?? body text == something else
`);
  tmp.write('suite/plain.rest', 'GET {{baseUrl}}/health\n');
  // Not request files: never run.
  tmp.write('suite/http-client.env.json', '{"dev": {}}');
  tmp.write('suite/package.json', '{"name": "x"}');
  tmp.write('broken/bad.http', 'GET {{baseUrl}}/health\nnot a header\n');
});
afterAll(async () => {
  await api.close();
  tmp.cleanup();
});

describe('reqflow test', () => {
  test('a folder: every request file found, one line per request, a summary, exit 1 for the failed check', async () => {
    const result = await reqflowTest('suite');
    expect(result.code).toBe(1);
    const lines = result.stdout.split('\n');
    expect(lines).toContain('PASS  suite/auth.http › login  POST 200  ' + lines.find((l) => l.startsWith('PASS  suite/auth.http › login'))?.split('  ').pop());
    expect(result.stdout).toMatch(/^FAIL  suite\/notes\/notes\.http › create  POST 201/m);
    expect(result.stdout).toContain('✗ body text == something else (suite/notes/notes.http:18)');
    expect(result.stdout).toContain('expected body text == "something else", got "ci"');
    expect(result.stdout).toMatch(/^PASS  suite\/plain\.rest › request-1  GET 200/m);
    expect(result.stdout).toMatch(/4 passed, 1 failed \(5 requests in 3 files\) · 5\/6 checks passed · (\d+ ms|\d+\.\d+ s)/);
    expect(result.stdout).not.toContain('package.json');
  });

  test('in a folder, a JSON or YAML file runs only when it parses as requests: a one-line request file does, a JSON Schema does not', async () => {
    tmp.write('shapes/one-line.json', '{"name": "one-line", "url": "{{baseUrl}}/health"}');
    copyFileSync(join(ROOT, 'docs/record.schema.json'), join(tmp.dir, 'shapes/record.schema.json'));
    tmp.write('shapes/deploy.yaml', 'environment:\n  name: prod\n  url: https://example.com\n');
    const result = await reqflowTest('shapes');
    expect(result.stdout).toMatch(/^PASS  shapes\/one-line\.json › one-line  GET 200/m);
    expect(result.stdout).toMatch(/1 passed, 0 failed \(1 request in 1 file\)/);
    expect(result.stdout + result.stderr).not.toMatch(/schema|deploy/);
    expect(result.code).toBe(0);
  });

  test('exit 0 when everything passes; --grep picks requests (what they refer to still runs)', async () => {
    const result = await reqflowTest('suite/auth.http', '--grep', '^me$');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('suite/auth.http › login'); // run for {{login.response…}}
    expect(result.stdout).toMatch(/2 passed, 0 failed/);
  });

  test('a file that does not parse is an error with its line and exit 2; other files still run', async () => {
    const result = await reqflowTest('broken', 'suite/plain.rest');
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('ERROR broken/bad.http');
    expect(result.stdout).toContain('bad.http:2:1');
    expect(result.stdout).toMatch(/1 passed, 0 failed, 1 error/);
  });

  test('--bail stops after the first failing request', async () => {
    tmp.write('bail/a.http', 'GET {{baseUrl}}/status/500\n\n###\nGET {{baseUrl}}/health\n');
    const result = await reqflowTest('bail/a.http', '--bail');
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/0 passed, 1 failed \(1 request in 1 file\)/);
  });

  test('JUnit: valid against junit-10.xsd, one testcase per check with file and line, failures with expected and actual', async () => {
    const out = join(tmp.dir, 'reports', 'junit.xml');
    await reqflowTest('suite', '--report', `junit=${out}`);
    const xml = readFileSync(out, 'utf8');
    expect(await junitSchemaErrors(xml)).toEqual([]);
    expect(xml).toMatch(/<testsuites name="reqflow" tests="8" failures="1" errors="0"/);
    expect(xml).toContain('<testcase name="create › body text == something else" classname="suite/notes/notes.http.create" file="suite/notes/notes.http" line="18"');
    expect(xml).toContain('<failure message="expected body text == &quot;something else&quot;, got &quot;ci&quot;" type="assertion">');
    expect(xml).toContain('<testcase name="request-1" classname="suite/plain.rest.request-1" file="suite/plain.rest" line="1"');
  });

  test('control: the schema check rejects a report Jenkins would not read', async () => {
    expect(await junitSchemaErrors('<testsuites><testsuite tests="one"><testcase/></testsuite></testsuites>')).not.toEqual([]);
  });

  test('JUnit: a request error is an <error>, a broken file too', async () => {
    const out = join(tmp.dir, 'reports', 'errors.xml');
    tmp.write('errors/refused.http', 'GET http://127.0.0.1:1/nothing\n');
    const result = await reqflowTest('errors', 'broken', '--report', `junit=${out}`);
    expect(result.code).toBe(4);
    const xml = readFileSync(out, 'utf8');
    expect(await junitSchemaErrors(xml)).toEqual([]);
    expect(xml).toMatch(/<error message="connection refused by 127\.0\.0\.1:1" type="exit 4">/);
    expect(xml).toMatch(/<testcase name="broken\/bad.http"[^>]*>\s*<error message="[^"]*bad\.http:2:1/);
  });

  test('TAP on stdout (progress on stderr) reads back with a TAP parser', async () => {
    const result = await reqflowTest('suite', '--report', 'tap');
    const parsed = await tapSummary(result.stdout);
    expect(parsed.ok).toBe(false);
    expect(parsed.count).toBe(8);
    expect(parsed.pass).toBe(7);
    expect(parsed.fail).toBe(1);
    expect(parsed.failures[0]?.name).toBe('suite/notes/notes.http › create › body text == something else');
    expect(parsed.failures[0]?.diag).toEqual({ message: 'expected body text == "something else", got "ci"', at: 'suite/notes/notes.http:18' });
    expect(result.stderr).toContain('4 passed, 1 failed');
  });

  test('the JSON report: the -o json records plus one test record per check, all valid against the schema', async () => {
    const out = join(tmp.dir, 'reports', 'run.ndjson');
    await reqflowTest('suite', '--report', `json=${out}`);
    const records = parseRecords(readFileSync(out, 'utf8')) as Array<{ type: string; test?: { passed: boolean } }>;
    expect(records.filter((r) => r.type === 'response')).toHaveLength(5);
    expect(records.filter((r) => r.type === 'test').map((r) => r.test?.passed)).toEqual([true, true, true, true, true, false]);
    expect(existsSync(`${out}.${process.pid}.tmp`)).toBe(false);
    // A file CI keeps: the login tokens in the responses are masked, as in the other reports and the history.
    const logins = records.filter((r) => r.type === 'response' && (r as { name?: string }).name === 'login') as Array<{ body?: { token?: string } }>;
    expect(logins.length).toBe(2);
    for (const login of logins) expect(login.body?.token).toBe('•••');
    expect(readFileSync(out, 'utf8')).not.toMatch(/tok_[0-9a-f]{24}/);
  });

  test('--jobs 2 runs the files at once and reports them in the order given; --repeat summarises per request', async () => {
    const result = await reqflowTest('suite', '--jobs', '2', '--repeat', '2');
    expect(result.stdout).toMatch(/8 passed, 2 failed \(10 requests in 6 files\)/);
    expect(result.stdout).toMatch(/suite\/notes\/notes\.http › create\s+0\s+2\s+\d+ ms\s+\d+ ms/);
    expect(result.stdout).toMatch(/suite\/auth\.http › me\s+2\s+0/);
  });

  test('the HTML report: a page per run; credentials written in a failed request\'s body are masked there', async () => {
    tmp.write('html/login.http', `POST {{baseUrl}}/login
Content-Type: application/json

{"username": "alice", "password": "hunter2-literal", "nested": {"apiKey": "k-literal-99"}}

?? status == 500

###
POST {{baseUrl}}/health
Content-Type: application/x-www-form-urlencoded

user=alice&client_secret=form-literal-77

?? status == 500
`);
    const dir = join(tmp.dir, 'reports', 'html');
    const result = await reqflowTest('html', '--report', `html=${dir}`);
    expect(result.code).toBe(1);
    const page = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain('expected status == 500, got 200');
    expect(page).toContain('"username": "alice"');
    for (const secret of ['hunter2-literal', 'k-literal-99', 'form-literal-77']) expect(page).not.toContain(secret);
    expect(page).toContain('client_secret=•••');
  });

  test('--report html=report.html writes that file; a path without an extension, or an existing folder, gets index.html', async () => {
    mkdirSync(join(tmp.dir, 'pages/site.v2'), { recursive: true });
    const result = await reqflowTest('suite/plain.rest', '--report', 'html=pages/report.html', '--report', 'html=pages/plain', '--report', 'html=pages/site.v2');
    expect(result.code).toBe(0);
    expect(statSync(join(tmp.dir, 'pages/report.html')).isFile()).toBe(true);
    expect(readFileSync(join(tmp.dir, 'pages/report.html'), 'utf8')).toMatch(/^<!doctype html>[\s\S]*plain\.rest/);
    expect(readdirSync(join(tmp.dir, 'pages/plain'))).toEqual(['index.html']);
    expect(readdirSync(join(tmp.dir, 'pages/site.v2'))).toEqual(['index.html']);
  });

  test('a report path that is a device is written into, never replaced; a link to a file is replaced, not followed; a request file of the run is refused', async () => {
    // A link to a file (a repository could ship report.xml → ~/.bashrc): the link is replaced, its target untouched.
    mkdirSync(join(tmp.dir, 'linked'), { recursive: true });
    writeFileSync(join(tmp.dir, 'linked/precious.txt'), 'keep me');
    symlinkSync('precious.txt', join(tmp.dir, 'linked/junit.xml'));
    const linked = await reqflowTest('suite/plain.rest', '--report', 'junit=linked/junit.xml', '--report', 'json=linked/run.ndjson');
    expect(linked.code).toBe(0);
    expect(lstatSync(join(tmp.dir, 'linked/junit.xml')).isFile()).toBe(true);
    expect(readFileSync(join(tmp.dir, 'linked/junit.xml'), 'utf8')).toMatch(/^<\?xml[\s\S]*plain\.rest/);
    expect(readFileSync(join(tmp.dir, 'linked/precious.txt'), 'utf8')).toBe('keep me');
    // A device: written into (a link to /dev/null here, so that a regression replaces the link, not the device).
    symlinkSync('/dev/null', join(tmp.dir, 'linked/null'));
    for (const format of ['junit', 'tap', 'json', 'html']) {
      const result = await reqflowTest('suite/plain.rest', '--report', `${format}=linked/null`);
      expect(result.code).toBe(0);
      expect(lstatSync(join(tmp.dir, 'linked/null')).isSymbolicLink()).toBe(true);
    }
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
    // A named pipe (`mkfifo`): the report goes through it to its reader, and it stays a pipe.
    const fifo = join(tmp.dir, 'linked/report.fifo');
    execFileSync('mkfifo', [fifo]);
    const read = new Promise<string>((resolve, reject) => {
      let text = '';
      createReadStream(fifo, 'utf8').on('data', (chunk) => (text += chunk)).on('end', () => resolve(text)).on('error', reject);
    });
    const piped = await reqflowTest('suite/plain.rest', '--report', `junit=${fifo}`);
    expect(piped.code).toBe(0);
    expect(await read).toMatch(/^<\?xml[\s\S]*plain\.rest/);
    expect(statSync(fifo).isFIFO()).toBe(true);
    // The request file itself: exit 2 before anything is sent, the file as it was.
    const before = readFileSync(join(tmp.dir, 'suite/plain.rest'), 'utf8');
    const onto = await reqflowTest('suite/plain.rest', '--report', 'junit=suite/plain.rest');
    expect(onto.code).toBe(2);
    expect(onto.stderr).toMatch(/--report junit=.*plain\.rest: that is a request file of this run, which the report would replace/);
    expect(readFileSync(join(tmp.dir, 'suite/plain.rest'), 'utf8')).toBe(before);
  });

  /** A cloned repository's request file whose name clears the screen, reverses the text and moves the line back. */
  const hostileFile = (): string => tmp.write('hostile-file/f\u001b[2J\u202e\u009b\r.http', '### a\nGET {{baseUrl}}/health\n?? status == 599\n');
  const shownFile = 'hostile-file/f␛[2J<U+202E><U+009B>␍.http';
  const acting = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

  test('names and messages holding escape sequences reach TAP, HTML and --list made visible', async () => {
    const name = 'x\u001b]0;PWNED\u0007\u001b[2J\u202e\u009b';
    tmp.write('hostile/h.http', `### ${name}\nGET {{baseUrl}}/health\n\n?? status == 599\n`);
    const tap = await reqflowTest('hostile', '--report', 'tap', '--report', 'html=hostile.html');
    expect(tap.code).toBe(1);
    expect(tap.stdout).toMatch(/^not ok 1 - hostile\/h\.http › x␛\]0;PWNED␇␛\[2J<U\+202E><U\+009B>/m);
    expect(tap.stdout).not.toMatch(acting);
    const page = readFileSync(join(tmp.dir, 'hostile.html'), 'utf8');
    expect(page).toContain('x␛]0;PWNED␇␛[2J&lt;U+202E&gt;&lt;U+009B&gt;');
    expect(page).not.toMatch(acting);
    const list = await runCli(['run', 'hostile/h.http', '--list'], { cwd: tmp.dir, env });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^x␛\]0;PWNED␇␛\[2J<U\+202E><U\+009B>\tGET\t/);
    expect(list.stdout).not.toMatch(acting);
  });

  test('a request file name holding escape sequences: the failed check\'s (file:line) shows it made visible, as the FAIL line does', async () => {
    hostileFile();
    const result = await reqflowTest('hostile-file');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`FAIL  ${shownFile} › a`);
    expect(result.stdout).toContain(`✗ status == 599 (${shownFile}:3)`);
    expect(result.stdout).not.toMatch(acting);
  });

  test('TAP: a request file name holding escape sequences and bidi overrides is made visible in the diagnostic\'s at:', async () => {
    hostileFile();
    const result = await reqflowTest('hostile-file', '--report', 'tap');
    expect(result.code).toBe(1);
    expect(result.stdout).not.toMatch(acting);
    const parsed = await tapSummary(result.stdout);
    expect(parsed.failures[0]?.diag?.at).toBe(`${shownFile}:3`);
  });

  test('JUnit: a request file name holding escape sequences, bidi overrides and a bare CR is made visible in attributes and text, the XML still valid', async () => {
    hostileFile();
    const out = join(tmp.dir, 'reports', 'hostile-file.xml');
    expect((await reqflowTest('hostile-file', '--report', `junit=${out}`)).code).toBe(1);
    const xml = readFileSync(out, 'utf8');
    expect(await junitSchemaErrors(xml)).toEqual([]);
    expect(xml).not.toMatch(acting);
    const inXml = shownFile.replace(/</g, '&lt;').replace(/>/g, '&gt;');
    expect(xml).toContain(`<testcase name="a › status == 599" classname="${inXml}.a" file="${inXml}" line="3"`);
    expect(xml).toContain(`>${inXml}:3: status == 599\n`);
  });

  test('the HTML report\'s timing bar: a response handler\'s time (the script worker\'s start-up included) is "scripts and checks", not download', async () => {
    tmp.write('slow-script/a.http', 'GET {{baseUrl}}/health\n\n> {%\n  var until = Date.now() + 400;\n  while (Date.now() < until) {}\n%}\n');
    const result = await reqflowTest('slow-script', '--report', 'html=slow-script.html');
    expect(result.code).toBe(0);
    const title = /<div class="bar"[^>]* title="([^"]*)"/.exec(readFileSync(join(tmp.dir, 'slow-script.html'), 'utf8'))?.[1] ?? '';
    // In ms, or in seconds past one (a slow machine's worker start-up): "1.2 s".
    const phase = (name: string): number => {
      const [, amount = '0', unit = 'ms'] = new RegExp(`${name} (\\d+(?:\\.\\d+)?) (ms|s)\\b`).exec(title) ?? [];
      return Number(amount) * (unit === 's' ? 1000 : 1);
    };
    expect(title).toMatch(/^first byte (?:\d+ ms|\d+\.\d+ s), (download (?:\d+ ms|\d+\.\d+ s), )?scripts and checks (?:\d+ ms|\d+\.\d+ s)$/);
    expect(phase('scripts and checks')).toBeGreaterThanOrEqual(400);
    expect(phase('download')).toBeLessThan(400);
    expect(readFileSync(join(tmp.dir, 'slow-script.html'), 'utf8')).toContain('<i class="seg afterBody"></i>scripts and checks');
  });

  test('--watch runs again when the request file or an environment file changes, until Ctrl-C', async () => {
    const file = tmp.write('watch/ping.http', 'GET {{baseUrl}}/health\n\n?? status == 200\n');
    const cli = startCli(['test', file, '--watch', '-e', `baseUrl=${api.url}`], { cwd: tmp.dir, env });
    try {
      await cli.waitForStdout(/1 passed, 0 failed/);
      await cli.waitForStderr(/watching 1 file and their environment files; Ctrl-C ends/);
      tmp.write('watch/ping.http', 'GET {{baseUrl}}/health\n\n?? status == 201\n');
      await cli.waitForStdout(/watch\/ping\.http changed: running again[\s\S]*0 passed, 1 failed/);
      tmp.write('watch/http-client.env.json', '{"dev": {}}');
      await cli.waitForStdout(/http-client\.env\.json changed: running again[\s\S]*0 passed, 1 failed/);
      cli.kill('SIGINT');
      expect((await cli.done).code).toBe(1); // the last run's result
    } finally {
      stopAllClis();
    }
  });

  test('bad flags are exit 2 with one line', async () => {
    const jobs = await reqflowTest('suite', '--jobs', '0');
    expect(jobs.code).toBe(2);
    expect(jobs.stderr).toContain('--jobs expects a whole number from 1 to 1000');
    const report = await reqflowTest('suite', '--report', 'xml=out.xml');
    expect(report.code).toBe(2);
    expect(report.stderr).toContain('unknown format "xml"');
    const missing = await reqflowTest('nowhere');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nowhere: no such file or folder');
  });
});
