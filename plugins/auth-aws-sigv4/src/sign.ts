import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  /** Temporary credentials (STS) come with one; it is sent as `X-Amz-Security-Token`. */
  sessionToken?: string;
}

/** The request as it will go on the wire. */
export interface SignableRequest {
  method: string;
  url: string;
  /** A header written on several lines is an array of its lines. */
  headers: Record<string, string | string[]>;
  body?: string | Buffer;
}

export interface SigningScope {
  credentials: AwsCredentials;
  region: string;
  service: string;
  /** Signing time; now when absent. */
  date?: Date;
}

type SourceData = string | ArrayBuffer | ArrayBufferView;

function toBytes(data: SourceData): Buffer | string {
  if (typeof data === 'string') return data;
  return ArrayBuffer.isView(data) ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : Buffer.from(data);
}

/** SHA-256, or HMAC-SHA-256 when given a key: the hash the signer needs, from node:crypto. */
class Sha256 {
  private readonly hash: Hash | Hmac;
  constructor(secret?: SourceData) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', toBytes(secret));
  }
  update(data: SourceData): void {
    this.hash.update(toBytes(data));
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(this.hash.digest());
  }
}

/** RFC 3986 encoding, as SigV4 wants it (`!'()*` too). */
function escape(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // a stray % is sent as is, so it is signed as is
  }
}

/**
 * The query string as name → value(s), decoded the way SigV4 decodes it: `%XX` only (a `+`
 * stays a plus, unlike form decoding), repeated names kept in order.
 */
export function parseQuery(search: string): Record<string, string | string[]> {
  // No prototype: a parameter may be called `toString` or `__proto__`.
  const query: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const pair of search.replace(/^\?/, '').split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decode(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decode(pair.slice(eq + 1));
    const seen = query[name];
    query[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return query;
}

/** S3 signs the path encoded once, segment by segment; every other service lets the signer encode it again. */
function canonicalPath(pathname: string, service: string): string {
  return service === 's3' ? pathname.split('/').map((segment) => escape(decode(segment))).join('/') : pathname;
}

/** `x-amz-date` → `X-Amz-Date`: the usual spelling, for `-v` output. */
function displayName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}

/** `20150830T123600Z` → a Date, or undefined when the text is not in that form. */
export function parseAmzDate(text: string): Date | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text.trim());
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  return new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!, s!));
}

/**
 * Signs a request with AWS Signature Version 4 (`@smithy/signature-v4`, the signer of the AWS
 * SDK) and returns the headers to add: `Host` (when absent), `X-Amz-Date`, `Authorization`,
 * `X-Amz-Security-Token` with temporary credentials, and `X-Amz-Content-Sha256` for S3.
 */
export async function sigV4Headers(request: SignableRequest, scope: SigningScope): Promise<Record<string, string>> {
  // Imported here, not at the top: a run that signs nothing never pays for loading the signer.
  const { SignatureV4 } = await import('@smithy/signature-v4');
  const url = new URL(request.url);
  const s3 = scope.service === 's3';
  const signer = new SignatureV4({ credentials: scope.credentials, region: scope.region, service: scope.service, sha256: Sha256, uriEscapePath: !s3, applyChecksum: s3 });
  // SigV4 signs a header sent on several lines as its values joined by commas.
  const written: Record<string, string> = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(',') : value]));
  const headers = { ...written };
  if (!Object.keys(headers).some((name) => name.toLowerCase() === 'host')) headers.host = url.host;
  const signed = await signer.sign(
    {
      method: request.method.toUpperCase(),
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port ? { port: Number(url.port) } : {}),
      path: canonicalPath(url.pathname, scope.service),
      query: parseQuery(url.search),
      headers,
      ...(request.body !== undefined ? { body: request.body } : {}),
    },
    scope.date ? { signingDate: scope.date } : {},
  );
  const added: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers)) if (written[name] !== value) added[displayName(name)] = value;
  return added;
}
