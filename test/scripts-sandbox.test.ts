/**
 * JetBrains scripts in the sandbox, from the attacker's side: the API does what scripts
 * expect; `require`, `process`, timers, network, `eval` are absent; the classic ways out of a
 * `node:vm` context (a host function's constructor, a host error, a proxy, stack-trace hooks)
 * lead nowhere; endless loops stop at the time limit; errors name the script's own line.
 */
import { afterAll, describe, expect, test } from '@jest/globals';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ScriptSpec } from '../src/core/model.js';
import type { ScriptData } from '../src/scripts/jetbrains-api.js';
import { evaluateExpression, runScripts, type ScriptHost } from '../src/scripts/run-scripts.js';
import { tempDir } from './helpers/cli.js';

const tmp = tempDir('reqflow-sandbox-');
afterAll(() => tmp.cleanup());
const MARKER = join(tmp.dir, 'escaped');

function host(overrides: Partial<ScriptHost> = {}): ScriptHost & { logs: string[]; secrets: string[] } {
  const logs: string[] = [];
  const secrets: string[] = [];
  return {
    globals: new Map(),
    headers: new Map(),
    requestVariables: new Map(),
    environment: (name) => ({ host: 'https://dev.example' })[name],
    log: (text) => logs.push(text),
    addSecret: (value) => secrets.push(value),
    file: join(tmp.dir, 'api.http'),
    timeoutMs: 1000,
    ...overrides,
    logs,
    secrets,
  };
}

const DATA: ScriptData = {
  request: { method: 'POST', url: '{{base}}/login', urlResolved: 'https://api/login', body: '{"u": "{{user}}"}', bodyResolved: '{"u": "ada"}', headers: [['X-Id', '{{id}}', '42']] },
  response: { status: 201, body: '{"token": "tok_1", "items": [1, 2, 3]}', json: true, headers: [['content-type', 'application/json; charset=utf-8'], ['set-cookie', 'a=1'], ['set-cookie', 'b=2']], mimeType: 'application/json', charset: 'utf-8' },
};

const post = (code: string, line = 10): ScriptSpec => ({ phase: 'post', code, line });

describe('the API', () => {
  test('client.global, headers, request.variables, request.environment', async () => {
    const h = host();
    const run = await runScripts([post(`
      client.global.set("token", response.body.token);
      client.global.set("count", response.body.items.length);
      client.global.set("gone", "x"); client.global.clear("gone");
      client.global.headers.set("X-Trace", "t-1");
      request.variables.set("local", "v");
      client.global.set("env", request.environment.get("host"));
      client.global.set("missing", String(request.environment.get("nothing")));
      client.global.set("empty", String(client.global.isEmpty()));
      client.global.set("read", client.global.get("token") + "/" + request.variables.get("local"));
    `)], DATA, h);
    expect(run.failure).toBeUndefined();
    expect(Object.fromEntries(h.globals)).toEqual({ token: 'tok_1', count: '3', env: 'https://dev.example', missing: 'null', empty: 'false', read: 'tok_1/v' });
    expect(Object.fromEntries(h.headers)).toEqual({ 'X-Trace': 't-1' });
    expect(Object.fromEntries(h.requestVariables)).toEqual({ local: 'v' });
    expect(h.secrets).toEqual(['tok_1']); // "token" looks secret
    await runScripts([post('client.global.clearAll();')], DATA, h);
    expect(h.globals.size).toBe(0);
  });

  test('client.test and client.assert: passes, failures with the message, an assert outside a test', async () => {
    const run = await runScripts([post(`
      client.test("status", function () { client.assert(response.status === 201, "status was " + response.status); });
      client.test("headers", function () {
        client.assert(response.headers.valueOf("Content-Type") === "application/json; charset=utf-8", "content-type");
        client.assert(response.headers.valuesOf("set-cookie").join() === "a=1,b=2", "cookies");
        client.assert(response.contentType.mimeType === "application/json", "mime");
      });
      client.test("fails", function () { client.assert(response.body.items.length === 4, "expected 4 items, got " + response.body.items.length); });
      client.test("throws", function () { null.x; });
      client.assert(false, "outside a test");
    `, 20)], DATA, host());
    expect(run.failure).toBeUndefined();
    expect(run.tests.map((t) => [t.name, t.passed, t.message ?? null, t.line])).toEqual([
      ['status', true, null, 20],
      ['headers', true, null, 20],
      ['fails', false, 'expected 4 items, got 3', 20],
      ['throws', false, expect.stringContaining('Cannot read properties of null'), 20],
      ['outside a test', false, 'outside a test', 20],
    ]);
  });

  test('request.* reads the request as written and as sent; client.log; client.exit ends without failing', async () => {
    const h = host();
    const run = await runScripts([post(`
      client.log("raw", request.url.getRaw(), request.url.tryGetSubstituted(), request.body.getRaw(), request.method);
      client.log(request.headers.findByName("x-id").getRawValue(), request.headers.findByName("X-Id").tryGetSubstitutedValue(), request.headers.all().length, String(request.headers.findByName("nope")));
      client.log({ nested: [1] });
      client.exit();
      client.global.set("after", "exit");
    `)], DATA, h);
    expect(run.failure).toBeUndefined();
    expect(h.logs).toEqual(['raw {{base}}/login https://api/login {"u": "{{user}}"} POST', '{{id}} 42 1 null', '{"nested":[1]}']);
    expect(h.globals.has('after')).toBe(false);
  });

  test('?? js expressions see response (and httpyac\'s parsedBody)', async () => {
    await expect(evaluateExpression('response.parsedBody.items.length', DATA, host())).resolves.toBe(3);
    await expect(evaluateExpression('response.status === 201 && response.body.token', DATA, host())).resolves.toBe('tok_1');
    await expect(evaluateExpression('require("fs")', DATA, host())).rejects.toThrow(/require is not defined/);
    await expect(evaluateExpression('import("fs")', DATA, host())).rejects.toThrow(/import\(\) is not available/);
  });
});

