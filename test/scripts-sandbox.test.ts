/**
 * JetBrains scripts in the sandbox, from the attacker's side: the API does what scripts
 * expect; `require`, `process`, timers, network, `eval` are absent; the classic ways out of a
 * `node:vm` context (a host function's constructor, a host error, a proxy, stack-trace hooks, a
 * stack overflow inside host code, a thenable handed back) lead nowhere; endless loops stop at
 * the time limit; errors name the script's own line.
 *
 * An escape is checked the hard way: the payload, given what it believes is the host `process`,
 * writes a marker file (and a control test proves the payload does so when given the real one).
 * Code that must never run after the time limit busy-waits a bounded time and then records
 * `late`, so a regression fails the test instead of hanging it.
 */
import { afterAll, beforeEach, describe, expect, jest, test } from '@jest/globals';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ScriptSpec } from '../src/core/model.js';
import type { ScriptData } from '../src/scripts/jetbrains-api.js';
import { evaluateExpression, runScripts, type ScriptHost } from '../src/scripts/run-scripts.js';
import { GRACE_MS, ScriptWorker } from '../src/scripts/script-worker.js';
import { tempDir } from './helpers/cli.js';

const tmp = tempDir('reqflow-sandbox-');
// The scripts run where a run's scripts run: in the run's worker thread (built by npm run build).
const sandboxes = new ScriptWorker();
afterAll(() => {
  sandboxes.close();
  tmp.cleanup();
});
const MARKER = join(tmp.dir, 'escaped');
beforeEach(() => rmSync(MARKER, { force: true }));

type TestHost = ScriptHost & { logs: string[]; secrets: string[] };

function host(overrides: Partial<ScriptHost> = {}): TestHost {
  const logs: string[] = [];
  const secrets: string[] = [];
  return {
    globals: new Map(),
    headers: new Map(),
    requestVariables: new Map(),
    environment: (name) => ({ host: 'https://dev.example' })[name],
    resolve: async () => ({}),
    sandboxes: () => Promise.resolve(sandboxes),
    log: (text) => logs.push(text),
    shown: (text) => text,
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

/** Script code that treats `expression` as the host `process` and writes the marker file with it. */
const takeProcess = (expression: string): string =>
  `(function () { const p = (${expression}); const fs = typeof p.getBuiltinModule === "function" ? p.getBuiltinModule("fs") : p.mainModule.require("fs"); fs.writeFileSync(${JSON.stringify(MARKER)}, "escaped"); return "ESCAPED"; })()`;

/**
 * How long LATE busy-waits (the tests that use it set a 200 ms limit). Less than that limit plus
 * the worker's grace, so code wrongly run past the limit finishes it and sets `late` before the
 * worker is stopped from outside; and a run that waited for it took at least this long, so
 * `ms < LATE_MS` fails for it whatever the machine, while a correct run has over a second to spare.
 */
const LATE_MS = 200 + GRACE_MS / 2;

/**
 * Runs `run`, and says whether the worker was stopped from outside meanwhile — what happens to a
 * script that its own time limit did not stop, GRACE_MS past it (ScriptWorker closes the worker).
 * A script must stop at its own limit: this tells so without a clock.
 */
async function watchingTheGrace<T>(run: () => Promise<T>): Promise<{ value: T; graceStopped: boolean }> {
  const close = jest.spyOn(sandboxes, 'close');
  try {
    const value = await run();
    return { value, graceStopped: close.mock.calls.length > 0 };
  } finally {
    close.mockRestore();
  }
}

/** Script code that busy-waits LATE_MS, then records that it ran (it must not, outside the limit). */
const LATE = `const t0 = Date.now(); while (Date.now() - t0 < ${LATE_MS}) {} client.global.set("late", "ran");`;

/** Runs one post-response script; whatever it does, the marker must not exist afterwards. */
async function attack(code: string, overrides: Partial<ScriptHost> = {}): Promise<{ run: Awaited<ReturnType<typeof runScripts>>; h: TestHost; ms: number; graceStopped: boolean }> {
  const h = host(overrides);
  const started = Date.now();
  const { value: run, graceStopped } = await watchingTheGrace(() => runScripts([post(code)], DATA, h));
  const ms = Date.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 20)); // anything queued by the script gets its chance
  expect(existsSync(MARKER)).toBe(false);
  expect(h.globals.get('late')).toBeUndefined();
  return { run, h, ms, graceStopped };
}

