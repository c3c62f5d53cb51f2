/**
 * The shape of a plugin: which stages and hooks it takes part in, and when it applies. With
 * `context.ts` (what each stage sees) this is the whole extension surface: a plugin author
 * needs nothing else (`import type { Plugin } from 'reqflow'`). The loop that runs the stages
 * is `loop.ts`.
 */
import type { CaptureContext, ParseContext, PersistContext, RenderContext, RequestContext } from './context.js';

/** The six stages, in run order. */
export const STAGES = ['parse', 'substitute', 'auth', 'transform', 'send', 'render'] as const;

/** `'parse' | 'substitute' | 'auth' | 'transform' | 'send' | 'render'`. */
export type Stage = (typeof STAGES)[number];

/** The stages that run once per request (every stage but `parse`). */
export type RequestStage = Exclude<Stage, 'parse'>;

/** The per-request stages, in run order. */
export const REQUEST_STAGES: readonly RequestStage[] = ['substitute', 'auth', 'transform', 'send', 'render'];

/** The hooks after the response: `capture` (values for later requests), then `persist` (session, cookies, history). */
export const HOOKS = ['capture', 'persist'] as const;

export type Hook = (typeof HOOKS)[number];

/** A stage or a hook: what a plugin entry lists and the registry orders. */
export type Step = Stage | Hook;

export type Awaitable<T> = T | Promise<T>;

/** A request-stage handler: change `ctx` in place (returning it, or nothing). */
export type RequestHandler = (ctx: RequestContext) => Awaitable<RequestContext | void>;

/** A parse handler: push `RequestSpec`s onto `ctx.requests`. */
export type ParseHandler = (ctx: ParseContext) => Awaitable<ParseContext | void>;

/** A plugin's handlers, one per stage it takes part in. */
export interface StageHandlers {
  /**
   * Turns a file's text into request specs. Runs once per file, for the files whose extension
   * is in {@link Plugin.extensions}.
   *
   * @example
   * ```
   * parse: (ctx) => {
   *   for (const [i, line] of ctx.text.split('\n').entries()) {
   *     const [method, url] = line.split(' ');
   *     if (method && url) ctx.requests.push({ name: `request-${i + 1}`, method, url, headers: {}, annotations: {}, source: { file: ctx.file, line: i + 1 } });
   *   }
   * }
   * ```
   */
  parse?: ParseHandler;
  /**
   * Runs after the core has merged the profile's headers and resolved `{{...}}` in the URL,
   * headers, body and TLS settings (unless `before: ['core-substitute']`). Use it for
   * templates of your own.
   */
  substitute?: RequestHandler;
  /**
   * Authenticates the request: add headers (`Authorization`, a signature), query parameters
   * or `ctx.tlsOptions`. Runs after `substitute`, so URL, headers and body are final except
   * for what `transform` does.
   *
   * @example
   * ```
   * auth: async (ctx) => {
   *   setHeader(ctx.spec.headers, 'X-Api-Key', await ctx.variables.get('apiKey'));
   *   return ctx;
   * }
   * ```
   */
  auth?: RequestHandler;
  /**
   * Shapes body and headers for the wire (GraphQL wraps the query in JSON here). Runs after
   * `auth`: a signer that must see the final body should run in `transform` with
   * `after: ['graphql']`.
   */
  transform?: RequestHandler;
  /**
   * Puts the request on the wire and sets `ctx.response`. The first handler to set it wins;
   * the built-in sender (`core-http`) runs last, so a plugin with `before: ['core-http']` can
   * answer from a cache or a mock.
   */
  send?: RequestHandler;
  /**
   * Shows the response: hand it to `ctx.report` (the run's reporter shows it, filtered), or
   * print it yourself. Skip when `ctx.rendered` is already true; set it when you showed it.
   * The core's hand-off (`core-report`) runs last.
   *
   * @example
   * ```
   * render: async (ctx) => {
   *   if (ctx.rendered) return;
   *   ctx.output.out(`${ctx.response.status} ${(await ctx.readBody()).length} bytes\n`);
   *   ctx.rendered = true;
   * }
   * ```
   */
  render?: (ctx: RenderContext) => Awaitable<RequestContext | void>;
  /**
   * Hook after `render`: take values from the response for later requests of the run (the
   * token of a login response, `# @capture`). The body is `ctx.capturedBody()`.
   */
  capture?: (ctx: CaptureContext) => Awaitable<void>;
  /**
   * Hook that runs last, also when the request failed: write what must outlive the run
   * (session, cookies, history). Must not throw for a request that already failed.
   */
  persist?: (ctx: PersistContext) => Awaitable<void>;
}

/**
 * A plugin: a name, some stage handlers and a rule saying which requests it applies to.
 *
 * A plugin applies to a request when any of these hold:
 * - it names an auth method (`authName`) and the request says `# @auth <authName>` or the
 *   profile's `auth.type` is `<authName>`;
 * - it lists file extensions (`extensions`) and the file has one of them (parse stage);
 * - its `appliesTo(ctx)` returns true.
 * A plugin with none of the three applies to every request.
 *
 * @example
 * ```
 * const plugin: Plugin = {
 *   name: 'auth-team',
 *   authName: 'team',
 *   stages: { auth: (ctx) => { ctx.spec.headers['X-Team'] = 'blue'; return ctx; } },
 * };
 * ```
 */
export interface Plugin {
  /**
   * Unique among installed plugins; shown in errors
   * (`plugin "auth-hmac" failed in the auth stage: ...`) and used by `before`/`after`.
   */
  name: string;
  /** The handlers, one per stage the plugin takes part in. */
  stages: StageHandlers;
  /**
   * The auth method this plugin implements: requests say `# @auth <authName>` or the profile
   * says `"auth": { "type": "<authName>" }`. Two plugins may not claim the same name: a
   * request that asks for it fails with exit 2 naming both. `# @auth NAME` that no plugin
   * provides is exit 2 too.
   */
  authName?: string;
  /** File extensions (without the dot) handled by this plugin's `parse`. */
  extensions?: string[];
  /**
   * Custom applicability test, evaluated before each of the plugin's request-stage handlers.
   * Keep it cheap and synchronous; it sees the context as that stage receives it.
   *
   * @example
   * ```
   * appliesTo: (ctx) => ctx.spec.annotations.render === 'table'
   * ```
   */
  appliesTo?(ctx: RequestContext): boolean;
  /**
   * The `# @annotation` names this plugin reads. `<name>.*` and `<authName>.*` are always the
   * plugin's own; reqflow warns once about an annotation no plugin names, with the closest
   * known name (a typo such as `# @filer` must not pass silently).
   */
  annotations?: string[];
  /** Run this plugin's handlers before those of the named plugins (same stage). */
  before?: string[];
  /**
   * Run this plugin's handlers after those of the named plugins (same stage).
   *
   * @example
   * ```
   * after: ['graphql'] // sign the body GraphQL produced in `transform`
   * ```
   */
  after?: string[];
}
