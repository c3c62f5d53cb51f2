/**
 * The TUI's pager on a 100 MiB body, in a process of its own (its peak RSS is the UI's): the
 * real UI on fake terminal streams (as test/helpers/tui-harness.ts drives it) sends a request to
 * a local server; measured are the first screen after the server wrote the last byte, a page
 * down, G to the true last line, and the peak RSS. Prints one JSON line.
 *
 *   node bench/tui-pager.js [MiB]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { toRunOptions } from '../dist/cli/run-options.js';
import { screenText } from '../dist/tui/blessed.js';
import { openTui } from '../dist/tui/index.js';

const mib = Number(process.argv[2] ?? 100);
const line = (i) => `{"id":${i},"name":"item ${i}","tags":["a","b"],"note":"${'x'.repeat(40)}"}\n`;
const block = Buffer.from(Array.from({ length: 10_000 }, (_, i) => line(i)).join(''));
const blocks = Math.ceil((mib * 2 ** 20) / block.length);

let lastByteAt = 0;
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/x-ndjson', 'content-length': block.length * blocks });
  let sent = 0;
  const more = () => {
    while (sent < blocks) {
      sent += 1;
      if (!res.write(block)) return void res.once('drain', more);
    }
    res.end(() => (lastByteAt = performance.now()));
  };
  more();
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const dir = mkdtempSync(join(tmpdir(), 'reqflow-bench-tui-'));
writeFileSync(join(dir, 'big.http'), `### big\nGET http://127.0.0.1:${server.address().port}/\n`);

class Input extends PassThrough {
  isTTY = true;
  setRawMode() {
    return this;
  }
}
class Output extends Writable {
  isTTY = true;
  columns = 120;
  rows = 40;
  _write(_chunk, _encoding, callback) {
    callback();
  }
}
const env = { PATH: process.env.PATH, HOME: dir, REQFLOW_STATE_DIR: join(dir, 'state') };
const input = new Input();
const tui = await openTui(
  { dir, cwd: dir, env, options: toRunOptions({ output: 'pretty', color: true, 'max-size': String(2 * mib * 2 ** 20) }, { stdoutIsTTY: true, stdinIsTTY: true, env }) },
  { input, output: new Output(), terminal: 'xterm-256color', resizeTimeout: 1 },
);
const text = () => screenText(tui.screen);
const until = async (test, limitMs = 120_000) => {
  const deadline = Date.now() + limitMs;
  while (!test(text())) {
    if (Date.now() > deadline) throw new Error(`never drawn:\n${text()}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return performance.now();
};
const press = (sequence) => input.write(sequence);

await until((screen) => screen.includes('big'));
press('j');
press('\r');
const firstScreen = (await until((screen) => screen.includes('{"id":0,') && screen.includes('200 OK'))) - lastByteAt;
press('f'); // full screen: the response has the focus
await until((screen) => !screen.includes('Requests'));
const pageDowns = [];
for (let i = 1; i <= 20; i += 1) {
  const before = text();
  const start = performance.now();
  press('\u001b[6~');
  pageDowns.push((await until((screen) => screen !== before)) - start);
}
const gStart = performance.now();
press('G');
const last = line(blocks * 10_000 - 1 - (blocks - 1) * 10_000).trim();
const toLastLine = (await until((screen) => screen.includes(last))) - gStart;
const peakRssMb = process.resourceUsage().maxRSS / 1024;
pageDowns.sort((a, b) => a - b);
console.log(JSON.stringify({ bodyMiB: (block.length * blocks) / 2 ** 20, firstScreenMs: firstScreen, pageDownMedianMs: pageDowns[10], pageDownMaxMs: pageDowns.at(-1), toLastLineMs: toLastLine, peakRssMb }));
await tui.app.quit();
tui.close();
server.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
