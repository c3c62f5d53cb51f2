/**
 * `reqflow import har FILE`: the requests of an HTTP Archive (HAR 1.2, as Chromium and Firefox
 * save it) in the order they were made. What the browser's HTTP stack adds on its own —
 * HTTP/2 pseudo-headers, `Content-Length`, `Host`, hop-by-hop headers — is not written: reqflow
 * adds what the request needs. Cookies only with `--cookies`, as secrets.
 */
import { isUtf8 } from 'node:buffer';
import { basename, extname } from 'node:path';
import type { Entry, Header, Har } from 'har-format';
import { UsageError } from '../../core/errors/index.js';
import { maskUrl } from '../../core/mask.js';
import { formBody, MULTIPART_BOUNDARY } from '../form.js';
import type { ImportedBody, ImportedFile, ImportedRequest, Imported, ImportOptions } from '../model.js';
import { checkShape, type Shape } from '../document-shape.js';
import { slug, UniqueNames } from '../names.js';
import { literalText } from '../http-text.js';
import { headerValue, urlWithoutSecrets } from '../secrets.js';
import { asRecord, readJsonSource } from '../source.js';
import { ImportVariables } from '../variables.js';

/** Computed by the client, or meaningful only to one connection. */
const DROPPED = new Set(['content-length', 'host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te']);

/** The HAR 1.2 fields reqflow reads, checked once where the document enters. */
const HAR: Shape = {
  fields: {
    log: {
      fields: {
        entries: {
          list: {
            fields: {
              startedDateTime: 'text',
              request: {
                fields: {
                  method: 'text',
                  url: 'text',
                  headers: { list: { fields: { name: 'text', value: 'text' }, required: ['name', 'value'] } },
                  postData: {
                    fields: {
                      mimeType: 'text',
                      text: 'text',
                      encoding: 'text',
                      params: { list: { fields: { name: 'text', value: 'text', fileName: 'text', contentType: 'text' }, required: ['name'] } },
                    },
                  },
                },
                required: ['method', 'url', 'headers'],
              },
              response: { fields: { status: 'number', statusText: 'text' } },
            },
            required: ['request'],
          },
        },
      },
      required: ['entries'],
    },
  },
  required: ['log'],
};

function checkHar(value: unknown, source: string): Har {
  const log = asRecord(asRecord(value)?.log);
  if (!log || !Array.isArray(log.entries)) throw new UsageError(`${source}: not a HAR file (no log.entries)`, { hint: "save it from the browser's network panel: Save all as HAR" });
  return checkShape<Har>(value, HAR, source, "a HAR file has that there: save it again from the browser's network panel (Save all as HAR)");
}

function requestName(method: string, url: URL): string {
  return slug(`${method} ${url.pathname.split('/').filter(Boolean).at(-1) ?? url.hostname}`, method.toLowerCase());
}

function bodyOf(entry: Entry, headers: Array<[string, string]>, warn: (message: string) => void): ImportedBody | undefined {
  const post = entry.request.postData;
  if (!post) return undefined;
  if (typeof post.text === 'string') {
    // Some tools save a binary body base64-encoded, saying so in `encoding` (as HAR does for responses).
    if ((post as { encoding?: unknown }).encoding !== 'base64') return { kind: 'text', text: post.text, exact: true };
    const bytes = Buffer.from(post.text, 'base64');
    return isUtf8(bytes) ? { kind: 'text', text: bytes.toString('utf8'), exact: true } : { kind: 'bytes', bytes };
  }
  const params = post.params ?? [];
  // A HAR keeps a file field's name, never its content: what is sent is the value it holds.
  for (const param of params) if (param.fileName !== undefined) warn(`${entry.request.method} ${maskUrl(entry.request.url.slice(0, 200))}: the form field "${param.name}" was the file "${param.fileName}", whose content a HAR does not keep: it is sent with the value the HAR holds`);
  if (/multipart\/form-data/i.test(post.mimeType)) {
    const type = headers.find(([n]) => n.toLowerCase() === 'content-type');
    if (type) type[1] = `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`;
    return { kind: 'multipart', boundary: MULTIPART_BOUNDARY, exact: true, parts: params.map((p) => ({ name: p.name, ...(p.fileName ? { filename: p.fileName } : {}), ...(p.contentType ? { contentType: p.contentType } : {}), value: { text: p.value ?? '' } })) };
  }
  return { kind: 'text', text: formBody(params.map((p) => [p.name, p.value ?? ''])), exact: true };
}

export async function importHar(source: string, options: ImportOptions): Promise<Imported> {
  const har = checkHar(await readJsonSource(source, 'a HAR file', options), source);
  const variables = new ImportVariables();
  const stem = slug(basename(source, extname(source)), 'har');
  const files = new Map<string, ImportedFile & { names: UniqueNames }>();
  let skipped = 0;
  let cookies = 0;
  for (const entry of har.log.entries) {
    let url: URL;
    try {
      url = new URL(entry.request.url);
    } catch {
      url = new URL('invalid:');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      skipped++;
      continue;
    }
    const headers: Array<[string, string]> = [];
    for (const header of entry.request.headers as Header[]) {
      const lower = header.name.toLowerCase();
      if (lower.startsWith(':') || DROPPED.has(lower)) continue;
      if (lower === 'cookie' && !options.cookies) {
        cookies++;
        continue;
      }
      // A HAR holds the bytes sent: a `{{` in them is no template.
      headers.push([header.name, literalText(header.value)]);
    }
    const post = entry.request.postData;
    if (post?.mimeType && !headers.some(([n]) => n.toLowerCase() === 'content-type')) headers.push(['Content-Type', post.mimeType]);
    const body = bodyOf(entry, headers, options.warn);
    const path = options.perHost ? `${slug(url.host, 'host')}.http` : `${stem}.http`;
    let file = files.get(path);
    if (!file) {
      file = { path, header: [`${options.perHost ? `${url.host}: ` : ''}imported by reqflow import har from ${basename(source)}.`], requests: [], names: new UniqueNames() };
      files.set(path, file);
    }
    const method = entry.request.method.toUpperCase();
    const status = entry.response?.status;
    const request: ImportedRequest = {
      name: file.names.take(requestName(method, url)),
      comments: [`recorded ${entry.startedDateTime ?? ''}${status ? `: ${status} ${entry.response.statusText ?? ''}` : ''}`.trim()],
      annotations: [],
      method,
      // The fragment is never sent.
      url: urlWithoutSecrets(literalText(entry.request.url.replace(/#.*$/s, '')), variables),
      headers: headers.map(([n, v]): [string, string] => [n, headerValue(n, v, variables)]),
      ...(body ? { body } : {}),
    };
    file.requests.push(request);
  }
  if (skipped > 0) options.warn(`${skipped} ${skipped === 1 ? 'entry is' : 'entries are'} not http(s) (data:, blob:, extensions): not imported`);
  if (cookies > 0) options.warn(`the Cookie headers of ${cookies} ${cookies === 1 ? 'request were' : 'requests were'} left out: pass --cookies to keep them (as secrets in http-client.private.env.json)`);
  if (files.size === 0) throw new UsageError(`${source}: no http(s) requests to import`);
  return { files: [...files.values()].map(({ names: _names, ...file }) => file), variables, envName: options.envName ?? 'dev', extraFiles: [] };
}
