/**
 * Under load and faults nothing is lost: 5,000 requests in one file against a server that
 * (seeded, so every run is the same) delays, answers 500, or drops the connection before or
 * during the body. Every request has its `-o json` record with the status or the error the
 * server's fate for it implies, the exit code reflects the failures, the process memory stays
 * flat, and nothing but one-line messages reaches stderr. Ctrl-C during a run or a stream
 * exits promptly.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { BIN, tempDir } from './helpers/cli.js';
import { errorLines, expectNoStackTrace } from './helpers/expect-error.js';
import { chaosFate, startChaosServer, startFaultServer, type FaultServer } from './helpers/fault-server.js';

const SEED = 9;
const COUNT = 5000;

let server: FaultServer;
let faults: FaultServer;
const temp = tempDir('reqflow-load-');

beforeAll(async () => {
  server = await startChaosServer(SEED);
  faults = await startFaultServer();
});

afterAll(async () => {
  await server.close();
  await faults.close();
  temp.cleanup();
});

interface Child {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

function start(args: string[], nodeArgs: string[] = []): Child {
  const child = spawn(process.execPath, [...nodeArgs, BIN, 'run', ...args], {
    cwd: temp.dir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', REQFLOW_STATE_DIR: `${temp.dir}/state` },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => err.push(c));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, at: Date.now() })));
  return { child, stdout: () => Buffer.concat(out).toString('utf8'), stderr: () => Buffer.concat(err).toString('utf8'), exit };
}

/** Resident memory of a process, from /proc (kB). */
function rssKb(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined; // exited
  }
}

interface JsonLine {
  name: string;
  status?: number;
  body?: unknown;
  error?: { message: string; exitCode: number };
}

describe('5,000 requests against a faulty server', () => {
  test('every request is accounted for, memory stays flat, the exit code reflects the failures', async () => {
    const lines: string[] = [];
    for (let n = 1; n <= COUNT; n++) lines.push(`### r${n}\nGET {{base}}/r/${n}\n`);
    temp.write('load.http', lines.join('\n'));
    const started = Date.now();
    // A 64 MiB heap: were memory to grow with the number of requests, the run could not finish.
    const run = start(['load.http', '-o', 'json', '--timeout', '5000', '-e', `base=${server.url}`], ['--max-old-space-size=64']);
    const samples: Array<{ done: number; rss: number }> = [];
    const sampler = setInterval(() => {
      const rss = rssKb(run.child.pid as number);
      if (rss !== undefined) samples.push({ done: run.stdout().split('\n').length - 1, rss });
    }, 50);
    const { code } = await run.exit;
    clearInterval(sampler);
    const seconds = (Date.now() - started) / 1000;

    // One record per request, in order, each matching what the server did with it.
    const records = run.stdout().trim().split('\n').map((line) => JSON.parse(line) as JsonLine);
    expect(records).toHaveLength(COUNT);
    const tally: Record<string, number> = {};
    records.forEach((record, index) => {
      const n = index + 1;
      const fate = chaosFate(SEED, n);
      tally[fate] = (tally[fate] ?? 0) + 1;
      expect(record.name).toBe(`r${n}`);
      if (fate === 'ok' || fate === 'slow') expect({ n, status: record.status, body: record.body, error: record.error }).toEqual({ n, status: 200, body: { n }, error: undefined });
      else if (fate === 'error500') expect({ n, status: record.status }).toEqual({ n, status: 500 });
      else expect({ n, status: record.status, error: record.error }).toEqual({ n, status: undefined, error: { message: expect.stringMatching(/connection to 127\.0\.0\.1:\d+ was reset/), exitCode: 4, hint: expect.any(String) } });
    });
    // The server saw each request once, but for a GET it dropped as it arrived on a kept-alive
    // connection: sent once more on a new one (as browsers and curl do, RFC 9112 §9.3.1), never more.
    const seen = new Map<string, number>();
    for (const r of server.requests) if (r.url.startsWith('/r/')) seen.set(r.url, (seen.get(r.url) ?? 0) + 1);
    expect(seen.size).toBe(COUNT);
    for (const [url, times] of seen) {
      const n = Number(/\/r\/(\d+)/.exec(url)?.[1]);
      if (times > 1) expect({ n, fate: chaosFate(SEED, n), times }).toEqual({ n, fate: 'reset', times: 2 });
    }
    // Every kind of fault happened, and the exit code is the first error's (network: 4).
    for (const fate of ['ok', 'slow', 'error500', 'reset', 'reset-mid-body']) expect(tally[fate]).toBeGreaterThan(50);
    expect(code).toBe(4);

    // stderr: exactly one `reqflow:` line per failed request, nothing else alarming.
    const failures = (tally.reset ?? 0) + (tally['reset-mid-body'] ?? 0);
    expect(errorLines(run.stderr())).toHaveLength(failures);
    expectNoStackTrace(run.stderr());
    expect(run.stderr()).not.toMatch(/MaxListenersExceeded|memory leak|Warning:/);

    // Memory: the late part of the run uses no more than the early part (plus noise).
    const early = samples.filter((s) => s.done >= COUNT * 0.1 && s.done < COUNT * 0.35).map((s) => s.rss);
    const late = samples.filter((s) => s.done >= COUNT * 0.65).map((s) => s.rss);
    expect(early.length).toBeGreaterThan(2);
    expect(late.length).toBeGreaterThan(2);
    const earlyMax = Math.max(...early);
    const lateMax = Math.max(...late);
    process.stdout.write(`load: ${COUNT} requests in ${seconds.toFixed(1)} s; RSS early max ${(earlyMax / 1024).toFixed(1)} MiB, late max ${(lateMax / 1024).toFixed(1)} MiB; fates ${JSON.stringify(tally)}\n`);
    // (RSS climbs while V8 sizes its heap in the first thousand requests, then stays level.)
    expect(lateMax).toBeLessThan(earlyMax * 1.5);
    expect(lateMax).toBeLessThan(200 * 1024);
    // No bound on `seconds`: ~12 s here, several times that on a busy machine; what counts is above.
  }, 180_000);
});

