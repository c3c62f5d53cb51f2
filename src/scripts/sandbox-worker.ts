/**
 * The worker thread request-file scripts run in (src/scripts/script-worker.ts starts it): the
 * sandboxes of sandbox.ts live here, under the worker's heap limit, so a script that allocates
 * without end kills this thread, not reqflow. The scripts' bridge reaches the main thread
 * synchronously: a call is posted on `port`, and this thread sleeps on a shared flag until the
 * answer is there to take (`receiveMessageOnPort`).
 */
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import type { LuaFactory } from 'wasmoon';
import { type Bridge, createSandbox, type Sandbox } from './sandbox.js';
import { cutPrinted, printedBudget } from './printed-limit.js';
import { trustedGlobals } from './trusted-globals.js';
import { SCRIPT_MEMORY_MB, type WorkerCall, type WorkerReply, type WorkerRequest } from './worker-protocol.js';

interface Setup {
  port: MessagePort;
  flag: Int32Array;
}

function serve({ port, flag }: Setup): void {
  const sandboxes = new Map<number, Sandbox & { dispose?(): void }>();
  // Lua (rest.nvim's scripts): the engine's module is loaded and compiled with the first Lua script.
  let lua: Promise<{ factory: LuaFactory; create: typeof import('./lua/lua-sandbox.js').createLuaSandbox }> | undefined;
  const createLua = async ({ id, bootstrap, data, timeoutMs }: Extract<WorkerCall, { type: 'create' }>): Promise<Sandbox> => {
    lua ??= import('./lua/lua-sandbox.js').then(async ({ loadLuaFactory, createLuaSandbox }) => ({ create: createLuaSandbox, factory: await loadLuaFactory() }));
    const { create, factory } = await lua;
    return create(factory, bootstrap, bridgeOf(id), data, timeoutMs, SCRIPT_MEMORY_MB);
  };
  const bridgeOf = (id: number): Bridge => {
    const printed = printedBudget();
    return (op, written) => {
      const args = printed(op, written);
      if (args === undefined) return undefined; // a log line past the script's total
      Atomics.store(flag, 0, 0);
      port.postMessage({ id, op, args });
      Atomics.wait(flag, 0, 0);
      return receiveMessageOnPort(port)?.message as ReturnType<Bridge>;
    };
  };
  // A script's error is printed too: cut before it is posted, as its log lines are.
  const reply = (message: WorkerReply): void => parentPort?.postMessage(message.failure ? { ...message, failure: { ...message.failure, message: cutPrinted(message.failure.message) } } : message);
  parentPort?.on('message', (request: WorkerRequest) => {
    const { seq, id } = request;
    void (async () => {
      switch (request.type) {
        case 'create':
          if (request.language !== 'lua') sandboxes.set(id, createSandbox(request.bootstrap, bridgeOf(id), request.data, request.timeoutMs, request.trusted ? trustedGlobals(request.trusted) : undefined));
          else {
            try {
              sandboxes.set(id, await createLua(request));
            } catch (error) {
              return reply({ seq, failure: { message: `the Lua engine did not start: ${error instanceof Error ? error.message : String(error)}` } });
            }
          }
          return reply({ seq });
        case 'run': {
          const failure = await sandboxes.get(id)?.run(request.code, request.filename, request.marks === false ? { marks: false } : undefined);
          return reply({ seq, ...(failure ? { failure } : {}) });
        }
        case 'evaluate':
          return reply({ seq, ...((await sandboxes.get(id)?.evaluate(request.code, request.filename)) ?? {}) });
        case 'dispose': // no answer: nobody waits for it
          sandboxes.get(id)?.dispose?.();
          sandboxes.delete(id);
          return undefined;
      }
    })();
  });
}

serve(workerData as Setup);
