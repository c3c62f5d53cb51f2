/**
 * Runs the files of `reqflow test`: each file's requests in order through the pipeline (its
 * own chaining state, profile and environment), up to `jobs` files at once, and collects a
 * {@link FileResult} per file. `--bail` stops every file after the first request that fails.
 */
import { isReqflowError, internalError } from '../core/errors/index.js';
import { runRequests } from '../pipeline/loop.js';
import { requestsOf, type RequestFile } from '../pipeline/request-file.js';
import { refuseUnsendable } from '../pipeline/unsendable-urls.js';
import type { RunServices } from '../pipeline/create-context.js';
import type { Reporter } from '../report/reporter.js';
import { testCollector } from './collector.js';
import type { FileResult, RequestResult } from '../report/test-results.js';

export interface TestFilesOptions {
  jobs: number;
  bail: boolean;
  grep?: RegExp;
  signal: AbortSignal;
  /** The requests of a file (a pipe, or stdin read once, too). */
  parse(file: string): Promise<RequestFile>;
  /** How a file is named in results and output. */
  shown(file: string): string;
  /** The services of one file's run, with `reporter` as its reporter. */
  services(file: string, requests: RequestFile, reporter: Reporter): Promise<RunServices>;
  /** Another reporter that sees every request too (the JSON report), if any. */
  extraReporter?: Reporter;
  onRequest(file: string, result: RequestResult): void;
  onFileError(file: string, message: string): void;
}

function both(first: Reporter, second: Reporter | undefined): Reporter {
  if (!second) return first;
  const keys = ['requestStart', 'responseHead', 'body', 'event', 'streamEnd', 'requestEnd'] as const;
  const joined: Reporter = {};
  for (const key of keys) {
    const a = first[key] as ((...args: unknown[]) => unknown) | undefined;
    const b = second[key] as ((...args: unknown[]) => unknown) | undefined;
    if (!a && !b) continue;
    (joined as Record<string, unknown>)[key] = async (...args: unknown[]) => {
      await a?.(...args);
      await b?.(...args);
    };
  }
  return joined;
}

async function runFile(file: string, options: TestFilesOptions, stopped: () => boolean, stop: () => void): Promise<FileResult> {
  const started = performance.now();
  const result: FileResult = { file: options.shown(file), durationMs: 0, requests: [] };
  try {
    const requests = await options.parse(file);
    const { grep } = options;
    const selected = grep ? Array.from({ length: requests.count }, (_, index) => index).filter((index) => grep.test(requests.name(index))) : undefined;
    const collector = testCollector(file, options.shown, (request) => {
      result.requests.push(request);
      options.onRequest(result.file, request);
      if (options.bail && request.exitCode !== 0) stop();
    });
    const services = await options.services(file, requests, both(collector, options.extraReporter));
    // A `# @filter` that is not JMESPath is the file's error before anything is sent, as with `reqflow run`.
    if (requests.filtered.length > 0) await (await import('../pipeline/pick-requests.js')).validateFilters(requests, selected, services.options);
    await refuseUnsendable(requests, selected, services.options.dryRun === true);
    await runRequests(requestsOf(requests, selected), file, services, { failFast: options.bail, stop: stopped });
  } catch (caught) {
    const error = isReqflowError(caught) ? caught : internalError(caught);
    result.error = { message: error.message, exitCode: error.exitCode, ...(error.hint ? { hint: error.hint } : {}) };
    options.onFileError(result.file, error.message);
    if (options.bail) stop();
  }
  result.durationMs = performance.now() - started;
  return result;
}

/** Every file, `jobs` at a time; results in the order of `files`. */
export async function runTestFiles(files: readonly string[], options: TestFilesOptions): Promise<FileResult[]> {
  const results: FileResult[] = new Array<FileResult>(files.length);
  let bailed = false;
  const stopped = (): boolean => bailed || options.signal.aborted;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length && !stopped()) {
      const index = next++;
      results[index] = await runFile(files[index] as string, options, stopped, () => (bailed = true));
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.jobs, files.length) }, worker));
  return results.filter((result) => result !== undefined);
}