describe('Ctrl-C', () => {
  /** SIGINT to exit: well under a second here, PROMPT_MS on a busy machine; a run that ignores SIGINT is killed at HUNG_MS. */
  const PROMPT_MS = 5000;
  const HUNG_MS = 10_000;

  async function interrupt(args: string[], ready: (run: Child) => boolean): Promise<{ code: number | null; afterMs: number; stderr: string; stdout: string }> {
    const run = start(args);
    const deadline = Date.now() + 10_000;
    while (!ready(run)) {
      if (Date.now() > deadline) throw new Error(`never became ready; stderr: ${run.stderr()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const sent = Date.now();
    run.child.kill('SIGINT');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        run.child.kill('SIGKILL');
        reject(new Error(`did not exit within ${HUNG_MS / 1000} s of SIGINT`));
      }, HUNG_MS);
    });
    try {
      const { code, at } = await Promise.race([run.exit, late]);
      return { code, afterMs: at - sent, stderr: run.stderr(), stdout: run.stdout() };
    } finally {
      clearTimeout(timer);
    }
  }

  test('during a run of many requests: exits at once with 130, the rest not sent', async () => {
    const lines: string[] = [];
    for (let n = 1; n <= 200; n++) lines.push(`### s${n}\nGET ${server.url}/r/${n}?slow\n`);
    temp.write('many.http', lines.join('\n'));
    const before = server.requests.length;
    const result = await interrupt(['many.http', '-o', 'json'], (run) => run.stdout().split('\n').length > 20);
    expect(result.code).toBe(130);
    expect(result.afterMs).toBeLessThan(PROMPT_MS);
    expect(server.requests.length - before).toBeLessThan(200);
    expectNoStackTrace(result.stderr);
  });

  const slow: Array<[string, string, string[], (run: Child) => boolean]> = [
    ['while waiting for a server that never answers', '/hang', [], () => faults.requests.some((r) => r.url === '/hang')],
    ['during an endless body (-o raw)', '/stall', ['-o', 'raw'], (run) => run.stdout().includes('first chunk')],
  ];
  test.each(slow)('%s', async (_name, path, extra, ready) => {
    temp.write('slow.http', `GET ${faults.url}${path}\n`);
    const result = await interrupt(['slow.http', '--timeout', '60000', ...extra], ready);
    expect(result.code).toBe(130);
    expect(result.afterMs).toBeLessThan(PROMPT_MS);
    expectNoStackTrace(result.stderr);
  });

  test('during a server-sent event stream', async () => {
    temp.write('events.http', `# @streaming true\nGET ${server.url}/events\n`);
    const result = await interrupt(['events.http'], (run) => /tick/.test(run.stdout()));
    // The user ended the stream: the events so far are the result (0), or the run was cut short (130).
    expect([0, 130]).toContain(result.code);
    expect(result.afterMs).toBeLessThan(PROMPT_MS);
    expect(result.stdout).toMatch(/"tick":\s*1/);
    expectNoStackTrace(result.stderr);
  });
});