describe('what a script cannot reach', () => {
  const markerFrom = (expression: string): string => `(${expression}).mainModule.require("fs").writeFileSync(${JSON.stringify(MARKER)}, "x")`;

  test.each([
    ['require', 'require("fs").writeFileSync("x", "y")', /require is not defined/],
    ['process', 'process.exit(0)', /process is not defined/],
    ['globalThis.process', 'globalThis.process.exit(0)', /Cannot read properties of undefined/],
    ['setTimeout', 'setTimeout(() => 1, 1)', /setTimeout is not defined/],
    ['fetch', 'fetch("http://127.0.0.1:1/")', /fetch is not defined/],
    ['eval', 'eval("1 + 1")', /Code generation from strings disallowed/],
    ['new Function', 'new Function("return 1")()', /Code generation from strings disallowed/],
    ['a host constructor through this', markerFrom('this.constructor.constructor("return process")()'), /Code generation from strings disallowed/],
    ['a host constructor through an API function', markerFrom('client.log.constructor.constructor("return process")()'), /Code generation from strings disallowed/],
    ['a host constructor through a nested API function', markerFrom('client.global.set.constructor.constructor("return process")()'), /Code generation from strings disallowed/],
    ['a host constructor through the response', markerFrom('response.headers.valueOf.constructor.constructor("return process")()'), /Code generation from strings disallowed/],
    ['dynamic import', 'import("fs").then((fs) => fs.writeFileSync("x", "y"))', /import\(\) is not available in request-file scripts/],
    ['dynamic import behind a comment', 'const f = () => import /* no */ ("fs");', /import\(\) is not available/],
    ['import.meta', 'client.log(import.meta.url)', /./],
    ['an async function (an endless microtask chain would outlive the limit)', '(async () => { for (;;) await null; })();', /(async functions are|await is) not available in request-file scripts/],
    ['an async method', 'const o = { async f() {} };', /async functions are not available/],
    ['Promise', 'Promise.resolve().then(function f() { Promise.resolve().then(f); });', /Promise is not defined/],
    ['Atomics.waitAsync', 'Atomics.waitAsync(new Int32Array(4), 0, 0)', /Atomics is not defined/],
    ['FinalizationRegistry', 'new FinalizationRegistry(() => { for (;;) {} })', /FinalizationRegistry is not defined/],
  ])('%s', async (_name, code, message) => {
    const run = await runScripts([post(code)], DATA, host());
    expect(run.failure?.text).toMatch(message);
    expect(existsSync(MARKER)).toBe(false);
  });

  test('a host error cannot be provoked from the bridge: hostile arguments never throw a host object in', async () => {
    const h = host();
    const run = await runScripts([post(`
      const tries = [];
      const hostile = [{ toString() { throw new Error("inner"); } }, Symbol("s"), new Proxy({}, { get() { throw new Error("trap"); } })];
      for (const value of hostile) {
        try { client.global.set("k", value); } catch (e) {
          tries.push(e.constructor === Error);
          try { e.constructor.constructor("return process")(); tries.push("escaped"); } catch (inner) { tries.push("blocked"); }
        }
      }
      client.global.set("tries", JSON.stringify(tries));
    `)], DATA, h);
    expect(run.failure).toBeUndefined();
    // Every error the script saw is its own realm's (constructor === its Error), and no constructor reached the host.
    expect(JSON.parse(h.globals.get('tries') ?? '[]')).not.toContain('escaped');
    expect(existsSync(MARKER)).toBe(false);
  });

  test('values the API returns belong to the sandbox: prototype walks find no host Function', async () => {
    const h = host();
    const run = await runScripts([post(`
      const seen = [client, client.global, client.global.headers, request, request.headers, request.url, response, response.headers, response.body, request.headers.all(), response.headers.valuesOf("set-cookie"), client.global.get("none"), client.global.isEmpty()];
      let escaped = 0;
      for (const value of seen) {
        let object = value === null || value === undefined ? {} : Object(value);
        for (let depth = 0; object && depth < 10; depth++, object = Object.getPrototypeOf(object)) {
          const F = object.constructor && object.constructor.constructor;
          try { if (F && F("return typeof process")() !== "undefined") escaped++; } catch (e) {}
        }
      }
      client.global.set("escaped", String(escaped));
    `)], DATA, h);
    expect(run.failure).toBeUndefined();
    expect(h.globals.get('escaped')).toBe('0');
  });

  test('Error.prepareStackTrace cannot hand out host call sites', async () => {
    const h = host();
    const run = await runScripts([post(`
      Error.prepareStackTrace = (error, frames) => frames;
      const frames = new Error("x").stack;
      let reached = "none";
      if (Array.isArray(frames)) for (const frame of frames) {
        try { const f = frame.getFunction && frame.getFunction(); if (f) reached = typeof f.constructor("return process")(); } catch (e) {}
        try { const t = frame.getThis && frame.getThis(); if (t && t.process) reached = "process"; } catch (e) {}
      }
      client.global.set("reached", reached);
    `)], DATA, h);
    expect(run.failure).toBeUndefined();
    expect(h.globals.get('reached')).not.toBe('object');
    expect(h.globals.get('reached')).not.toBe('process');
  });
});

