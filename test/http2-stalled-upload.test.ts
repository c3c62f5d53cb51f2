/**
 * An HTTP/2 server that stops reading a large upload. reqflow's time-out ends the request, but
 * Node's session closes its socket only once what the socket is writing has gone: the run once
 * printed its time-out (exit 4) and then stayed alive, holding the connection and the body's
 * bytes, until the server let go — which a hostile server never does. Raw servers here, h2c and
 * TLS, that open their windows wide, read 256 KiB and then nothing more; they write a PING
 * now and then, so that they see the client let go (a write to a closed connection fails) though
 * they read nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { makeCerts, type TestCerts } from './helpers/certs.js';
import { BIN, runCli, tempDir } from './helpers/cli.js';
import { h2Frame as frame } from './helpers/h2-frame.js';
import { isolatedEnv, sendRequest, startHarness } from './helpers/tui-harness.js';


/** SETTINGS_INITIAL_WINDOW_SIZE and the connection's window at their largest, then the ACK of the client's SETTINGS. */
function wideOpen(): Buffer {
  const settings = Buffer.alloc(6);
  settings.writeUInt16BE(4, 0);
  settings.writeUInt32BE(0x7fffffff, 2);
  const wider = Buffer.alloc(4);
  wider.writeUInt32BE(0x7fffffff - 65_535, 0);
  return Buffer.concat([frame(4, 0, 0, settings), frame(8, 0, 0, wider), frame(4, 1, 0, Buffer.alloc(0))]);
}

/** Larger than what the kernel's buffers on both sides take: the rest waits in reqflow's socket. */
const UPLOAD_BYTES = 32 * 1024 * 1024;
/** What the server reads before it stops. */
const READ_BEFORE_STOPPING = 256 * 1024;

interface DeafServer {
  port: number;
  /** Resolves when the client closed a connection (the server itself never does, until the end). */
  clientLetGo: Promise<void>;
  /** Resolves when the server stopped reading, the request's body under way. */
  uploading: Promise<void>;
}

const servers: Array<Server | HttpServer> = [];
const sockets = new Set<Socket>();
let certs: TestCerts;
const tmp = tempDir('reqflow-h2-stalled-');

const listen = async (server: Server | HttpServer): Promise<number> => {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

async function deafServer(kind: 'h2c' | 'tls'): Promise<DeafServer> {
  let letGo = (): void => undefined;
  const clientLetGo = new Promise<void>((resolve) => (letGo = resolve));
  let started = (): void => undefined;
  const uploading = new Promise<void>((resolve) => (started = resolve));
  const onSocket = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.write(wideOpen());
    // Some of the body is read (the request is under way, its stream sending), then nothing more.
    let read = 0;
    const reading = (chunk: Buffer): void => {
      read += chunk.length;
      if (read < READ_BEFORE_STOPPING) return;
      socket.pause();
      socket.removeListener('data', reading);
      started();
    };
    socket.on('data', reading);
    const ping = setInterval(() => socket.write(frame(6, 0, 0, Buffer.alloc(8))), 200);
    socket.once('close', () => {
      clearInterval(ping);
      sockets.delete(socket);
      letGo();
    });
  };
  const server =
    kind === 'tls'
      ? createTlsServer({ cert: readFileSync(certs.server.cert), key: readFileSync(certs.server.key), ALPNProtocols: ['h2'] }, onSocket)
      : createServer(onSocket);
  return { port: await listen(server), clientLetGo, uploading };
}

beforeAll(() => {
  certs = makeCerts();
  tmp.write('upload.bin', Buffer.alloc(UPLOAD_BYTES, 0x61));
  tmp.write('.profiles.json', JSON.stringify({ profiles: [{ name: 'default', tls: { caFile: certs.ca.cert } }] }));
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  certs.cleanup();
  tmp.cleanup();
});

const upload = (name: string, url: string): string =>
  tmp.write(`${name}.http`, `### ${name}\nPOST ${url}/up HTTP/2\nContent-Type: application/octet-stream\n\n< ./upload.bin\n`);

