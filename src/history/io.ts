/** What a `reqflow history` command reads and writes: the process's, or a test's. */
export interface HistoryIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** The process's own streams, folder and environment. */
export function processHistoryIo(): HistoryIo {
  return { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env };
}
