import { UsageError, VariableError } from '../errors/index.js';
import { portOutOfRange } from '../http/url-port.js';
import { displayUrl } from '../mask.js';
import { fieldLines, type HeaderValue, mergeHeaders, NOT_IN_HEADER_VALUE, type RequestHeaders } from '../headers.js';
import { withDefaultScheme } from '../default-scheme.js';
import { resolvePath } from '../resolve-path.js';
import { outsideTemplates, templateExpressions } from '../variables.js';
import { resolveBodyPieces } from './request-body.js';
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
 * A variable whose value holds a line break would split the request into two (header
 * injection, a token read with its newline); another control character (or one past Latin-1)
 * cannot be sent either: exit 3 naming the header and the variables. A character written in
 * the file itself is the file's error (exit 2, when the request is sent).
 */
function checkHeaderValue(ctx: RequestContext, name: string, written: string, value: string): string {
  const bad = NOT_IN_HEADER_VALUE.exec(value)?.[0];
  if (bad === undefined || NOT_IN_HEADER_VALUE.test(outsideTemplates(written))) return value;
  const templates = templateExpressions(written).map((expression) => `{{${expression}}}`);
  const what = /[\r\n\0]/.test(value) ? 'a line break' : `a character a header cannot hold (U+${(bad.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')})`;
  throw new VariableError(`header ${name} of request "${ctx.spec.name}" would contain ${what}${templates.length > 0 ? `, from ${templates.join(', ')}` : ''}`, {
    hint: 'a header value is one line of visible characters: check where the variable comes from (a file read with its trailing newline?)',
  });
}

/** `http://localhost:99999`: exit 2 naming the request's line (and the templates the URL came from). */
function checkPort(ctx: RequestContext, written: string): void {
  const port = portOutOfRange(ctx.spec.url);
  if (port === undefined) return;
  const templates = templateExpressions(written).map((expression) => `{{${expression}}}`);
  throw new UsageError(`${ctx.spec.source.file}:${ctx.spec.source.line}: port ${port} is out of range (1–65535) in ${displayUrl(ctx.spec.url, ctx.redact)}${templates.length > 0 ? `, from ${templates.join(', ')}` : ''}`);
}

/**
 * A tab or line break a variable puts in the URL: the URL parser would drop it silently, a raw
 * target cannot carry it; exit 3 naming the request's line and the templates, never sent otherwise.
 */
function checkTarget(ctx: RequestContext, written: string): void {
  const bad = /[\u0000-\u001f\u007f]/.exec(ctx.spec.url)?.[0];
  // `http://{{origin}}/x` (or `Host: {{origin}}`) with origin = https://…: the host would be "https".
  const twice = /^[a-z][\w+.-]*:\/\/[a-z][\w+.-]*:\/\//i.test(ctx.spec.url);
  if (bad === undefined && !twice) return;
  const templates = templateExpressions(written).map((expression) => `{{${expression}}}`);
  const where = `${ctx.spec.source.file}:${ctx.spec.source.line}: the URL of request "${ctx.spec.name}" would`;
  const from = templates.length > 0 ? `, from ${templates.join(', ')}` : '';
  if (twice) throw new VariableError(`${where} start with two schemes${from}`, { hint: 'the variable holds a whole origin (https://…): put it first on the request line, e.g. GET {{origin}}/path' });
  throw new VariableError(`${where} contain a control character (U+${(bad?.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')})${from}`, {
    hint: 'encode it in the value (%09 for a tab), or check where the variable comes from (a file read with its trailing newline?)',
  });
}

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
function substitutePlain(ctx: RequestContext): void {
  const { spec } = ctx;
  const headers = mergeHeaders(ctx.profile.headers, spec.headers);
  // Each request its own lines, as resolving makes them.
  for (const name in headers) if (typeof headers[name] !== 'string') headers[name] = [...(headers[name] as string[])];
  spec.headers = headers;
  const written = spec.url;
  spec.url = withDefaultScheme(written);
  checkPort(ctx, written);
  checkTarget(ctx, written);
  delete spec.bodyParts;
  ctx.tls = ctx.options.insecure ? { insecureSkipVerify: true } : {};
}

/** Profile headers, then `{{...}}` in the URL, headers, body and TLS settings. */
async function substitute(ctx: RequestContext): Promise<void> {
  const { spec, variables } = ctx;
  const headers = mergeHeaders(ctx.profile.headers, spec.headers);
  spec.headers = {};
  for (const [name, value] of Object.entries(headers)) {
    const lines: string[] = [];
    for (const line of fieldLines(value)) lines.push(checkHeaderValue(ctx, name, line, await variables.expand(line)));
    spec.headers[await variables.expand(name)] = typeof value === 'string' ? lines[0]! : lines;
  }
  // `{{host}}/x` with host = localhost:8080: http://, as for a URL written without a scheme.
  const written = spec.url;
  spec.url = withDefaultScheme(await variables.expand(written));
  checkPort(ctx, written);
  checkTarget(ctx, written);
  if (spec.bodyParts) {
    const pieces = await resolveBodyPieces(spec.bodyParts, spec, ctx.baseDir, variables);
    spec.body = Buffer.concat(pieces.map((piece) => piece.bytes));
    ctx.bodyPieces = { body: spec.body, pieces };
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
