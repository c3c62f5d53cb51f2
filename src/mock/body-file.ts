/**
 * A route's `bodyFile`, sent as a stream: read at each request (an edit shows without a
 * reload), never whole into memory — a hundred clients asking for a 50 MB file at once cost
 * socket buffers, not 5 GB — and only while it is still a file inside the mock file's folder
 * (it may have become a link to `/etc/passwd`, or a device, since it was loaded).
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { isInside, real } from '../core/project.js';

const FILE_TYPES: Record<string, string> = { '.json': 'application/json', '.txt': 'text/plain; charset=utf-8', '.html': 'text/html; charset=utf-8', '.xml': 'application/xml', '.csv': 'text/csv; charset=utf-8', '.yaml': 'application/yaml', '.yml': 'application/yaml' };

/** The real path of a `bodyFile` when it leads inside `folder` (a real path), else undefined. */
export function bodyFileInside(folder: string, file: string): string | undefined {
  const path = real(file);
  return isInside(folder, path) ? path : undefined;
}

/**
 * Answers with the file: `writeHead(headers)` gets the defaults (`Content-Type` from the
 * extension, `Content-Length` from its size) to merge with the route's own; a HEAD gets no body.
 */
export async function sendBodyFile(res: ServerResponse, file: string, folder: string, head: boolean, writeHead: (defaults: { type: string; length: number }) => void): Promise<void> {
  const path = bodyFileInside(folder, file);
  if (path === undefined) throw new Error(`bodyFile ${file} now leads outside the mock file's folder (${folder})`);
  // Non-blocking: opening a named pipe put in its place would wait for a writer, holding one of
  // the few threads every file read of the mock shares. Anything but a file is refused below.
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new Error(`bodyFile ${file} is no longer a file`);
    writeHead({ type: FILE_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream', length: stat.size });
    if (head) return void res.end();
    await pipeline(handle.createReadStream({ autoClose: false }), res);
  } finally {
    await handle.close();
  }
}
