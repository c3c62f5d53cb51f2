import { portOutOfRange } from '../http/url-port.js';
import { fieldLines, hasHeader, type HeaderValue, mergeHeaders, NOT_IN_HEADER_VALUE, type RequestHeaders } from '../headers.js';
import { withDefaultScheme } from '../default-scheme.js';
import { resolvePath } from '../resolve-path.js';
import { outsideTemplates } from '../variables.js';
import { shorthandCredentials } from '../auth-shorthand.js';
import { resolveRequestBody } from './request-body.js';
import type { UrlProblem } from './substitute-errors.js';
import type { Plugin } from '../../pipeline/plugin.js';
import type { RequestContext } from '../../pipeline/context.js';
import type { TlsSettings, VariableResolver } from '../model.js';

const TLS_PATHS = ['certFile', 'keyFile', 'caFile', 'pfxFile'] as const;

async function resolveTls(tls: TlsSettings | undefined, baseDir: string, variables: VariableResolver): Promise<TlsSettings> {
  const out: TlsSettings = {};
  if (!tls) return out;
  for (const key of TLS_PATHS) {
    const value = tls[key];
    if (value !== undefined) out[key] = resolvePath(await variables.expand(value), baseDir);
  }
  if (tls.passphrase !== undefined) out.passphrase = await variables.expand(tls.passphrase);
  if (tls.insecureSkipVerify !== undefined) out.insecureSkipVerify = tls.insecureSkipVerify;
  return out;
}

/** The request's TLS overrides the profile's field by field; `--insecure` overrides both. */
async function mergeTls(ctx: RequestContext): Promise<TlsSettings> {
  const fromProfile = await resolveTls(ctx.profile.tls, ctx.profile.baseDir, ctx.variables);
  const fromRequest = await resolveTls(ctx.spec.tls, ctx.baseDir, ctx.variables);
  const merged: TlsSettings = { ...fromProfile, ...fromRequest };
  if (ctx.options.insecure) merged.insecureSkipVerify = true;
  return merged;
}

/**
 * The character of a resolved header value that cannot be sent, when a variable put it there (a
 * character written in the file itself is the file's error: exit 2, when the request is sent).
 */
function badHeaderCharacter(name: string, written: string, value: string): string | undefined {
  const bad = NOT_IN_HEADER_VALUE.exec(value)?.[0];
  if (bad === undefined || NOT_IN_HEADER_VALUE.test(outsideTemplates(written))) return undefined;
  // `Authorization: Basic {{user}}:{{password}}`: the auth stage encodes the credentials (UTF-8,
  // base64), so a password past ASCII is no header's character; a line break still is.
  const encoded = bad >= '\u0080' && name.toLowerCase() === 'authorization' && (shorthandCredentials('basic', value) ?? shorthandCredentials('digest', value)) !== undefined;
  return encoded ? NOT_IN_HEADER_VALUE.exec(value.replace(/[^\u0000-\u007f]/g, ''))?.[0] : bad;
}

