/** The messages between script-worker.ts (main thread) and sandbox-worker.ts (the worker). */
import type { ScriptFailure } from './sandbox.js';
import type { TrustedScript } from './trusted-globals.js';

/** What the main thread asks of the worker, for sandbox `id`. */
export type WorkerCall = { id: number } & (
  | { type: 'create'; bootstrap: string; data: string; timeoutMs: number; trusted?: TrustedScript }
  | { type: 'run' | 'evaluate'; code: string; filename: string }
  | { type: 'dispose' }
);

/** A call as sent: `seq` pairs it with its reply. */
export type WorkerRequest = WorkerCall & { seq: number };

export interface WorkerReply {
  seq: number;
  failure?: ScriptFailure;
  /** `evaluate`: the value as JSON text. */
  json?: string;
}

/** A bridge call from a script, answered on the same port. */
export interface BridgeCall {
  id: number;
  op: string;
  args: ReadonlyArray<string | undefined>;
}
