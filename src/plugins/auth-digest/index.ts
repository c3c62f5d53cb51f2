/**
 * HTTP Digest authentication (RFC 7616: MD5, SHA-256 and their -sess variants, `qop=auth`):
 * `Authorization: Digest user password` in a request (VS Code REST Client, JetBrains), or
 * `# @auth digest` / profile `"auth": {"type": "digest"}` with `username` and `password`.
 * The request goes out without credentials; a 401 with a Digest challenge from the origin the
 * file names is answered once, each hop of the answered request (-L) with a digest of its own.
 */
import { authSettings, credential, stringSetting } from '../../core/auth-helpers.js';
import { shorthandCredentials } from '../../core/auth-shorthand.js';
import { AuthFlowError, UsageError, VariableError } from '../../core/errors/index.js';
import { deleteHeader, getHeaderLines } from '../../core/headers.js';
import { requestTarget } from '../../core/http/request-target.js';
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

/** Sends the request as the file says; `authorization` gives each hop (the first, each redirect followed) its own. */
function send(ctx: RequestContext, authorization: (method: string, url: URL) => string | undefined): Promise<ResponseInfo> {
  // A large file is sent as it is read: opened again for the answer to the challenge, and sent only if unchanged.
  const body = ctx.spec.bodyFile?.stillBodyOf(ctx.spec) ?? ctx.spec.body;
  return ctx.http.send({ method: ctx.spec.method, url: ctx.spec.url, headers: { ...ctx.spec.headers }, authorization, ...(body !== undefined ? { body } : {}) });
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
      // The first try carries nothing; noting its hops tells where a 401 came from (with -L, maybe another origin).
      let last = '';
      const first = await send(ctx, (_method, url) => void (last = url.origin));
      const origin = new URL(ctx.spec.url).origin; // sent: a valid URL
      const challenge = first.status === 401 ? digestChallenges(first.headers['www-authenticate'])[0] : undefined;
      if (!found || !challenge) {
        ctx.response = first;
        return;
      }
      if (last !== origin) {
        // The credentials are the file's origin's: another origin's challenge is not theirs to answer.
        if (ctx.options.verbose) ctx.output.err(`reqflow: digest challenge from ${last} not answered: the credentials are for ${origin}, the origin the file names`);
        ctx.response = first;
        return;
      }
      first.stream?.resume(); // the 401's body is not shown: the answer to the challenge is
      if (challenge.qop.length > 0 && !challenge.qop.includes('auth')) {
        throw new AuthFlowError(`the server asks for digest qop=${challenge.qop.join(',')} (request "${ctx.spec.name}"); reqflow answers qop=auth only`, { hint: 'auth-int (a digest of the body) is not supported' });
      }
      // Sent again from the file's URL: each hop on its origin (a redirect -L follows there too)
      // carries an answer for its own method and target, the nonce counted up as RFC 7616 §3.4 says.
      let count = 0;
      ctx.response = await send(ctx, (method, url) => (url.origin === origin ? digestAuthorization(challenge, found, { method, uri: requestTarget(ctx.spec.url, url, ctx.spec.asteriskForm) }, ++count) : undefined));
    },
  },
};
export default plugin;
