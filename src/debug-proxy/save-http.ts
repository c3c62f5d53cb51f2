/**
 * `reqflow proxy --save DIR`: each captured request as a runnable `.http` file of its own —
 * written by the importers' renderer (`src/import/render-http.ts`: a body the dialect cannot
 * hold as written goes to a file beside it), with every credential (secret-named headers, query
 * parameters and body fields, and the values those carried wherever else they appear) replaced
 * by a `{{variable}}` whose value is written nowhere. Files are numbered and never overwrite one
 * that exists.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createFileAtomic } from '../core/atomic-write.js';
import { fieldLines } from '../core/headers.js';
import { maskSecretFields } from '../core/mask-fields.js';
import { HISTORY_BODY_LIMIT, type RecordedExchange } from '../history/entry.js';
import type { ImportedBody, ImportedRequest } from '../import/model.js';
import { slug } from '../import/names.js';
import { renderHttpFile } from '../import/render-http.js';
import { headerValue, urlWithoutSecrets } from '../import/secrets.js';
import { camelName, ImportVariables } from '../import/variables.js';
import { utf8Text } from '../report/outgoing-request.js';

/** Set by the client for each request (reqflow adds its own), or by the proxy. */
const LEFT_OUT = new Set(['host', 'content-length', 'via']);

/** Every occurrence of a value taken out (a token echoed in a body, a cookie in another header), as its variable. */
function withoutValues(text: string, taken: ReadonlyMap<string, string>): string {
  let result = text;
  for (const [value, name] of taken) if (value.length >= 4 && result.includes(value)) result = result.split(value).join(`{{${name}}}`);
  return result;
}

/** `http://user:pass@host/` with the password as a variable: a password in the URL is a credential like any other. */
function withoutUrlPassword(url: string, secret: (base: string, value: string) => string): string {
  const { protocol, username, password } = new URL(url);
  const written = `${protocol}//${username}:${password}@`;
  if (password === '' || !url.startsWith(written)) return url;
  return `${protocol}//${username}:{{${secret('password', password)}}}@${url.slice(written.length)}`;
}

/** The request of one exchange, credentials as variables (`taken`: value → variable, filled here). */
function capturedRequest(exchange: RecordedExchange, variables: ImportVariables, bodyFile: string): { request: ImportedRequest; binary?: Buffer } {
  const taken = new Map<string, string>();
  const secret = (base: string, value: string): string => {
    const name = variables.secret(base, value);
    taken.set(value, name);
    return name;
  };
  const tracking = { secret } as ImportVariables; // the secrets helpers only call secret()
  const headers: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(exchange.requestHeaders)) {
    if (LEFT_OUT.has(name.toLowerCase())) continue;
    for (const line of fieldLines(value)) headers.push([name, headerValue(name, line, tracking)]);
  }
  const url = urlWithoutSecrets(withoutUrlPassword(exchange.url, secret), tracking);
  const comments = [`captured by reqflow proxy ${new Date(exchange.startedAt).toISOString()}${exchange.response ? `: ${exchange.response.status} ${exchange.response.statusText}` : ''}`];
  let body: ImportedBody | undefined;
  let binary: Buffer | undefined;
  const bytes = exchange.requestBody === undefined ? undefined : Buffer.from(exchange.requestBody);
  if (bytes !== undefined && bytes.length > 0) {
    const text = utf8Text(bytes);
    if (text === undefined || text.includes('\u0000')) {
      binary = bytes;
      body = { kind: 'file', path: bodyFile };
    } else {
      const fields = maskSecretFields(text, (name, value) => `{{${secret(camelName(name), value)}}}`);
      const templated = withoutValues(fields, taken);
      // Variables in it: a template (`<@` or inline); else the bytes exactly as they were sent.
      body = { kind: 'text', text: templated, exact: templated === text };
    }
    if (exchange.requestSize > HISTORY_BODY_LIMIT) comments.push(`the body was ${exchange.requestSize} bytes: only its first ${HISTORY_BODY_LIMIT} are kept here`);
  }
  const request: ImportedRequest = {
    name: slug(`${exchange.method} ${new URL(exchange.url).pathname.split('/').filter(Boolean).at(-1) ?? 'root'}`, 'request'),
    comments,
    annotations: [],
    method: exchange.method,
    url: withoutValues(url, taken),
    headers: headers.map(([name, value]) => [name, withoutValues(value, taken)]),
    ...(body ? { body } : {}),
  };
  return binary ? { request, binary } : { request };
}

/**
 * Writes the exchange's request under `dir` as `NNNN-method-host-path.http` (the next free
 * number from `counter`); returns the file's path.
 */
export async function saveExchange(dir: string, exchange: RecordedExchange, counter: { next: number }): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const url = new URL(exchange.url);
  const stemOf = (n: number): string => `${String(n).padStart(4, '0')}-${slug(`${exchange.method} ${url.host} ${url.pathname}`, 'request').slice(0, 60)}`;
  for (;;) {
    const stem = stemOf(counter.next++);
    if (existsSync(join(dir, `${stem}.http`)) || existsSync(join(dir, `${stem}.bodies`))) continue;
    const variables = new ImportVariables();
    const { request, binary } = capturedRequest(exchange, variables, join(dir, `${stem}.bodies`, 'body.bin'));
    const needed = Object.keys(variables.split().secret);
    const header: string[] = [];
    if (needed.length > 0) header.push(`credentials were taken out: give ${needed.map((name) => `-e ${name}=…`).join(' ')} (or define them in a profile or an environment file)`);
    const [http, ...bodies] = renderHttpFile({ path: `${stem}.http`, header, requests: [request] }, dir);
    if (binary || bodies.length > 0) mkdirSync(join(dir, `${stem}.bodies`), { recursive: true });
    if (binary) writeFileSync(join(dir, `${stem}.bodies`, 'body.bin'), binary, { flag: 'wx' });
    for (const body of bodies) writeFileSync(join(dir, body.path), body.content, { flag: 'wx' });
    if (http && (await createFileAtomic(join(dir, http.path), http.content, { mode: 0o644, dirMode: 0o755 }))) return join(dir, http.path);
  }
}
