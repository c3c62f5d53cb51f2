/**
 * The worker thread request-file scripts run in (src/scripts/script-worker.ts starts it): the
 * sandboxes of sandbox.ts live here, under the worker's heap limit, so a script that allocates
 * without end kills this thread, not reqflow. The scripts' bridge reaches the main thread
 * synchronously: a call is posted on `port`, and this thread sleeps on a shared flag until the
 * answer is there to take (`receiveMessageOnPort`).
 */
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { type Bridge, createSandbox, type Sandbox } from './sandbox.js';
import { trustedGlobals } from './trusted-globals.js';
import type { WorkerReply, WorkerRequest } from './worker-protocol.js';

interface Setup {
  port: MessagePort;
  flag: Int32Array;
}

function serve({ port, flag }: Setup): void {
  const sandboxes = new Map<number, Sandbox>();
  const bridgeOf =
    (id: number): Bridge =>
    (op, args) => {
      Atomics.store(flag, 0, 0);
      port.postMessage({ id, op, args });
      Atomics.wait(flag, 0, 0);
      return receiveMessageOnPort(port)?.message as ReturnType<Bridge>;
    };
  const reply = (message: WorkerReply): void => parentPort?.postMessage(message);
  parentPort?.on('message', (request: WorkerRequest) => {
    const { seq, id } = request;
    void (async () => {
      switch (request.type) {
        case 'create':
          sandboxes.set(id, createSandbox(request.bootstrap, bridgeOf(id), request.data, request.timeoutMs, request.trusted ? trustedGlobals(request.trusted) : undefined));
          return reply({ seq });
        case 'run': {
          const failure = await sandboxes.get(id)?.run(request.code, request.filename);
          return reply({ seq, ...(failure ? { failure } : {}) });
        }
        case 'evaluate':
          return reply({ seq, ...((await sandboxes.get(id)?.evaluate(request.code, request.filename)) ?? {}) });
        case 'dispose': // no answer: nobody waits for it
          sandboxes.delete(id);
          return undefined;
      }
    })();
  });
}

serve(workerData as Setup);
