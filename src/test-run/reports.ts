/**
 * `--report FORMAT[=PATH]`: which reports to write and writing them. JUnit, TAP and HTML are
 * written from the results at the end, atomically (a report is complete or absent); the JSON
 * report is written while the run goes (NDJSON), into a temporary file renamed at the end.
 */
import { createWriteStream, statSync, type WriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, extname, join, resolve } from 'node:path';
import { writeOutputFile, writesInPlace } from '../core/atomic-write.js';
import { real } from '../core/project.js';
import { ReqflowError, UsageError, ExitCode } from '../core/errors/index.js';
import type { OutputSink } from '../core/model.js';
import type { RunResult } from '../report/test-results.js';

export type ReportFormat = 'junit' | 'tap' | 'json' | 'html';

export interface ReportTarget {
  format: ReportFormat;
  /** Absolute, the file written (for `html`, the page); absent for `tap` on stdout. */
  path?: string;
}

const FORMATS: readonly ReportFormat[] = ['junit', 'tap', 'json', 'html'];

export function parseReports(values: readonly string[], cwd: string): ReportTarget[] {
  return values.map((value) => {
    const eq = value.indexOf('=');
    const format = (eq < 0 ? value : value.slice(0, eq)).toLowerCase() as ReportFormat;
    const path = eq < 0 ? undefined : value.slice(eq + 1);
    if (!FORMATS.includes(format)) throw new UsageError(`--report ${value}: unknown format "${format}"`, { hint: 'use junit=PATH, tap[=PATH], json=PATH or html=PATH' });
    if (path === '' || (path === undefined && format !== 'tap')) throw new UsageError(`--report ${format} needs a path: --report ${format}=PATH`);
    return { format, ...(path !== undefined ? { path: format === 'html' ? htmlPage(path, cwd) : resolve(cwd, path) } : {}) };
  });
}

/**
 * The page `--report html=PATH` writes: PATH itself when it names a file (it has an extension:
 * `report.html`, or something is there that is no folder), else `PATH/index.html` — a folder, as is a
 * PATH ending in `/` or an existing folder.
 */
function htmlPage(path: string, cwd: string): string {
  const absolute = resolve(cwd, path);
  const existing = statSync(absolute, { throwIfNoEntry: false });
  // Something there that is no folder (a file, a link to /dev/null) is the page, whatever its name.
  const folder = /[/\\]$/.test(path) || existing?.isDirectory() === true || (existing === undefined && extname(absolute) === '');
  return folder ? join(absolute, 'index.html') : absolute;
}

function reportError(path: string, error: unknown): ReqflowError {
  return new ReqflowError(`cannot write the report ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { exitCode: ExitCode.output });
}

/**
 * The NDJSON report: an output sink for the JSON reporter, and `finish` to put the file in place
 * (a device or a pipe the path names is written into as the run goes: `json=/dev/stdout`).
 */
export async function jsonReportSink(path: string): Promise<{ sink: OutputSink; finish(keep: boolean): Promise<void> }> {
  await mkdir(dirname(path), { recursive: true, mode: 0o755 }).catch((error: unknown) => {
    throw reportError(path, error);
  });
  const direct = writesInPlace(path);
  const temporary = direct ? path : `${path}.${process.pid}.tmp`;
  const stream: WriteStream = createWriteStream(temporary, { mode: 0o644, ...(direct ? { flags: 'a' } : {}) });
  let failed: unknown;
  stream.on('error', (error) => (failed ??= error));
  return {
    sink: { out: (chunk) => void stream.write(chunk), err: () => undefined, stream },
    finish: async (keep) => {
      await new Promise<void>((done) => stream.end(done));
      if (direct) {
        if (failed) throw reportError(path, failed);
        return;
      }
      if (failed || !keep) await rm(temporary, { force: true });
      if (failed) throw reportError(path, failed);
      if (keep) await rename(temporary, path);
    },
  };
}

/**
 * A report that would be written over one of the request files it reports on (`--report
 * junit=api.http`): exit 2 before anything is sent, the file kept.
 */
export function checkReportPaths(targets: readonly ReportTarget[], files: readonly string[]): void {
  const sources = new Set(files.map((file) => real(resolve(file))));
  for (const target of targets) {
    if (target.path !== undefined && sources.has(real(target.path))) {
      throw new UsageError(`--report ${target.format}=${target.path}: that is a request file of this run, which the report would replace`, { hint: 'write the report to another path' });
    }
  }
}

/** JUnit, TAP and HTML, from the finished run. */
export async function writeReports(targets: readonly ReportTarget[], run: RunResult, stdout: (text: string) => void): Promise<void> {
  for (const target of targets) {
    try {
      if (target.format === 'junit') await writeOutputFile(target.path as string, await (await import('../report/junit.js')).junitXml(run), { mode: 0o644, dirMode: 0o755 });
      if (target.format === 'tap') {
        const text = await (await import('../report/tap.js')).tapText(run);
        if (target.path) await writeOutputFile(target.path, text, { mode: 0o644, dirMode: 0o755 });
        else stdout(text);
      }
      if (target.format === 'html') await (await import('../report/html-report.js')).writeHtmlReport(run, target.path as string);
    } catch (error) {
      if (error instanceof ReqflowError) throw error;
      throw reportError(target.path ?? 'stdout', error);
    }
  }
}
