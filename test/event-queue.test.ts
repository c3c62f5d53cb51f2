/**
 * A WebSocket server that sends faster than reqflow's output takes it: the queue between the
 * socket and the reporter pauses the socket (TCP back-pressure reaches the server) instead of
 * holding everything, and resumes it once the reader has caught up.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import WebSocket, { WebSocketServer } from 'ws';
import { EventQueue } from '../src/core/event-queue.js';

const MESSAGE = 'x'.repeat(64 * 1024);
const SENT_MB = 64;
let server: WebSocketServer;
let url = '';
/** What the server could not hand to the kernel yet, once it stopped sending. */
let stuckBytes = Promise.resolve(0);

beforeAll(async () => {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  stuckBytes = new Promise((resolve) =>
    server.once('connection', (ws) => {
      for (let i = 0; i < SENT_MB * 16; i++) ws.send(MESSAGE);
      // Give the client time to read what it will read, then see what it left with the server.
      setTimeout(() => resolve(ws.bufferedAmount), 1500);
    }),
  );
  await new Promise<void>((resolve) => server.once('listening', resolve));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const client of server.clients) client.terminate();
  await new Promise((resolve) => server.close(resolve));
});

test('a reader that falls behind pauses the socket; reading on resumes it and nothing is lost', async () => {
  const socket = new WebSocket(url);
  const queue = new EventQueue(socket);
  socket.on('message', (data: Buffer) => queue.push({ data: data.toString('utf8') }));
  socket.on('close', () => queue.end());
  // Nobody reads the queue for now: the server must be left holding most of what it sent.
  expect(await stuckBytes).toBeGreaterThan((SENT_MB / 2) * 1024 * 1024);
  let received = 0;
  for await (const event of queue) {
    received += 1;
    expect(event.data).toBe(MESSAGE);
    if (received === SENT_MB * 16) socket.close();
  }
  expect(received).toBe(SENT_MB * 16);
}, 60_000); // ~3 s here, reading 64 MB CPU-bound: a hang bound, not a measure
