/**
 * The worker thread a run's request-file scripts execute in (sandbox-worker.ts), started on the
 * first script and kept for the run: its heap is limited, so a script that allocates without
 * end ends with a failure naming the limit instead of taking reqflow's memory (and the machine's)
 * with it. The vm sandboxes themselves (sandbox.ts) live in the worker; their bridge calls come
 * back here on a port and are answered at once, while the worker sleeps on a shared flag.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { MessagePort, Worker } from 'node:worker_threads';
import { lazyBuiltin } from '../core/lazy-builtin.js';
import type { Bridge, Sandbox, ScriptFailure } from './sandbox.js';
import type { TrustedScript } from './trusted-globals.js';
import { type BridgeCall, SCRIPT_MEMORY_MB, type ScriptLanguage, type WorkerCall, type WorkerReply, type WorkerRequest } from './worker-protocol.js';

/** How long past its own time limit a script may keep the worker before it is stopped from here. */
export const GRACE_MS = 2000;

export interface IsolatedSandbox extends Sandbox {
  /** Frees the sandbox in the worker (its context, its bridge). */
  dispose(): void;
}

interface Running {
  worker: Worker;
  port: MessagePort;
  bridges: Map<number, Bridge>;
  pending: Map<number, (reply: WorkerReply) => void>;
}

/** The worker's compiled file: beside this one in dist/ (and the bundle's dist/bundle/), else the build's. */
function workerUrl(): URL {
  const beside = new URL('../scripts/sandbox-worker.js', import.meta.url);
  return existsSync(fileURLToPath(beside)) ? beside : new URL('../../dist/scripts/sandbox-worker.js', import.meta.url);
}

export class ScriptWorker {
  private running: Running | undefined;
  private seq = 0;
  private ids = 0;

  /**
   * `bootstrap`: the API's code, in the sandbox's language (JavaScript unless `language` says Lua).
   * `trusted`: the script of a trusted project, given Node's `require` (trusted-globals.ts).
   */
  createSandbox(bootstrap: string, bridge: Bridge, data: string, timeoutMs: number, { language = 'javascript', trusted }: { language?: ScriptLanguage; trusted?: TrustedScript } = {}): IsolatedSandbox {
    const id = ++this.ids;
    const running = this.start();
    running.bridges.set(id, bridge);
    const created = this.call(running, { type: 'create', id, bootstrap, data, timeoutMs, ...(language === 'lua' ? { language } : {}), ...(trusted ? { trusted } : {}) }, timeoutMs);
    const alive = async (): Promise<ScriptFailure | undefined> => (await created).failure ?? (this.running === running ? undefined : { message: 'the script sandbox stopped' });
    return {
      run: async (code, filename, options) => (await alive()) ?? (await this.call(running, { type: 'run', id, code, filename, ...(options?.marks === false ? { marks: false as const } : {}) }, timeoutMs)).failure,
      evaluate: async (code, filename) => {
        const dead = await alive();
        if (dead) return { failure: dead };
        const reply = await this.call(running, { type: 'evaluate', id, code, filename }, timeoutMs);
        return reply.failure ? { failure: reply.failure } : reply.json !== undefined ? { json: reply.json } : {};
      },
      dispose: () => {
        running.bridges.delete(id);
        if (this.running === running) running.worker.postMessage({ type: 'dispose', id, seq: 0 } satisfies WorkerRequest);
      },
    };
  }

  /**
   * Starts the worker ahead of its first script, so that its start-up (~100 ms) overlaps the
   * requests before it instead of being added to the first request with a handler.
   */
  warm(): void {
    this.start();
  }

  /** Stops the worker (a run that ends does not need to: an idle worker never holds the process). */
  close(): void {
    const running = this.running;
    this.running = undefined;
    if (running) void running.worker.terminate();
  }

  private start(): Running {
    if (this.running) return this.running;
    const { Worker: WorkerThread, MessageChannel } = lazyBuiltin<typeof import('node:worker_threads')>('node:worker_threads');
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const { port1, port2 } = new MessageChannel();
    const worker = new WorkerThread(workerUrl(), {
      workerData: { port: port2, flag },
      transferList: [port2],
      resourceLimits: { maxOldGenerationSizeMb: SCRIPT_MEMORY_MB, maxYoungGenerationSizeMb: 16 },
    });
    const running: Running = { worker, port: port1, bridges: new Map(), pending: new Map() };
    port1.on('message', (call: BridgeCall) => {
      const bridge = running.bridges.get(call.id);
      let value: ReturnType<Bridge>;
      try {
        value = bridge ? bridge(call.op, call.args) : '\u0000error:the script has ended';
      } catch (error) {
        value = `\u0000error:${error instanceof Error ? error.message : String(error)}`;
      }
      port1.postMessage(value);
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
    });
    worker.on('message', (reply: WorkerReply) => {
      running.pending.get(reply.seq)?.(reply);
    });
    const stopped = (why: string): void => {
      if (this.running === running) this.running = undefined;
      for (const settle of [...running.pending.values()]) settle({ seq: 0, failure: { message: why } });
      port1.close();
    };
    worker.on('error', (error: NodeJS.ErrnoException) => stopped(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `used more than ${SCRIPT_MEMORY_MB} MB of memory` : `the script sandbox stopped: ${error.message}`));
    worker.on('exit', () => stopped('the script sandbox stopped'));
    // Idle, the worker and its port never keep the process alive; a call under way does.
    worker.unref();
    port1.unref();
    this.running = running;
    return running;
  }

  private call(running: Running, request: WorkerCall, timeoutMs: number): Promise<WorkerReply> {
    const seq = ++this.seq;
    return new Promise((resolve) => {
      if (this.running !== running) return resolve({ seq, failure: { message: 'the script sandbox stopped' } });
      // A script blocked where its own time limit cannot reach it is stopped from here.
      const timer = setTimeout(() => {
        settle({ seq, failure: { message: `did not finish within ${timeoutMs} ms`, timedOut: true } });
        this.close();
      }, timeoutMs + GRACE_MS);
      const settle = (reply: WorkerReply): void => {
        clearTimeout(timer);
        running.pending.delete(seq);
        if (running.pending.size === 0) running.worker.unref();
        resolve(reply);
      };
      running.pending.set(seq, settle);
      running.worker.ref();
      running.worker.postMessage({ ...request, seq } satisfies WorkerRequest);
    });
  }
}
