/**
 * HTTP Digest authentication (RFC 7616: MD5, SHA-256 and their -sess variants, `qop=auth`):
 * `Authorization: Digest user password` in a request (VS Code REST Client, JetBrains), or
 * `# @auth digest` / profile `"auth": {"type": "digest"}` with `username` and `password`.
 * The request goes out without credentials; a 401 with a Digest challenge is answered once.
 */
import { authSettings, credential, stringSetting } from '../../core/auth-helpers.js';
import { shorthandCredentials } from '../../core/auth-shorthand.js';
import { AuthFlowError, UsageError, VariableError } from '../../core/errors/index.js';
import { deleteHeader, getHeaderLines } from '../../core/headers.js';
import type { ResponseInfo } from '../../core/model.js';
import type { RequestContext } from '../../pipeline/context.js';
import type { Plugin } from '../../pipeline/plugin.js';
import { digestChallenges } from './challenge.js';
import { digestAuthorization, type DigestCredentials } from './response.js';

async function credentials(ctx: RequestContext): Promise<DigestCredentials> {
  const lines = getHeaderLines(ctx.spec.headers, 'authorization');
  const shorthand = lines.map((line) => shorthandCredentials('digest', line)).find((found) => found !== undefined);
  if (shorthand) {
    // The answer to the challenge is the request's one Authorization: another line would be lost.
    if (lines.length > 1) {
      throw new UsageError(`request "${ctx.spec.name}" writes Authorization on ${lines.length} lines, one of them "Digest user password": digest auth sends one Authorization header, its answer to the server's challenge`, { hint: 'keep the Digest line alone, or send the other credentials in another header' });
    }
    return shorthand;
  }
  const settings = authSettings(ctx, 'digest');
  const missing = (name: string) => (): VariableError => new VariableError(`request "${ctx.spec.name}" uses digest auth but "${name}" is not set`, { hint: `pass -e ${name}=..., or add "${name}" to the "variables" of profile "${ctx.profile.name}"` });
  const username = await credential(ctx, { template: stringSetting(ctx, settings, 'username'), variable: 'username', missing: missing('username') });
  const password = await credential(ctx, { template: stringSetting(ctx, settings, 'password'), variable: 'password', missing: missing('password'), allowEmpty: true });
  return { username, password };
}

function send(ctx: RequestContext, authorization?: string): Promise<ResponseInfo> {
  const headers = { ...ctx.spec.headers, ...(authorization ? { Authorization: authorization } : {}) };
  // A large file is sent as it is read: opened again for the answer to the challenge, and sent only if unchanged.
  const body = ctx.spec.bodyFile?.stillBodyOf(ctx.spec) ?? ctx.spec.body;
  return ctx.http.send({ method: ctx.spec.method, url: ctx.spec.url, headers, ...(body !== undefined ? { body } : {}) });
}

const plugin: Plugin = {
  name: 'auth-digest',
  stages: {
    auth: async (ctx) => {
      const found = await credentials(ctx);
      ctx.addSecret?.(found.password);
      deleteHeader(ctx.spec.headers, 'authorization'); // credentials never go out in the clear
      ctx.state['auth-digest'] = found;
    },
    send: async (ctx) => {
      if (ctx.response) return;
      const found = ctx.state['auth-digest'] as DigestCredentials | undefined;
      const first = await send(ctx);
      const challenge = first.status === 401 ? digestChallenges(first.headers['www-authenticate'])[0] : undefined;
      if (!found || !challenge) {
        ctx.response = first;
        return;
      }
      first.stream?.resume(); // the 401's body is not shown: the answer to the challenge is
      if (challenge.qop.length > 0 && !challenge.qop.includes('auth')) {
        throw new AuthFlowError(`the server asks for digest qop=${challenge.qop.join(',')} (request "${ctx.spec.name}"); reqflow answers qop=auth only`, { hint: 'auth-int (a digest of the body) is not supported' });
      }
      const url = new URL(ctx.spec.url);
      ctx.response = await send(ctx, digestAuthorization(challenge, found, { method: ctx.spec.method, uri: `${url.pathname}${url.search}` }));
    },
  },
};
export default plugin;
