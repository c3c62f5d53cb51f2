import { CHAIN_ANNOTATIONS } from '../chain/chain-annotations.js';
import { hasShorthand } from '../core/auth-shorthand.js';
import { hasKeys } from '../core/has-keys.js';
import type { PluginEntry } from '../core/registry.js';
import { requestedAuth } from '../core/registry.js';
import { captureTokenPlugin } from '../core/stages/capture-token.js';
import { persistSessionPlugin } from '../core/stages/persist-session.js';
import { reportPlugin } from '../core/stages/report.js';
import { sendHttpPlugin } from '../core/stages/send-http.js';
import { substitutePlugin } from '../core/stages/substitute.js';
import { wantsExtraction } from '../core/token-extraction.js';
import { historyPlugin } from '../history/plugin.js';
import type { RequestContext } from './context.js';
import type { Plugin } from './plugin.js';

const load = (importer: () => Promise<{ default: Plugin }>) => async (): Promise<Plugin> => (await importer()).default;
const inline = (plugin: Plugin) => () => Promise.resolve(plugin);

/** Does the request use the session token (so OAuth must make sure it is fresh first)? */
function usesToken(ctx: RequestContext): boolean {
  if (requestedAuth(ctx) === 'bearer') return true;
  const { url, headers, body, bodyParts } = ctx.spec;
  const mentions = (text: string | Buffer | undefined): boolean => typeof text === 'string' && /\{\{\s*token\s*\}\}/.test(text);
  const inParts = bodyParts?.some((part) => part.kind === 'file' ? part.substitute : mentions(part.text)) === true; // an included file may say {{token}}
  return mentions(url) || mentions(body) || inParts || Object.values(headers).flat().some(mentions) || Object.values(ctx.profile.headers).some(mentions);
}

/** restcli's expectations (`# @expectedStatusCodes 200,2xx`, …), checked by the chain plugin. */
function hasExpectations(annotations: Record<string, string>): boolean {
  for (const key in annotations) if (key.startsWith('expected')) return true;
  return false;
}

/**
 * The built-in plugins, in run order. Each says cheaply (without importing) when it applies;
 * its module is imported only then. A built-in's selector (auth name, extensions, appliesTo)
 * lives here only: the plugin modules carry just their name and handlers.
 */
