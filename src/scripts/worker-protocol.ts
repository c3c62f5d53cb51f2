/** The messages between script-worker.ts (main thread) and sandbox-worker.ts (the worker). */
import type { ScriptFailure } from './sandbox.js';
import type { TrustedScript } from './trusted-globals.js';

/** The worker's heap, and a Lua state's memory: far above what a request-file script needs, far below the machine. */
export const SCRIPT_MEMORY_MB = 128;

/** The language of a sandbox's scripts: JavaScript (node:vm, sandbox.ts) unless it says Lua (lua/lua-sandbox.ts). */
export type ScriptLanguage = 'javascript' | 'lua';

/** What the main thread asks of the worker, for sandbox `id`. */
export type WorkerCall = { id: number } & (
  | { type: 'create'; bootstrap: string; data: string; timeoutMs: number; language?: ScriptLanguage; trusted?: TrustedScript }
  /** `marks: false`: code reqflow made (a function carried from an earlier script), run without line marks. */
  | { type: 'run'; code: string; filename: string; marks?: false }
  | { type: 'evaluate'; code: string; filename: string }
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
