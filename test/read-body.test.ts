/**
 * readWholeBody: a body whose length the server announced is copied into one buffer as it
 * arrives (never the chunks and their joined copy at once); whatever the announcement says,
 * the bytes returned are the bytes received.
 */
import { expect, test } from '@jest/globals';
import { PassThrough } from 'node:stream';
import { readWholeBody } from '../src/core/read-body.js';
import type { ResponseInfo } from '../src/core/model.js';

function response(headers: Record<string, string>, chunks: string[], status = 200): ResponseInfo {
  const stream = new PassThrough();
  setImmediate(() => {
    for (const chunk of chunks) stream.write(Buffer.from(chunk));
    stream.end();
  });
  return { status, statusText: 'OK', httpVersion: '1.1', headers, durationMs: 1, stream } as unknown as ResponseInfo;
}

test.each([
  ['as announced', { 'content-length': '11' }, ['hello', ' ', 'world'], 'hello world'],
  ['fewer bytes than announced', { 'content-length': '20' }, ['hello', ' world'], 'hello world'],
  ['more bytes than announced', { 'content-length': '4' }, ['hel', 'lo', ' world'], 'hello world'],
  ['no length', {}, ['a', 'b', 'c'], 'abc'],
  ['a content coding (the length is of other bytes)', { 'content-length': '3', 'content-encoding': 'gzip' }, ['decoded text'], 'decoded text'],
  ['a length past --max-size is not allocated', { 'content-length': String(10 * 1024 * 1024 * 1024) }, ['small'], 'small'],
])('%s: the bytes received', async (_what, headers, chunks, expected) => {
  const info = response(headers, chunks);
  const body = await readWholeBody(info, 1024 * 1024);
  expect(body.toString('utf8')).toBe(expected);
  expect(await readWholeBody(info, 1024 * 1024)).toBe(body); // once: later calls get the same buffer
});

test('more than --max-size is a clear error, announced or not', async () => {
  await expect(readWholeBody(response({ 'content-length': '8' }, ['12345678']), 4)).rejects.toThrow('response is larger than --max-size (4 bytes)');
  await expect(readWholeBody(response({}, ['123', '456']), 4)).rejects.toThrow('response is larger than --max-size (4 bytes)');
});
