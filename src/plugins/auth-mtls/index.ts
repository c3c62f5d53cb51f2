/**
 * Mutual TLS and server trust: turns the merged `tls` settings (profile, then the request field
 * by field; paths already absolute) into Node TLS options, checking the files first so that
 * every problem is one clear exit-5 line. `insecureSkipVerify` warns once per run.
 */
import type { Plugin } from '../../pipeline/plugin.js';
import type { RequestContext } from '../../pipeline/context.js';
import type { TlsConnectionOptions } from '../../core/model.js';
import { tlsFile } from './files.js';
import { loadIdentity } from './identity.js';
import { loadCaFile } from './trust.js';

/** Per run: files are read and checked once per distinct setting. */
interface RunState {
  warned: boolean;
  loaded: Map<string, Promise<TlsConnectionOptions>>;
}

function runState(ctx: RequestContext): RunState {
  return (ctx.runState['auth-mtls'] ??= { warned: false, loaded: new Map() }) as RunState;
}

async function load(ctx: RequestContext): Promise<TlsConnectionOptions> {
  const options: TlsConnectionOptions = { ...(await loadIdentity(ctx)) };
  const ca = tlsFile(ctx, 'caFile');
  if (ca) options.ca = [await loadCaFile(ca)];
  if (ctx.tls.insecureSkipVerify === true) options.rejectUnauthorized = false;
  return options;
}

async function applyTls(ctx: RequestContext): Promise<RequestContext> {
  const state = runState(ctx);
  const key = JSON.stringify([ctx.tls, ctx.spec.tls ?? {}]);
  let pending = state.loaded.get(key);
  if (!pending) {
    pending = load(ctx);
    state.loaded.set(key, pending);
    // Errors name the request: the next request with the same settings checks again for its own message.
    pending.catch(() => state.loaded.delete(key));
  }
  Object.assign(ctx.tlsOptions, await pending);
  if (ctx.tls.insecureSkipVerify === true && !state.warned && /^https:/i.test(ctx.spec.url)) {
    state.warned = true;
    ctx.warn('TLS certificate verification is off (insecureSkipVerify): the server is not authenticated; use tls.caFile to trust a private CA instead');
  }
  return ctx;
}

const plugin: Plugin = { name: 'auth-mtls', stages: { auth: applyTls } };
export default plugin;
