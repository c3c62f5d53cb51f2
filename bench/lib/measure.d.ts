/** See measure.js. */
export interface Command {
  label: string;
  file: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}
export interface Summary {
  median: number;
  p99: number;
  min: number;
  max: number;
  n: number;
}
export function command(label: string, file: string, args?: string[], options?: Partial<Pick<Command, 'env' | 'cwd'>>): Command;
export function compare(commands: Command[], options?: { warmup?: number; runs?: number; env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number }): Promise<Record<string, Summary & { cpuMean: number }>>;
export function summarize(values: number[]): Summary;