test('control: the payload writes the marker when it is handed the real process', () => {
  const payload = new Function('hostProcess', `return ${takeProcess('hostProcess')};`) as (p: unknown) => string;
  expect(payload(process)).toBe('ESCAPED');
  expect(existsSync(MARKER)).toBe(true);
});

describe('the API', () => {
  test('client.global: set, get, isEmpty, clear, clearAll (secret-looking names masked)', async () => {
    const h = host();
    const run = await runScripts([post(`
      client.global.set("empty-before", String(client.global.isEmpty()));
      client.global.set("token", response.body.token);
      client.global.set("count", response.body.items.length);
      client.global.set("gone", "x"); client.global.clear("gone");
      client.global.set("read", client.global.get("token") + "/" + client.global.get("count") + "/" + client.global.get("gone"));
      client.global.set("empty-after", String(client.global.isEmpty()));
    `)], DATA, h);
    expect(run.failure).toBeUndefined();
    expect(Object.fromEntries(h.globals)).toEqual({ 'empty-before': 'true', token: 'tok_1', count: '3', read: 'tok_1/3/null', 'empty-after': 'false' });
    expect(h.secrets).toEqual(['tok_1']);
    const cleared = await runScripts([post('client.global.clearAll(); client.log(String(client.global.isEmpty()));')], DATA, h);
    expect(cleared.failure).toBeUndefined();
    expect(h.globals.size).toBe(0);
    expect(h.logs).toEqual(['true']);
  });

  test('client.global.headers.set, request.variables.set/get, request.environment.get', async () => {
    const h = host();
    const run = await runScripts([post(`
      client.global.headers.set("X-Trace", "t-1");
      request.variables.set("local", "v");
      client.log(request.variables.get("local"), String(request.variables.get("unset")));
      client.log(request.environment.get("host"), String(request.environment.get("nothing")));
    `)], DATA, h);
    expect(run.failure).toBeUndefined();
    expect(Object.fromEntries(h.headers)).toEqual({ 'X-Trace': 't-1' });
    expect(Object.fromEntries(h.requestVariables)).toEqual({ local: 'v' });
    expect(h.logs).toEqual(['v null', 'https://dev.example null']);
  });

  test('client.test passes and fails with the assert message; client.assert outside a test', async () => {
    const run = await runScripts([post(`
      client.test("status", function () { client.assert(response.status === 201, "status was " + response.status); });
      client.test("fails", function () { client.assert(response.body.items.length === 4, "expected 4 items, got " + response.body.items.length); });
      client.test("throws", function () { null.x; });
      client.assert(false, "outside a test");
      client.assert(true, "not recorded");
    `, 20)], DATA, host());
    expect(run.failure).toBeUndefined();
    expect(run.tests.map((t) => [t.name, t.passed, t.message ?? null, t.line])).toEqual([
      ['status', true, null, 20],
      ['fails', false, 'expected 4 items, got 3', 20],
      ['throws', false, expect.stringContaining('Cannot read properties of null'), 20],
      ['outside a test', false, 'outside a test', 20],
    ]);
  });

  test('client.log; client.exit() ends the script without a failure', async () => {
    const h = host();
    const run = await runScripts([post(`
      client.log("text", 1, { nested: [1] });
      client.test("before exit", function () { client.exit(); });
      client.global.set("after", "exit");
    `), post('client.global.set("next script", "ran");', 20)], DATA, h);
    expect(run.failure).toBeUndefined();
    expect(h.logs).toEqual(['text 1 {"nested":[1]}']);
    expect(run.tests).toEqual([]); // exit inside a test is neither a pass nor a failure
    expect([...h.globals.keys()]).toEqual([]);
  });

  test('response: status, parsed JSON body, headers.valueOf/valuesOf, contentType.mimeType', async () => {
    const h = host();
    const run = await runScripts([post(`
      client.log(String(response.status), response.body.token, String(response.body.items[2]), typeof response.body);
      client.log(response.headers.valueOf("Content-Type"), String(response.headers.valueOf("x-none")));
      client.log(response.headers.valuesOf("SET-COOKIE").join(","), String(response.headers.valuesOf("x-none").length));
      client.log(response.contentType.mimeType, response.contentType.charset);
    `)], DATA, h);
    expect(run.failure).toBeUndefined();
    expect(h.logs).toEqual(['201 tok_1 3 object', 'application/json; charset=utf-8 null', 'a=1,b=2 0', 'application/json utf-8']);
  });

  test('request: headers.findByName(...).getRawValue()/tryGetSubstitutedValue(), url, body, method', async () => {
    const h = host();
    const run = await runScripts([post(`
      const id = request.headers.findByName("x-id");
      client.log(id.name, id.getRawValue(), id.tryGetSubstitutedValue(), String(request.headers.findByName("nope")), String(request.headers.all().length));
      client.log(request.method, request.url.getRaw(), request.url.tryGetSubstituted(), request.body.getRaw(), request.body.tryGetSubstituted());
    `)], DATA, h);
    expect(run.failure).toBeUndefined();
    expect(h.logs).toEqual(['X-Id {{id}} 42 null 1', 'POST {{base}}/login https://api/login {"u": "{{user}}"} {"u": "ada"}']);
  });

  test('?? js expressions see response (and httpyac\'s parsedBody)', async () => {
    await expect(evaluateExpression('response.parsedBody.items.length', DATA, host())).resolves.toBe(3);
    await expect(evaluateExpression('response.status === 201 && response.body.token', DATA, host())).resolves.toBe('tok_1');
    await expect(evaluateExpression('response.headers.valuesOf("set-cookie")', DATA, host())).resolves.toEqual(['a=1', 'b=2']);
  });
});