export const BUILTIN_PLUGINS: readonly PluginEntry[] = [
  { name: 'format-http', builtin: true, stages: ['parse'], extensions: ['http', 'rest'], load: load(() => import('../plugins/format-http/index.js')) },
  { name: 'format-yaml', builtin: true, stages: ['parse'], extensions: ['yaml', 'yml'], load: load(() => import('../plugins/format-yaml/index.js')) },
  { name: 'format-json', builtin: true, stages: ['parse'], extensions: ['json'], load: load(() => import('../plugins/format-json/index.js')) },
  { name: 'format-ws', builtin: true, stages: ['parse'], extensions: ['ws'], load: load(() => import('../plugins/format-ws/index.js')) },
  {
    // Before the core resolves templates: `# @ref`'d requests run and pre-request scripts set variables first.
    name: 'chain',
    builtin: true,
    stages: ['substitute', 'capture'],
    annotations: CHAIN_ANNOTATIONS,
    appliesTo: (ctx) => ctx.chain !== undefined && (ctx.chain.wants(ctx.spec) || ctx.chain.touchesEvery() || hasExpectations(ctx.spec.annotations)),
    before: ['auth-oauth2', 'core-substitute'],
    load: load(() => import('../chain/plugin.js')),
  },
  {
    name: 'auth-oauth2',
    builtin: true,
    stages: ['substitute', 'auth'],
    authName: 'oauth2',
    appliesTo: (ctx) => ctx.profile.oauth !== undefined && usesToken(ctx),
    before: ['core-substitute'],
    load: load(() => import('../plugins/auth-oauth2/index.js')),
  },
  {
    name: 'core-substitute',
    builtin: true,
    stages: ['substitute'],
    // The core's own, and those of the .http tools that reqflow honours (docs/request-files.md).
    annotations: ['name', 'filter', 'query', 'parsing', 'lang', 'auth', 'protocol', 'streaming', 'prompt', 'secret', 'timeout', 'connection-timeout', 'retry', 'no-redirect', 'no-cookie-jar', 'no-log', 'title', 'description', 'loop', 'disabled', 'keep-streaming', 'tls.*'],
    load: inline(substitutePlugin),
  },
  {
    name: 'confirm-note',
    builtin: true,
    stages: ['transform'],
    annotations: ['note', 'confirmation'],
    appliesTo: (ctx) => ctx.spec.annotations.note !== undefined || ctx.spec.annotations.confirmation === 'true',
    load: async () => (await import('../core/stages/confirm-note.js')).confirmNotePlugin, // few requests ask for it
  },
  {
    // httpyac's `# @proxy URL` / `# @noProxy`: this request's proxy, in place of the run's.
    name: 'request-proxy',
    builtin: true,
    stages: ['transform'],
    annotations: ['proxy', 'no-proxy'],
    appliesTo: (ctx) => ctx.spec.annotations.proxy !== undefined || ctx.spec.annotations['no-proxy'] !== undefined,
    load: async () => (await import('../core/stages/request-proxy.js')).requestProxyPlugin, // few requests name one
  },
  {
    name: 'sleep',
    builtin: true,
    stages: ['transform'],
    annotations: ['sleep'],
    appliesTo: (ctx) => ctx.spec.annotations.sleep !== undefined,
    load: async () => (await import('../core/stages/sleep.js')).sleepPlugin, // few requests wait
  },
  {
    name: 'auth-resterm',
    builtin: true,
    stages: ['auth'],
    annotations: ['resterm-auth'],
    appliesTo: (ctx) => ctx.spec.annotations['resterm-auth'] !== undefined,
    before: ['auth-basic-shorthand'],
    load: load(() => import('../plugins/auth-resterm/index.js')),
  },
  { name: 'auth-bearer', builtin: true, stages: ['auth'], authName: 'bearer', load: load(() => import('../plugins/auth-bearer/index.js')) },
  { name: 'auth-apikey', builtin: true, stages: ['auth'], authName: 'apikey', load: load(() => import('../plugins/auth-apikey/index.js')) },
  { name: 'auth-basic', builtin: true, stages: ['auth'], authName: 'basic', load: load(() => import('../plugins/auth-basic/index.js')) },
  { name: 'auth-custom', builtin: true, stages: ['auth'], authName: 'custom', load: load(() => import('../plugins/auth-custom/index.js')) },
  {
    name: 'auth-basic-shorthand',
    builtin: true,
    stages: ['auth'],
    appliesTo: (ctx) => hasShorthand('basic', ctx.spec.headers),
    load: load(() => import('../plugins/auth-basic/shorthand.js')),
  },
  {
    name: 'auth-digest',
    builtin: true,
    stages: ['auth', 'send'],
    authName: 'digest',
    appliesTo: (ctx) => hasShorthand('digest', ctx.spec.headers) || ctx.state['auth-digest'] !== undefined,
    load: load(() => import('../plugins/auth-digest/index.js')),
  },
  {
    name: 'auth-mtls',
    builtin: true,
    stages: ['auth'],
    appliesTo: (ctx) => hasKeys(ctx.tls),
    load: load(() => import('../plugins/auth-mtls/index.js')),
  },
  {
    // httpyac's `{{@request` hook: on the resolved, authenticated request, before it goes out.
    name: 'httpyac-request-hook',
    builtin: true,
    stages: ['transform'],
    appliesTo: (ctx) => ctx.chain !== undefined && ctx.spec.chain?.scripts?.some((script) => script.phase === 'request') === true,
    load: load(() => import('../chain/request-hook.js')),
  },
  {
    name: 'graphql',
    builtin: true,
    stages: ['transform', 'send', 'render'],
    annotations: ['operation', 'variables', 'transport', 'connectionParams'],
    appliesTo: (ctx) => ctx.spec.annotations.protocol?.toLowerCase() === 'graphql',
    load: load(() => import('../plugins/graphql/index.js')),
  },
  {
    // httpyac's `# @ratelimit`: waits for its slot last in `transform`, so that the time it counts is the send's.
    name: 'ratelimit',
    builtin: true,
    stages: ['transform'],
    annotations: ['ratelimit'],
    appliesTo: (ctx) => ctx.spec.annotations.ratelimit !== undefined,
    load: async () => (await import('../core/stages/rate-limit.js')).rateLimitPlugin, // few requests are paced
  },
  {
    name: 'sse',
    builtin: true,
    stages: ['send', 'render'],
    // GraphQL mode streams with its own transports (subscriptions over SSE or WebSocket).
    appliesTo: (ctx) => ctx.spec.annotations.streaming === 'true' && !['graphql', 'websocket'].includes(ctx.spec.annotations.protocol?.toLowerCase() ?? ''),
    load: load(() => import('../plugins/sse/index.js')),
  },
  {
    // JetBrains' `WEBSOCKET url` (or `# @protocol websocket`): never sent as plain HTTP.
    name: 'websocket',
    builtin: true,
    stages: ['send', 'render'],
    appliesTo: (ctx) => ctx.spec.annotations.protocol?.toLowerCase() === 'websocket',
    load: load(() => import('../plugins/websocket/index.js')),
  },
  { name: 'core-http', builtin: true, stages: ['send'], load: inline(sendHttpPlugin) },
  { name: 'core-report', builtin: true, stages: ['render'], load: inline(reportPlugin) },
  {
    name: 'capture-token',
    builtin: true,
    stages: ['capture'],
    appliesTo: (ctx) => ctx.options.extract && ctx.response !== undefined && wantsExtraction(ctx.response),
    load: inline(captureTokenPlugin),
  },
  // Before the session: a session that cannot be saved must not cost the request its entry.
  { name: 'history', builtin: true, stages: ['persist'], appliesTo: (ctx) => ctx.history !== undefined, load: inline(historyPlugin) },
  { name: 'persist-session', builtin: true, stages: ['persist'], load: inline(persistSessionPlugin) },
];
