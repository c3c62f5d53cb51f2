/**
 * Every example in README.md and docs/*.md marked ```sh runnable runs against the demo API and
 * prints what the ```text output block after it says, so the docs cannot rot.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT } from './helpers/cli.js';
import { startDemoApi } from './servers/demo-api.js';
import { missingPrograms, PROGRAMS } from './helpers/system-programs.js';

interface Example {
  file: string;
  line: number;
  kind: 'sh' | 'file';
  code: string;
  /** `http runnable name=FILE`, `yaml runnable name=FILE` */
  name?: string;
  /** Lines that must appear in the output. */
  expected: string[];
}

const FENCE = /^```(\w+)([^\n]*)\n([\s\S]*?)^```$/gm;

function examplesOf(file: string): Example[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const examples: Example[] = [];
  for (const match of text.matchAll(FENCE)) {
    const [, lang, info = '', code = ''] = match;
    const line = text.slice(0, match.index).split('\n').length;
    if (lang === 'text' && /\boutput\b/.test(info)) {
      const last = examples.at(-1);
      if (last) last.expected.push(...code.split('\n').map((l) => l.trim()).filter(Boolean));
      continue;
    }
    const name = /\bname=(\S+)/.exec(info)?.[1];
    // `sh` runs; `http` (or any language given a name=FILE: a mock file's yaml) is written to a file.
    if (!/\brunnable\b/.test(info) || (lang !== 'sh' && lang !== 'http' && name === undefined)) continue;
    examples.push({ file, line, kind: lang === 'sh' ? 'sh' : 'file', code, expected: [], ...(name ? { name } : {}) });
  }
  return examples;
}

const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const examples = pages.flatMap(examplesOf);

/** The system programs (jq, …) an example runs as a command: at a line's start, after a pipe, `;`, `&&` or `$(`. */
const programsOf = (example: Example) => PROGRAMS.filter((program) => new RegExp(`(^|[|;&]|\\$\\()\\s*${program}\\b`, 'm').test(example.code));
const missing = missingPrograms([...new Set(examples.flatMap(programsOf))], 'the docs examples that run them');

let api: { url: string; close(): Promise<void> };
let workDir: string;

/** Where `npm run demo:api` listens, as the README's reader starts it: the examples' baseUrl. */
const DEMO_PORT = Number(new URL((JSON.parse(readFileSync(join(ROOT, '.profiles.json'), 'utf8')) as Array<{ name: string; variables: { baseUrl: string } }>).find((p) => p.name === 'default')?.variables.baseUrl ?? '').port);

beforeAll(async () => {
  // The README's commands run exactly as a reader types them: the demo API on the examples' port,
  // the repository's .profiles.json as it is.
  // Where that port is taken (a `npm run demo:api` left running, another checkout's tests), the
  // copy of the profiles points at a free one instead: the commands are still the README's.
  api = await startDemoApi(DEMO_PORT).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EADDRINUSE') throw error;
    return startDemoApi();
  });
  workDir = mkdtempSync(join(tmpdir(), 'reqflow-docs-'));
  cpSync(join(ROOT, 'examples'), join(workDir, 'examples'), { recursive: true });
  writeFileSync(join(workDir, '.profiles.json'), readFileSync(join(ROOT, '.profiles.json'), 'utf8').replaceAll(`http://127.0.0.1:${DEMO_PORT}`, api.url));
  // `reqflow` on PATH is the built CLI.
  mkdirSync(join(workDir, 'bin'));
  writeFileSync(join(workDir, 'bin', 'reqflow'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
});
afterAll(async () => {
  await api.close();
  rmSync(workDir, { recursive: true, force: true });
});

function bash(script: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], {
      cwd: workDir,
      env: { PATH: `${join(workDir, 'bin')}:${process.env.PATH ?? ''}`, HOME: workDir, BASE_URL: api.url, REQFLOW_STATE_DIR: join(workDir, 'state'), NO_COLOR: '1', CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

test('the docs have runnable examples', () => {
  expect(examples.filter((e) => e.kind === 'sh').length).toBeGreaterThanOrEqual(15);
});

describe.each(pages.filter((page) => examples.some((e) => e.file === page)))('%s', (page) => {
  for (const example of examples.filter((e) => e.file === page)) {
    const skip = programsOf(example).some((program) => missing.includes(program));
    (skip ? test.skip : test)(`line ${example.line}`, async () => {
      if (example.kind === 'file') {
        writeFileSync(join(workDir, example.name ?? 'example.http'), example.code);
        return;
      }
      const { code, output } = await bash(example.code);
      const context = `${example.file}:${example.line}\n$ ${example.code}\n${output}`;
      expect({ code, context }).toEqual({ code: 0, context });
      // The docs print the examples' port; where it was taken (above), the API answers on another.
      for (const written of example.expected) {
        const line = written.replaceAll(`http://127.0.0.1:${DEMO_PORT}`, api.url);
        expect({ missing: line, context: output.includes(line) ? '' : context }).toEqual({ missing: line, context: '' });
      }
    });
  }
});
