import { afterAll, beforeAll } from '@jest/globals';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { runCli, tempDir } from './cli.js';
import { startRecorder, type Recorded, type Recorder } from './recorder.js';

export interface RecordedRuns {
  /** The recorder (started in the file's beforeAll). */
  readonly recorder: Recorder;
  tmp: ReturnType<typeof tempDir>;
  env: { REQFLOW_STATE_DIR: string };
  /** `reqflow run FILE -e host=<recorder> …`: its exit code and output, and what it sent. */
  reqflow(file: string, args?: string[]): Promise<Awaited<ReturnType<typeof runCli>> & { got: Recorded[] }>;
}

/**
 * A dialect test file's set-up: a recorder on 127.0.0.1 for the whole file, a temporary folder with
 * its own state folder, and a runner that points `{{host}}` at the recorder (plus `variables`,
 * each `name=value`, as `-e`).
 */
export function recordedRuns(prefix: string, options: { answer?: (req: IncomingMessage, res: ServerResponse) => void; variables?: string[] } = {}): RecordedRuns {
  const tmp = tempDir(prefix);
  const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };
  let recorder: Recorder | undefined;
  beforeAll(async () => {
    recorder = await startRecorder(options.answer);
  });
  afterAll(async () => {
    await recorder?.close();
    tmp.cleanup();
  });
  const started = (): Recorder => {
    if (!recorder) throw new Error('the recorder starts in beforeAll');
    return recorder;
  };
  const extra = (options.variables ?? []).flatMap((variable) => ['-e', variable]);
  return {
    get recorder() {
      return started();
    },
    tmp,
    env,
    async reqflow(file, args = []) {
      const before = started().received.length;
      const result = await runCli(['run', file, '-e', `host=${started().url}`, ...extra, ...args], { env });
      return { ...result, got: started().received.slice(before) };
    },
  };
}