/** What makes the resolved URL unsendable: a port out of range, a control character, two schemes; undefined when nothing does. */
function urlProblem(url: string): UrlProblem | undefined {
  const port = portOutOfRange(url);
  if (port !== undefined) return { port };
  // `http://{{origin}}/x` (or `Host: {{origin}}`) with origin = https://…: the host would be "https".
  if (/^[a-z][\w+.-]*:\/\/[a-z][\w+.-]*:\/\//i.test(url)) return { twice: true };
  const bad = /[\u0000-\u001f\u007f]/.exec(url)?.[0];
  return bad === undefined ? undefined : { bad };
}

/**
 * A `#` a value put in a URL whose file writes none: the URL parser would take the rest — the
 * value's end and what the file writes after it (`/{{seg}}/tail?n=1` with seg = `p#q`) — as a
 * fragment, which is never sent. Exit 3 rather than a shorter request.
 */
function fragmentFromValue(written: string, url: string): UrlProblem | undefined {
  return url.includes('#') && !outsideTemplates(written).includes('#') ? { fragment: true } : undefined;
}

/**
 * The host a value moved: `http://10.0.0.1:9{{path}}` with path = `@evil.example/x` would go to
 * evil.example (the written host as its user name). Where the file writes the host's start and a
 * template follows it, a value may lengthen the host, never put user info before it.
 */
function movedHost(written: string, url: string): string | undefined {
  const literal = /^[a-z][\w+.-]*:\/\/([^{/?#\\]+)\{\{/i.exec(written)?.[1];
  if (literal === undefined) return undefined;
  let sent: URL;
  try {
    sent = new URL(url);
  } catch {
    return undefined; // the send stage says what is wrong with it
  }
  const at = literal.lastIndexOf('@');
  if (at < 0) {
    // A template inside user info the file writes (`http://user:{{pw}}@host`) is the file's own.
    const authority = outsideTemplates(written).replace(/^[^:]*:\/\//, '').split(/[/?#\\]/)[0] ?? '';
    return !authority.includes('@') && (sent.username !== '' || sent.password !== '') ? sent.host : undefined;
  }
  const port = sent.port || (sent.protocol === 'https:' ? '443' : '80');
  return `${sent.hostname}:${port}`.startsWith(literal.slice(at + 1).toLowerCase()) ? undefined : sent.host;
}

/** The errors' wording: imported only when a request has one of these problems. */
const wording = (): Promise<typeof import('./substitute-errors.js')> => import('./substitute-errors.js');

/** Does a text of the request hold a template? (`expand` returns any other text as it is.) */
function headersTemplated(headers: Readonly<RequestHeaders>): boolean {
  for (const name in headers) {
    const value = headers[name] as HeaderValue;
    if (name.includes('{{') || (typeof value === 'string' ? value.includes('{{') : value.some((line) => line.includes('{{')))) return true;
  }
  return false;
}

/** True when resolving the request needs its variables: a template anywhere, a body of parts, TLS settings (their paths). */
function needsResolving(ctx: RequestContext): boolean {
  const { spec, profile } = ctx;
  if (spec.bodyParts || spec.tls || profile.tls || spec.url.includes('{{') || (typeof spec.body === 'string' && spec.body.includes('{{'))) return true;
  return headersTemplated(profile.headers) || headersTemplated(spec.headers);
}

/**
 * A request without templates, synchronously: what {@link substitute} does with every text left
 * as written (no resolver is built, no promise made — a batch of plain requests pays per request).
 */
function substitutePlain(ctx: RequestContext): void | Promise<never> {
  const { spec } = ctx;
  const headers = mergeHeaders(ctx.profile.headers, spec.headers);
  // Each request its own lines, as resolving makes them.
  for (const name in headers) if (typeof headers[name] !== 'string') headers[name] = [...(headers[name] as string[])];
  spec.headers = headers;
  const written = spec.url;
  spec.url = withDefaultScheme(written);
  const problem = urlProblem(spec.url);
  if (problem) return wording().then(({ urlError }) => Promise.reject(urlError(ctx, written, problem)));
  delete spec.bodyParts;
  ctx.tls = ctx.options.insecure ? { insecureSkipVerify: true } : {};
}

/** Profile headers, then `{{...}}` in the URL, headers, body and TLS settings. */
async function substitute(ctx: RequestContext): Promise<void> {
  const { spec, variables } = ctx;
  const own = spec.headers;
  const origins = ctx.profile.headerOrigins;
  const headers = mergeHeaders(ctx.profile.headers, own);
  spec.headers = {};
  for (const [name, value] of Object.entries(headers)) {
    const lines: string[] = [];
    try {
      for (const line of fieldLines(value)) {
        const resolved = await variables.expand(line);
        const bad = badHeaderCharacter(name, line, resolved);
        if (bad !== undefined) throw (await wording()).headerValueError(ctx, name, line, resolved, bad);
        lines.push(resolved);
      }
    } catch (error) {
      // A profile's or a tool config's header: its error names the file it is written in.
      const origin = origins !== undefined && !hasHeader(own, name) ? origins[name.toLowerCase()] : undefined;
      throw origin === undefined ? error : (await wording()).fromHeaderOrigin(error, origin);
    }
    spec.headers[await variables.expand(name)] = typeof value === 'string' ? lines[0]! : lines;
  }
  // `{{host}}/x` with host = localhost:8080: http://, as for a URL written without a scheme.
  const written = spec.url;
  spec.url = withDefaultScheme(await variables.expand(written));
  const moved = movedHost(written, spec.url);
  const problem = moved === undefined ? (urlProblem(spec.url) ?? fragmentFromValue(written, spec.url)) : { moved };
  if (problem) throw (await wording()).urlError(ctx, written, problem);
  if (spec.bodyParts) {
    const resolved = await resolveRequestBody(spec.bodyParts, spec, ctx.baseDir, variables);
    // A large file is sent from the disk as the request goes out (core/file-body.ts).
    if (!Array.isArray(resolved)) resolved.becomeBodyOf(spec);
    else {
      spec.body = Buffer.concat(resolved.map((piece) => piece.bytes));
      ctx.bodyPieces = { body: spec.body, pieces: resolved };
    }
  } else if (typeof spec.body === 'string') spec.body = await variables.expand(spec.body);
  delete spec.bodyParts;
  ctx.tls = await mergeTls(ctx);
}

export const substitutePlugin: Plugin = {
  name: 'core-substitute',
  stages: {
    substitute: (ctx) => (needsResolving(ctx) ? substitute(ctx) : substitutePlain(ctx)),
  },
};
