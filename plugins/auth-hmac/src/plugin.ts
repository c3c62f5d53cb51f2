import type { Plugin, PluginsHookOptions, RequestContext } from 'reqflow';
import { ALGORITHMS, isAlgorithm, sign, type Algorithm } from './sign.js';

/** reqflow's runtime API, handed to the hook by the reqflow that runs the plugin. */
type Reqflow = PluginsHookOptions['reqflow'];

/** What a request is signed with, after defaults, profile, annotations and `{{variables}}`. */
export interface HmacSettings {
  secret: string;
  header: string;
  timestampHeader: string;
  algorithm: Algorithm;
}

/** Used for every key the profile's `auth` object and the request's annotations leave out. */
export const DEFAULTS = { secret: '{{hmacSecret}}', header: 'X-Signature', timestampHeader: 'X-Timestamp', algorithm: 'sha256' };

/** The `# @auth hmac` plugin. */
export function createHmacPlugin(reqflow: Reqflow): Plugin {
  async function settingsOf(ctx: RequestContext): Promise<HmacSettings> {
    const given = await reqflow.readAuthSettings(ctx, 'hmac', DEFAULTS);
    for (const key of Object.keys(DEFAULTS)) {
      const value = given[key];
      if (typeof value !== 'string' || value === '') {
        reqflow.fail(`hmac: "${key}" must be a non-empty string (request "${ctx.spec.name}")`, { hint: `set it in the profile's "auth" object, e.g. "${key}": "${DEFAULTS[key as keyof typeof DEFAULTS]}"` });
      }
    }
    const algorithm = String(given.algorithm);
    if (!isAlgorithm(algorithm)) reqflow.fail(`hmac: unknown algorithm "${algorithm}"`, { hint: `use one of: ${ALGORITHMS.join(', ')}` });
    return { secret: String(given.secret), header: String(given.header), timestampHeader: String(given.timestampHeader), algorithm };
  }

  return {
    name: 'auth-hmac',
    authName: 'hmac',
    // Sign the body that goes on the wire: GraphQL builds its JSON body in `transform`.
    after: ['graphql'],
    stages: {
      transform: async (ctx) => {
        const settings = await settingsOf(ctx);
        reqflow.maskSecret(ctx, settings.secret);
        // The target as it goes on the wire (`/e?` keeps its `?`), not as a URL object rewrites it.
        const target = reqflow.wireTarget(ctx.spec.url);
        const timestamp = String(Math.floor(Date.now() / 1000));
        const signature = sign(settings.secret, settings.algorithm, { method: ctx.spec.method, target, timestamp, body: ctx.spec.body });
        reqflow.setHeader(ctx.spec.headers, settings.timestampHeader, timestamp);
        reqflow.setHeader(ctx.spec.headers, settings.header, signature);
        reqflow.maskSecret(ctx, signature);
        return ctx;
      },
    },
  };
}
