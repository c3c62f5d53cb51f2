/**
 * The JetBrains HTTP Client script API (`client`, `request`, `response`), as plain JavaScript
 * installed inside the sandbox. Everything it needs from reqflow goes through the bridge:
 * strings in, primitives out. Data (the response, the request) arrives as one JSON text and is
 * parsed inside the sandbox, so every object a script sees belongs to the sandbox.
 */
import { BRIDGE_CALL, REMOVE_GLOBALS } from './bridge-call.js';

export const JETBRAINS_API = String.raw`(function install(bridge, dataJson) {
  'use strict';
${BRIDGE_CALL}  let inTest = null;
  const exitSignal = Object.freeze({ __reqflowExit: true });

  const headerList = (pairs) => ({
    valueOf(name) {
      const found = pairs.find((p) => p[0].toLowerCase() === String(name).toLowerCase());
      return found ? found[1] : null;
    },
    valuesOf(name) {
      return pairs.filter((p) => p[0].toLowerCase() === String(name).toLowerCase()).map((p) => p[1]);
    },
  });

  const client = Object.freeze({
    global: Object.freeze({
      set: (name, value) => { call('global.set', name, value === undefined ? undefined : text(value), kindOf(value)); },
      get: (name) => { const v = call('global.get', name); return v === undefined ? null : v; },
      isEmpty: () => call('global.isEmpty') === true,
      clear: (name) => { call('global.clear', name); },
      clearAll: () => { call('global.clearAll'); },
      headers: Object.freeze({
        set: (name, value) => { call('headers.set', name, text(value)); },
        clear: (name) => { call('headers.clear', name); },
      }),
    }),
    test(name, fn) {
      const previous = inTest;
      inTest = String(name);
      try {
        fn();
        call('test', name, 'pass');
      } catch (error) {
        if (error === exitSignal) throw error;
        call('test', name, 'fail', error && typeof error.message === 'string' ? error.message : String(error));
      } finally {
        inTest = previous;
      }
    },
    assert(condition, message) {
      if (condition) return;
      const text = message === undefined ? 'assertion failed' : String(message);
      if (inTest !== null) throw new Error(text);
      call('test', text, 'fail', text);
    },
    log(...values) {
      call('log', values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(' '));
    },
    exit() {
      throw exitSignal;
    },
  });

  const req = data.request;
  const request = Object.freeze({
    method: req.method,
    url: Object.freeze({ getRaw: () => req.url, tryGetSubstituted: () => req.urlResolved }),
    body: Object.freeze({ getRaw: () => req.body, tryGetSubstituted: () => req.bodyResolved }),
    headers: Object.freeze({
      all: () => req.headers.map((h) => Object.freeze({ name: h[0], getRawValue: () => h[1], tryGetSubstitutedValue: () => h[2] })),
      findByName: (name) => {
        const h = req.headers.find((x) => x[0].toLowerCase() === String(name).toLowerCase());
        return h ? Object.freeze({ name: h[0], getRawValue: () => h[1], tryGetSubstitutedValue: () => h[2] }) : null;
      },
    }),
    variables: Object.freeze({
      set: (name, value) => { call('variables.set', name, text(value)); },
      get: (name) => { const v = call('variables.get', name); return v === undefined ? null : v; },
    }),
    environment: Object.freeze({
      get: (name) => { const v = call('environment.get', name); return v === undefined ? null : v; },
    }),
    iteration: () => 0,
  });

  const res = data.response;
  const body = res === null ? undefined : res.json ? JSON.parse(res.body) : res.body;
  const response = res === null ? undefined : Object.freeze({
    status: res.status,
    body,
    // httpyac's names, for ?? js expressions written for it.
    parsedBody: body,
    statusCode: res.status,
    headers: headerList(res.headers),
    contentType: Object.freeze({ mimeType: res.mimeType, charset: res.charset }),
  });

  // Nothing a script runs may be deferred past its time limit: no promises, no waits, no finalisers.
${REMOVE_GLOBALS}  Object.defineProperty(globalThis, 'client', { value: client });
  Object.defineProperty(globalThis, 'request', { value: request });
  if (response !== undefined) Object.defineProperty(globalThis, 'response', { value: response });
})`;

/** The data a script sees, as the bootstrap reads it. */
export interface ScriptData {
  request: {
    method: string;
    url: string;
    urlResolved: string;
    body: string | null;
    bodyResolved: string | null;
    /** `[name, raw value, resolved value]`. */
    headers: Array<[string, string, string]>;
  };
  /** httpyac's `{{@request` hook: `request` is the request about to go out, and what the script changes in it is sent back (src/chain/request-hook.ts). */
  hook?: true;
  response: null | {
    status: number;
    /** The status line's reason phrase (rest.nvim's `response.status.text`). */
    statusText?: string;
    body: string;
    /** The body parses as JSON: `response.body` is the parsed value. */
    json: boolean;
    headers: Array<[string, string]>;
    mimeType: string;
    charset: string;
  };
  /** httpyac scripts: the variables they name, resolved, and the run's globals (`$global`). */
  variables?: Record<string, string>;
  globals?: Record<string, string>;
  /** Which of `globals` a script left as a number, a boolean, `null` or an object (they travel as text): `$global.n + 1` adds. */
  globalKinds?: Record<string, GlobalKind>;
}

/**
 * What a run value a script set was when it is not text (`kindOf` in bridge-call.ts): given back as
 * such to the next httpyac script's `$global`; a `null` is sent as httpyac sends it (src/chain/null-values.ts),
 * an object may be spread into a request's headers (`...name`, src/chain/header-spread.ts).
 */
export type GlobalKind = 'number' | 'boolean' | 'null' | 'object';
