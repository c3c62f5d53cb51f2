/**
 * httpyac's `{{@request` hook (docs/http-dialect.md, "httpyac's request hooks"): JavaScript run on
 * the resolved request just before it goes out — after templates and auth, as httpyac runs it
 * after its own request hooks — whose changes to `request.method`, `.url`, `.headers` and `.body`
 * (text) are what is sent. What reqflow could not send as httpyac would (another property of
 * `request`, a body that is not text, a header named `__proto__`, `exports.$cancel`, a body with included files, GraphQL) is
 * exit 2 naming the hook's line, and nothing is sent. Loaded only for a request with such a hook.
 */
import { UsageError } from '../core/errors/index.js';
import { unheldNameRule, type HeaderValue, type RequestHeaders } from '../core/headers.js';
import type { ScriptSpec } from '../core/model.js';
import { shownPath } from '../core/resolve-path.js';
import type { RequestContext } from '../pipeline/context.js';
import type { Plugin } from '../pipeline/plugin.js';
import { runScripts } from '../scripts/run-scripts.js';
import { scriptData, scriptHost, scriptStopped } from './plugin.js';

/** What the hook left in `request`, as the sandbox sends it back. */
interface HookResult {
  problem?: string;
  method?: string;
  url?: string;
  headers?: Record<string, HeaderValue | undefined>;
  body?: string;
}

function refuse(ctx: RequestContext, hook: ScriptSpec, why: string): never {
  throw scriptStopped(ctx, `${shownPath(ctx.file)}:${hook.line - 1}: httpyac's {{@request hook: ${why}; reqflow cannot send that as httpyac would`);
}

async function runHook(ctx: RequestContext, hook: ScriptSpec): Promise<void> {
  const chain = ctx.chain;
  if (!chain) throw new UsageError('request hooks need a run (internal)');
  let changed: HookResult | undefined;
  const host = { ...scriptHost(ctx, chain), requestChanged: (json: string) => void (changed = JSON.parse(json) as HookResult) };
  const written = { url: ctx.spec.url, headers: { ...ctx.spec.headers }, ...(ctx.spec.body !== undefined ? { body: ctx.spec.body } : {}) };
  const run = await runScripts([hook], { ...scriptData(written, ctx.spec), hook: true }, host);
  if (run.failure) throw scriptStopped(ctx, `request hook failed: ${run.failure.text}`);
  (ctx.tests ??= []).push(...run.tests);
  const result = changed as HookResult | undefined;
  if (result === undefined) return;
  if (result.problem !== undefined) refuse(ctx, hook, result.problem);
  const headers: RequestHeaders = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) {
    if (value === undefined) continue;
    if (unheldNameRule(name) !== undefined) refuse(ctx, hook, `it sets a header named ${name}`);
    headers[name] = value;
  }
  ctx.spec.method = result.method ?? ctx.spec.method;
  ctx.spec.url = result.url ?? ctx.spec.url;
  ctx.spec.headers = headers;
  if (result.body === undefined) delete ctx.spec.body;
  else ctx.spec.body = result.body;
}

async function transform(ctx: RequestContext): Promise<void> {
  const hooks = ctx.spec.chain?.scripts?.filter((script) => script.phase === 'request') ?? [];
  const first = hooks[0];
  if (first === undefined) return;
  if ((ctx.spec.bodyParts?.length ?? 0) > 0 || ctx.spec.bodyFile?.stillBodyOf(ctx.spec) !== undefined || Buffer.isBuffer(ctx.spec.body)) refuse(ctx, first, 'the body includes files or bytes (httpyac hands the hook a Buffer)');
  if (ctx.spec.annotations.protocol?.toLowerCase() === 'graphql') refuse(ctx, first, 'a GraphQL request (httpyac runs the hook before or after building its JSON by where it stands)');
  // httpyac's order: the file's hooks (global blocks) first, then the request's own, each on what the one before left.
  for (const hook of hooks) await runHook(ctx, hook);
}

const requestHookPlugin: Plugin = {
  name: 'httpyac-request-hook',
  stages: { transform },
};

export default requestHookPlugin;