describe('async scripts (httpyac runs its scripts as async functions): inside the time limit', () => {
  test('top-level await of what the API returns, an async helper, for await: done before the script ends', async () => {
    const { run, h } = await attack('const v = await client.global.get("a");\nconst twice = async (x) => (await x) + (await x);\nlet n = "";\nfor await (const part of ["p", "q"]) n += part;\nclient.global.set("b", (await twice(v)) + n);', { globals: new Map([['a', 'x']]) });
    expect(run.failure).toBeUndefined();
    expect(h.globals.get('b')).toBe('xxpq');
  });

  test('a throw after an await: a failure naming its line', async () => {
    const { run } = await attack('await null;\nclient.log("before");\nthrow new Error("late");');
    expect(run.failure?.text).toMatch(/\(script line 3\): Error: late$/);
  });

  test('an await that can never settle (nothing outside the script resolves anything): a failure, not a hang', async () => {
    const { run, graceStopped } = await attack('client.log("a");\nawait new ((async () => {})().constructor)(() => {});\nclient.global.set("late", "ran");');
    expect(run.failure?.text).toMatch(/awaits something that never settles/);
    expect(graceStopped).toBe(false);
  });

  test("a script's promise jobs stop with it at the time limit, by the sandbox's own limit, not the worker's grace", async () => {
    const { run, graceStopped } = await attack(`await null;\n${LATE}`, { timeoutMs: 200 });
    expect(run.failure?.text).toMatch(/did not finish within 200 ms/);
    expect(graceStopped).toBe(false);
  });

  test("httpyac's await sleep(ms) waits, and never past the time limit", async () => {
    const h = host({ timeoutMs: 300 });
    const yac = (code: string): ScriptSpec => ({ phase: 'post', code, line: 10, dialect: 'httpyac' });
    const started = Date.now();
    const slept = await runScripts([yac('await sleep(120);\nexports.slept = "yes";')], DATA, h);
    expect([slept.failure, h.globals.get('slept')]).toEqual([undefined, 'yes']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
    const { value: long, graceStopped } = await watchingTheGrace(() => runScripts([yac('await sleep(60000);\nexports.late = "ran";')], DATA, h));
    expect(long.failure?.text).toMatch(/did not finish within 300 ms/);
    expect(graceStopped).toBe(false); // stopped at its own limit, 300 ms, not GRACE_MS past it
    expect(h.globals.get('late')).toBeUndefined();
  });
});

describe('what a script cannot reach', () => {
  test.each([
    ['require("fs")', `require("fs").writeFileSync(${JSON.stringify(MARKER)}, "x")`, /require is not defined/],
    ['process.env', 'client.global.set("home", process.env.HOME)', /process is not defined/],
    ['import("fs")', `import("fs").then((fs) => fs.writeFileSync(${JSON.stringify(MARKER)}, "x"))`, /import\(\) is not available in request-file scripts/],
    ['import() behind a comment', 'const f = () => import /* no */ ("fs");', /import\(\) is not available/],
    ['import.meta', 'client.log(import.meta.url)', /import\.meta/],
    ['globalThis.process', takeProcess('globalThis.process'), /Cannot read properties of undefined/],
    ['setTimeout', `setTimeout(() => { ${takeProcess('globalThis.process')} }, 0)`, /setTimeout is not defined/],
    ['fetch', 'fetch("http://127.0.0.1:1/")', /fetch is not defined/],
    ['eval', 'eval("1")', /EvalError: Code generation from strings disallowed/],
    ['new Function', 'new Function("return 1")()', /EvalError: Code generation from strings disallowed/],
    ['a generator function\'s constructor', '(function* () {}).constructor("yield 1")', /Code generation from strings disallowed/],
    ['an async function awaiting without end', '(async () => { for (;;) await null; })();', /did not finish within 1000 ms/],
    ['the sandbox\'s own Promise, from an async function', 'const P = (async () => {})().constructor; P.resolve().then(function f() { P.resolve().then(f); });', /did not finish within 1000 ms/],
    ['Promise', 'Promise.resolve().then(function f() { Promise.resolve().then(f); });', /Promise is not defined/],
    ['Atomics', 'Atomics.waitAsync(new Int32Array(4), 0, 0)', /Atomics is not defined/],
    ['FinalizationRegistry', 'new FinalizationRegistry(() => { for (;;) {} })', /FinalizationRegistry is not defined/],
  ])('%s fails', async (_name, code, message) => {
    const { run, h } = await attack(code);
    expect(run.failure?.text).toMatch(message);
    expect(h.globals.has('home')).toBe(false);
  });

  test('no Node or host global is defined: typeof says undefined for each', async () => {
    const names = ['require', 'process', 'module', 'exports', '__dirname', 'global', 'Buffer', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'structuredClone', 'fetch', 'XMLHttpRequest', 'WebSocket', 'WebAssembly', 'SharedArrayBuffer', 'Promise', 'Atomics', 'FinalizationRegistry', 'ArrayBuffer', 'DataView', 'Uint8Array', 'Float64Array', 'BigInt64Array'];
    const { run, h } = await attack(`client.log(${JSON.stringify(names)}.map((name) => name + ":" + typeof globalThis[name]).join(" "));`);
    expect(run.failure).toBeUndefined();
    expect(h.logs).toEqual([names.map((name) => `${name}:undefined`).join(' ')]);
  });

  test('?? js expressions are the same sandbox', async () => {
    await expect(evaluateExpression('require("fs")', DATA, host())).rejects.toThrow(/require is not defined/);
    await expect(evaluateExpression('process.env', DATA, host())).rejects.toThrow(/process is not defined/);
    await expect(evaluateExpression('import("fs")', DATA, host())).rejects.toThrow(/import\(\) is not available/);
    await expect(evaluateExpression(takeProcess('this.constructor.constructor("return process")()'), DATA, host())).rejects.toThrow(/Code generation from strings disallowed/);
    expect(existsSync(MARKER)).toBe(false);
  });
});

describe('classic escapes lead nowhere', () => {
  test.each([
    ['this', 'this.constructor.constructor("return process")()'],
    ['globalThis.__proto__', 'Object.getPrototypeOf(globalThis).constructor.constructor("return process")()'],
    ['client.log', 'client.log.constructor.constructor("return process")()'],
    ['client.global.set', 'client.global.set.constructor.constructor("return process")()'],
    ['client.global.headers.set', 'client.global.headers.set.constructor.constructor("return process")()'],
    ['client.test', 'client.test.constructor.constructor("return process")()'],
    ['request.environment.get', 'request.environment.get.constructor.constructor("return process")()'],
    ['request.headers.findByName', 'request.headers.findByName.constructor.constructor("return process")()'],
    ['response.headers.valueOf', 'response.headers.valueOf.constructor.constructor("return process")()'],
    ['the value findByName returns', 'request.headers.findByName("x-id").getRawValue.constructor.constructor("return process")()'],
    ['the array valuesOf returns', 'response.headers.valuesOf("set-cookie").constructor.constructor("return process")()'],
    ['the parsed body', 'response.body.items.constructor.constructor("return process")()'],
    ['an error raised inside the API', '(function () { try { client.global.set({ toString() { return {}; } }); } catch (e) { return e.constructor.constructor("return process")(); } })()'],
  ])('a host Function through %s: the sandbox\'s own, which cannot compile', async (_name, expression) => {
    const { run } = await attack(takeProcess(expression));
    expect(run.failure?.text).toMatch(/EvalError: Code generation from strings disallowed for this context/);
  });

  test('prototype walks from every API object and from what the API functions return stay in the sandbox realm', async () => {
    // Everything reachable from globalThis (client, request, response, every built-in), through
    // own properties (values, getters, setters) and prototypes, plus the values API functions
    // return: each prototype chain must end at the sandbox's own Object.prototype.
    const { run, h } = await attack(`
      const seen = new Set();
      const queue = [];
      const add = (value, path) => {
        if ((typeof value === "object" || typeof value === "function") && value !== null && !seen.has(value)) { seen.add(value); queue.push([value, path]); }
      };
      add(globalThis, "globalThis");
      add(request.headers.all(), "request.headers.all()");
      add(request.headers.findByName("X-Id"), "request.headers.findByName()");
      add(response.headers.valuesOf("set-cookie"), "response.headers.valuesOf()");
      for (const value of [client.global.get("none"), request.variables.get("none"), request.environment.get("host"), client.global.isEmpty(), request.iteration(), request.url.getRaw()]) add(Object(value), "returned " + typeof value);
      const foreign = [];
      const nullPrototype = [];
      while (queue.length > 0) {
        const [value, path] = queue.shift();
        let root = value;
        while (Object.getPrototypeOf(root) !== null) root = Object.getPrototypeOf(root);
        if (root !== Object.prototype) (root === value ? nullPrototype : foreign).push(path);
        add(Object.getPrototypeOf(value), path + ".__proto__");
        for (const key of Reflect.ownKeys(value)) {
          const descriptor = Object.getOwnPropertyDescriptor(value, key);
          add(descriptor.value, path + "." + String(key));
          add(descriptor.get, path + "." + String(key) + "<get>");
          add(descriptor.set, path + "." + String(key) + "<set>");
        }
      }
      client.global.set("seen", String(seen.size));
      client.global.set("foreign", foreign.join(","));
      client.global.set("nullPrototype", nullPrototype.join(","));
      client.global.set("apiReached", String(seen.has(client.global.headers.set) && seen.has(request.environment.get) && seen.has(response.contentType)));
    `);
    expect(run.failure).toBeUndefined();
    expect(Number(h.globals.get('seen'))).toBeGreaterThan(300);
    expect(h.globals.get('apiReached')).toBe('true');
    expect(h.globals.get('foreign')).toBe('');
    expect(h.globals.get('nullPrototype')).toBe('request.headers.all().__proto__.Symbol(Symbol.unscopables)'); // V8's own
  });

  test('hostile arguments to every API function (throwing toString, Symbol, Proxy, getters) only ever raise the sandbox\'s errors', async () => {
    const { run, h } = await attack(`
      const hostile = [
        { toString() { throw new Error("inner"); } },
        Symbol("s"),
        new Proxy({}, { get() { throw new Error("trap"); }, getPrototypeOf() { throw new Error("trap"); } }),
        new Proxy(function () {}, {}),
        { get [Symbol.toPrimitive]() { throw new Error("getter"); } },
      ];
      const functions = [client.global.set, client.global.get, client.global.clear, client.global.headers.set, client.global.headers.clear, request.variables.set, request.variables.get, request.environment.get, client.log, client.test, client.assert, request.headers.findByName, response.headers.valueOf, response.headers.valuesOf];
      let calls = 0, errors = 0, foreign = 0;
      for (const f of functions) for (const a of hostile) for (const args of [[a], ["name", a], [a, a]]) {
        calls++;
        try { f(...args); } catch (e) {
          errors++;
          if (!(e instanceof Error) || e.constructor.constructor !== Function) foreign++;
          try { ${takeProcess('e.constructor.constructor("return process")()')}; foreign++; } catch (inner) { if (!(inner instanceof EvalError)) foreign++; }
        }
      }
      client.global.set("result", calls + " calls, " + errors + " errors, " + foreign + " foreign");
    `);
    expect(run.failure).toBeUndefined();
    expect(h.globals.get('result')).toMatch(/^210 calls, \d+ errors, 0 foreign$/);
  });

  test('an error inside the host bridge reaches the script as a sandbox Error carrying only the message', async () => {
    const { run, h } = await attack(`
      try { request.environment.get("x"); } catch (e) {
        client.global.set("outcome", [e instanceof Error, Object.getPrototypeOf(e) === Error.prototype, e.message].join("|"));
        ${takeProcess('e.constructor.constructor("return process")()')};
      }
    `, { environment: () => { throw new TypeError('host failure'); } });
    expect(h.globals.get('outcome')).toBe('true|true|host failure');
    expect(run.failure?.text).toMatch(/EvalError: Code generation from strings disallowed/);
  });

  test('Error.prepareStackTrace inside the script: no stack is ever captured, the hook never runs', async () => {
    const { run, h } = await attack(`
      let called = 0;
      Error.prepareStackTrace = (error, frames) => { called++; return frames; };
      Error.stackTraceLimit = 50;
      const stack = new Error("x").stack;
      const holder = {};
      Error.captureStackTrace(holder);
      client.global.set("outcome", [typeof stack, typeof holder.stack, called, typeof Error.prepareStackTrace, String(Error.stackTraceLimit)].join("|"));
    `);
    expect(run.failure).toBeUndefined();
    expect(h.globals.get('outcome')).toBe('undefined|undefined|0|undefined|undefined');
  });

  test('Error.prepareStackTrace and a thrown error: reqflow reading the failure runs no hook (was an escape and a hang)', async () => {
    // Before the fix, reqflow formatted the stack of the thrown error outside the sandbox: the
    // hook ran after the time limit, with an array of reqflow's realm as `frames`.
    const escape = await attack(`
      Error.prepareStackTrace = (error, frames) => { ${takeProcess('frames.constructor.constructor("return process")()')}; return "x"; };
      throw new Error("boom");
    `);
    expect(escape.run.failure?.text).toMatch(/\(script line 3\): Error: boom$/);
    const hang = await attack(`Error.prepareStackTrace = () => { ${LATE} };\nnull.x;`, { timeoutMs: 200 });
    expect(hang.run.failure?.text).toMatch(/\(script line 2\): TypeError: Cannot read properties of null/);
    expect(hang.ms).toBeLessThan(LATE_MS);
  });

  test('a stack overflow inside Node\'s stack-trace formatting yields no host RangeError (was an escape)', async () => {
    // Before the fix: recurse to the edge of the stack, then read `new Error().stack` — the
    // overflow happened inside Node's prepare-stack-trace callback, a RangeError of the host realm.
    // The handlers make no calls: at the edge of the stack a call would overflow and lose the error.
    const keep = 'catch (inner) { if (hostError === null && typeof inner === "object" && inner !== null && !(inner instanceof Object)) hostError = inner; }';
    const { run, h } = await attack(`
      var sink, hostError = null, depth = 0;
      function deeper() {
        depth++;
        try { deeper(); } catch (e) {
          if (hostError === null) {
            try { sink = new Error("x").stack; } ${keep}
            try { const o = {}; Error.captureStackTrace(o); sink = o.stack; } ${keep}
            try { sink = client.global.get("x"); } ${keep}
          }
          throw e;
        }
      }
      try { deeper(); } catch (e) {}
      client.global.set("outcome", (hostError === null ? "none" : "host error") + " after " + (depth > 1000 ? "deep" : "shallow") + " recursion");
      if (hostError !== null) ${takeProcess('hostError.constructor.constructor("return process")()')};
    `, { timeoutMs: 20_000 }); // ~30,000 levels, a bridge call on each way back: 2–3 s idle, several times that on a busy machine
    expect(run.failure).toBeUndefined();
    expect(h.globals.get('outcome')).toBe('none after deep recursion');
  });

  test('a thenable as the completion value is never resolved by reqflow (was a hang and ran after the limit)', async () => {
    const thenHooks = [
      `({ then(resolve) { ${takeProcess('resolve.constructor.constructor("return process")()')}; } })`,
      `({ then() { ${LATE} } })`,
      `(function () { const o = {}; Object.defineProperty(o, "then", { get() { ${LATE} } }); return o; })()`,
    ];
    for (const code of thenHooks) {
      const { run, ms } = await attack(code, { timeoutMs: 200 });
      expect(run.failure).toBeUndefined();
      expect(ms).toBeLessThan(LATE_MS);
    }
    // `?? js` wraps the expression in JSON.stringify((…)); this one closes it and ends on a thenable.
    const h = host({ timeoutMs: 200 });
    await expect(evaluateExpression(`1)); ({ then() { ${LATE} } }) || ((0`, DATA, h)).resolves.toBeUndefined();
    expect(h.globals.get('late')).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }, 10000);
});

describe('time limit', () => {
  test.each([
    ['while (true) {}', 'client.log("start");\nwhile (true) {}', 2],
    ['for (;;) {} inside client.test', 'client.test("t", function () {\n  for (;;) {}\n});', 2],
    ['a catastrophic regular expression', '/(a+)+$/.test("a".repeat(40) + "!")', 1],
  ])('%s stops at the limit, reported with its line', async (_name, code, line) => {
    const { value: run, graceStopped } = await watchingTheGrace(() => runScripts([post(code)], DATA, host({ timeoutMs: 200 })));
    expect(run.failure).toEqual({ text: expect.stringMatching(new RegExp(`api\\.http:${9 + line} \\(script line ${line}\\): did not finish within 200 ms$`)), line: 9 + line });
    expect(graceStopped).toBe(false); // stopped at its own limit, not GRACE_MS past it
  });

  test('an endless async microtask loop cannot start (async is refused before running), so it cannot outlive the limit', async () => {
    const { run, graceStopped } = await attack('(async () => { for (;;) await null; })();', { timeoutMs: 200 });
    expect(run.failure?.text).toMatch(/not available in request-file scripts|did not finish within 200 ms/);
    expect(graceStopped).toBe(false);
  });

  test('a thrown Proxy, or an error with getters, is reported without running any of its code', async () => {
    const thrown = [
      [`throw new Proxy({}, { get() { ${LATE} }, getPrototypeOf() { ${LATE} }, getOwnPropertyDescriptor() { ${LATE} }, has() { ${LATE} } });`, /threw a non-error value/],
      [`throw { get message() { ${LATE} }, get stack() { ${LATE} }, get name() { ${LATE} }, get code() { ${LATE} } };`, /threw a non-error value/],
      [`const e = new Error("m"); Object.setPrototypeOf(e, new Proxy(Error.prototype, { get() { ${LATE} }, has() { ${LATE} } })); throw e;`, /: m$/],
      [`Object.defineProperty(Error.prototype, "name", { get() { ${LATE} } }); throw new Error("named");`, /: named$/],
      [`const e = new Error("m"); Object.defineProperty(e, "message", { get() { ${LATE} } }); throw e;`, /threw a non-error value/],
    ] as const;
    for (const [code, message] of thrown) {
      const { run, ms } = await attack(code, { timeoutMs: 200 });
      expect(run.failure?.text).toMatch(message);
      expect(ms).toBeLessThan(LATE_MS);
    }
  }, 10000);
});

describe('error positions', () => {
  test('an inline script from file line 10 that throws on its 3rd line: file line 12, script line 3', async () => {
    const run = await runScripts([post('const a = 1;\nconst b = 2;\nundefinedThing();\n', 10)], DATA, host());
    expect(run.failure).toEqual({ text: expect.stringMatching(/api\.http:12 \(script line 3\): ReferenceError: undefinedThing is not defined$/), line: 12 });
  });

  test('the line is where the error is: inside a function, after a call returns, in an arrow body, a require', async () => {
    const cases: Array<[string, number]> = [
      ['function bad(x) {\n  const y = 1;\n  return x.a.b;\n}\n\nbad({});\n', 3],
      ['function helper() {\n  return undefined;\n}\nconst v = helper().foo;\n', 4],
      ['[1, 2].forEach((x) =>\n  x.a.b);\n', 2],
      ['const o = { a: 1 };\nif (o.a)\n  throw new Error("boom");\n', 3],
      ['client.log("x");\n\nrequire("fs");\n', 3],
    ];
    for (const [code, line] of cases) {
      const run = await runScripts([post(code, 1)], DATA, host());
      expect(run.failure).toEqual({ text: expect.stringContaining(`api.http:${line} (script line ${line}): `), line });
    }
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
    expect(run.failure).toEqual({ text: expect.stringMatching(/api\.http:6 \(script line 2\): SyntaxError/), line: 6 });
  });
});