describe('a server that stops reading an upload', () => {
  test.each(['h2c', 'tls'] as const)('%s: reqflow run times out (exit 4), exits on its own and closes the connection the server still holds', async (kind) => {
    const deaf = await deafServer(kind);
    const url = `${kind === 'tls' ? 'https' : 'http'}://127.0.0.1:${deaf.port}`;
    const file = upload(`run-${kind}`, url);
    // Without the fix the run never ends while the server holds on: killed at 20 s.
    const result = await runCli(['run', file, '--timeout', '1000'], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') }, timeoutMs: 20_000 });
    expect(result.signal).toBeNull();
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(`POST ${url}/up timed out after 1000 ms`);
    expect(result.stderr).not.toMatch(/protocol error|\n\s+at /);
    await deaf.clientLetGo;
  }, 40_000);

  test('Ctrl-C during the upload: reqflow run exits 130 on its own', async () => {
    const deaf = await deafServer('h2c');
    const url = `http://127.0.0.1:${deaf.port}`;
    const file = upload('cancel', url);
    const child = spawn(process.execPath, [BIN, 'run', file, '--timeout', '60000'], { cwd: tmp.dir, env: { PATH: process.env.PATH, HOME: tmp.dir, NO_COLOR: '1', REQFLOW_STATE_DIR: join(tmp.dir, 'state') }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('close', (code, signal) => resolve([code, signal])));
    // Without the fix the run never ends while the server holds on: killed at 20 s.
    const bound = setTimeout(() => child.kill('SIGKILL'), 20_000);
    try {
      await deaf.uploading;
      // A moment for the body to fill the buffers on both sides (milliseconds at loopback speed): the socket is then still writing.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      child.kill('SIGINT');
      const [code, signal] = await exited;
      expect(signal).toBeNull();
      expect(code).toBe(130);
      expect(stderr).toContain(`POST ${url}/up was cancelled`);
      await deaf.clientLetGo;
    } finally {
      clearTimeout(bound);
    }
  }, 40_000);

  test('reqflow test --jobs 4: the connection is let go at the time-out, while the run goes on', async () => {
    const deaf = await deafServer('h2c');
    let heldReleased = false;
    const waiting: Array<() => void> = [];
    const release = (): void => {
      heldReleased = true;
      for (const answer of waiting.splice(0)) answer();
    };
    const held = createHttpServer((req, res) => {
      const answer = (): void => void res.end(`held ${req.url ?? ''}`);
      if (heldReleased) answer();
      else waiting.push(answer);
    });
    const heldPort = await listen(held);
    // The other files' requests are answered once the deaf server's connection is let go (or, without the fix, at 20 s).
    let letGoWhileRunning: boolean | undefined;
    void deaf.clientLetGo.then(() => {
      letGoWhileRunning ??= !heldReleased;
      release();
    });
    const fallback = setTimeout(release, 20_000);
    const dir = tempDir('reqflow-h2-stalled-jobs-');
    try {
      dir.write('upload.bin', Buffer.alloc(UPLOAD_BYTES, 0x61));
      dir.write('a-upload.http', `### upload\n# @timeout 1000 ms\nPOST http://127.0.0.1:${deaf.port}/up HTTP/2\nContent-Type: application/octet-stream\n\n< ./upload.bin\n`);
      for (const n of [1, 2, 3]) dir.write(`held-${n}.http`, `### held ${n}\nGET http://127.0.0.1:${heldPort}/held-${n}\n\n?? status == 200\n`);
      const result = await runCli(['test', dir.dir, '--jobs', '4', '--timeout', '60000'], { cwd: dir.dir, env: { REQFLOW_STATE_DIR: join(dir.dir, 'state') }, timeoutMs: 45_000 });
      const output = result.stdout + result.stderr;
      expect(result.signal).toBeNull();
      expect(result.code).toBe(4);
      expect(output).toMatch(/ERROR .*upload/);
      expect(output).toContain(`POST http://127.0.0.1:${deaf.port}/up timed out after 1000 ms`);
      for (const n of [1, 2, 3]) expect(output).toMatch(new RegExp(`PASS .*held-${n}\\.http`));
      // The stalled connection was closed by reqflow while its other requests were still waiting.
      expect(letGoWhileRunning).toBe(true);
    } finally {
      clearTimeout(fallback);
      release();
      dir.cleanup();
    }
  }, 60_000);

  test('the UI: the connection is let go at the time-out, while the UI stays open', async () => {
    const deaf = await deafServer('h2c');
    const workspace = tempDir('reqflow-h2-stalled-tui-');
    try {
      workspace.write('upload.bin', Buffer.alloc(UPLOAD_BYTES, 0x61));
      workspace.write('upload.http', `### upload\n# @timeout 1000 ms\nPOST http://127.0.0.1:${deaf.port}/up HTTP/2\nContent-Type: application/octet-stream\n\n< ./upload.bin\n`);
      const h = await startHarness({ dir: workspace.dir, env: isolatedEnv(workspace.dir), columns: 160, rows: 30 });
      try {
        await sendRequest(h, 'upload', 'timed out after 1000 ms');
        // Without the fix the UI holds the connection (and the body's bytes in its socket) for as long as the server likes.
        let bound: NodeJS.Timeout | undefined;
        const outcome = await Promise.race([deaf.clientLetGo.then(() => 'let go'), new Promise((resolve) => (bound = setTimeout(() => resolve('still held'), 15_000)))]);
        clearTimeout(bound);
        expect(outcome).toBe('let go');
      } finally {
        await h.close();
      }
    } finally {
      workspace.cleanup();
    }
  }, 40_000);
});