describe('time limit and errors', () => {
  test.each([
    ['while (true) {}', 'while (true) {}'],
    ['an endless loop inside client.test', 'client.test("t", function () { for (;;) {} });'],
  ])('%s stops at the limit', async (_name, code) => {
    const started = Date.now();
    const run = await runScripts([post(code)], DATA, host({ timeoutMs: 200 }));
    expect(run.failure?.text).toMatch(/did not finish within 200 ms/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test('throwing a proxy or an object with getters does not run script code outside the limit', async () => {
    const started = Date.now();
    const proxy = await runScripts([post('throw new Proxy({}, { get() { for (;;) {} }, getPrototypeOf() { for (;;) {} }, getOwnPropertyDescriptor() { for (;;) {} } });')], DATA, host({ timeoutMs: 200 }));
    expect(proxy.failure?.text).toMatch(/threw a non-error value/);
    const getters = await runScripts([post('throw { get message() { for (;;) {} }, get stack() { for (;;) {} }, get name() { for (;;) {} } };')], DATA, host({ timeoutMs: 200 }));
    expect(getters.failure?.text).toMatch(/threw a non-error value/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test('an error names the file line and the script\'s own line', async () => {
    const run = await runScripts([post('const a = 1;\nconst b = 2;\nundefinedThing();\n', 10)], DATA, host());
    expect(run.failure).toEqual({ text: expect.stringMatching(/api\.http:12 \(script line 3\): ReferenceError: undefinedThing is not defined$/), line: 12 });
  });

  test('a script file: its own name and line; a missing one is exit 2 naming it', async () => {
    tmp.write('check.js', '// checks\nclient.test("ok", () => {});\nnotDefined();\n');
    const run = await runScripts([{ phase: 'post', path: './check.js', line: 7 }], DATA, host());
    expect(run.failure?.text).toMatch(/check\.js:3 \(script at line 7\): ReferenceError: notDefined is not defined/);
    expect(run.tests).toEqual([expect.objectContaining({ name: 'ok', passed: true })]);
    await expect(runScripts([{ phase: 'post', path: './nope.js', line: 4 }], DATA, host())).rejects.toMatchObject({ exitCode: 2, message: expect.stringMatching(/api\.http:4: cannot read script \.\/nope\.js: no such file/) });
  });

  test('a syntax error is a failure with its line, not a crash', async () => {
    const run = await runScripts([post('client.log("a");\nthis is not javascript\n', 5)], DATA, host());
    expect(run.failure?.text).toMatch(/SyntaxError/);
  });
});
