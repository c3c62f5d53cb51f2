#!/usr/bin/env node
// `npm run demo`: starts the bundled demo API on 127.0.0.1 and runs every example file
// against it with the real CLI, so what you see is real output.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemoApi } from '../test/servers/demo-api.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const api = await startDemoApi();
// A throw-away session folder: the demo never touches your real reqflow state.
const state = mkdtempSync(join(tmpdir(), 'reqflow-demo-'));
const files = readdirSync(join(root, 'examples')).filter((f) => /\.(http|ya?ml|json)$/.test(f)).sort();
let worst = 0;
try {
  for (const file of files) {
    const args = ['run', join('examples', file), '-e', `baseUrl=${api.url}`];
    process.stdout.write(`\n\u001b[1m$ reqflow ${args.join(' ')}\u001b[0m\n`);
    // Async on purpose: the demo API runs in this process and must keep answering.
    const status = await new Promise((resolve) => {
      const child = spawn(process.execPath, [join(root, 'bin', 'run.cjs'), ...args], {
        cwd: root,
        stdio: 'inherit',
        env: { ...process.env, REQFLOW_STATE_DIR: state, ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}) },
      });
      child.on('close', (code) => resolve(code ?? 70));
    });
    process.stdout.write(`\u001b[2m(exit ${status})\u001b[0m\n`);
    worst = Math.max(worst, status);
  }
} finally {
  await api.close();
  rmSync(state, { recursive: true, force: true });
}
// status.json deliberately shows a 404 (exit 1); anything worse is a real failure.
process.exitCode = worst > 1 ? worst : 0;
