#!/usr/bin/env node
// `npm run demo:api`: the bundled demo API on the port the examples' profile points at
// (`baseUrl` of the `default` profile in .profiles.json, 127.0.0.1:4010), until Ctrl-C — for
// following the README's tour in another terminal.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemoApi } from '../test/servers/demo-api.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const profiles = JSON.parse(readFileSync(join(root, '.profiles.json'), 'utf8'));
const baseUrl = new URL(profiles.find((p) => p.name === 'default').variables.baseUrl);
const port = Number(process.argv[2] ?? baseUrl.port);

try {
  const api = await startDemoApi(port);
  process.stdout.write(`demo API listening on ${api.url} (the examples' baseUrl); Ctrl-C stops it\n`);
  const stop = () => void api.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  const why = error.code === 'EADDRINUSE' ? `port ${port} is in use (is the demo API already running?)` : String(error.message ?? error);
  process.stderr.write(`demo-api: cannot listen on 127.0.0.1:${port}: ${why}\nhint: npm run demo:api -- PORT starts it elsewhere; then pass -e baseUrl=http://127.0.0.1:PORT\n`);
  process.exit(2);
}
