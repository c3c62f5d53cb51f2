import type { Plugin, PluginsHookOptions, RequestContext } from 'reqflow';
import { parseAmzDate, sigV4Headers, type SigningScope } from './sign.js';

/** reqflow's runtime API, handed to the hook by the reqflow that runs the plugin. */
type Reqflow = PluginsHookOptions['reqflow'];

/** Where each setting comes from when the profile's `auth` object does not say. */
export const DEFAULTS = { accessKeyId: '{{awsAccessKeyId}}', secretAccessKey: '{{awsSecretAccessKey}}', region: '{{awsRegion}}', service: '{{awsService}}' };

/** The `# @auth aws-sigv4` plugin. */
export function createSigV4Plugin(reqflow: Reqflow): Plugin {
  async function scopeOf(ctx: RequestContext): Promise<SigningScope> {
    const given = await reqflow.readAuthSettings(ctx, 'aws-sigv4', DEFAULTS);
    for (const key of Object.keys(DEFAULTS)) {
      if (typeof given[key] !== 'string' || given[key] === '') reqflow.fail(`aws-sigv4: "${key}" is empty (request "${ctx.spec.name}")`, { hint: `set ${DEFAULTS[key as keyof typeof DEFAULTS].slice(2, -2)} or "${key}" in the profile's "auth" object` });
    }
    const sessionToken = typeof given.sessionToken === 'string' ? given.sessionToken : await reqflow.readOptionalVariable(ctx, 'awsSessionToken');
    const amzDate = reqflow.getHeader(ctx.spec.headers, 'X-Amz-Date');
    const date = amzDate === undefined ? undefined : parseAmzDate(amzDate);
    if (amzDate !== undefined && !date) reqflow.fail(`aws-sigv4: X-Amz-Date "${amzDate}" is not in the form 20150830T123600Z`);
    const credentials = { accessKeyId: String(given.accessKeyId), secretAccessKey: String(given.secretAccessKey), ...(sessionToken ? { sessionToken } : {}) };
    reqflow.maskSecret(ctx, credentials.secretAccessKey);
    if (sessionToken) reqflow.maskSecret(ctx, sessionToken);
    return { credentials, region: String(given.region), service: String(given.service), ...(date ? { date } : {}) };
  }

  return {
    name: 'auth-aws-sigv4',
    authName: 'aws-sigv4',
    // Sign what goes on the wire: GraphQL builds its JSON body in `transform`.
    after: ['graphql'],
    stages: {
      transform: async (ctx) => {
        const scope = await scopeOf(ctx);
        reqflow.parseRequestUrl(ctx.spec.url); // exit 2 for a URL that cannot be signed or sent
        const added = await sigV4Headers({ method: ctx.spec.method, url: ctx.spec.url, headers: ctx.spec.headers, ...(ctx.spec.body !== undefined ? { body: ctx.spec.body } : {}) }, scope);
        for (const [name, value] of Object.entries(added)) reqflow.setHeader(ctx.spec.headers, name, value);
        return ctx;
      },
    },
  };
}
