/**
 * The bench's own measuring (bench/lib/): the CPU time it reports for a run is the child's, and
 * `--baseline` names what it cannot use in one line. No timing is asserted beyond CPU time the
 * child itself counted.
 */
import { expect, test } from '@jest/globals';
import { ROOT, tempDir } from './helpers/cli.js';

const linux = process.platform === 'linux';

(linux ? test : test.skip)("compare's CPU time is the child's own (user + system, from /proc)", async () => {
  const { command, compare } = await import('../bench/lib/measure.js');
  // The child burns until its own clock says 100 ms of CPU: the bench must see at least that,
  // less one 10 ms tick of rounding, and nothing like what an idle child costs.
  const burn = command('burn', process.execPath, ['-e', 'while (process.cpuUsage().user + process.cpuUsage().system < 100_000);']);
  const idle = command('idle', process.execPath, ['-e', '0']);
  const result = await compare([burn, idle], { warmup: 0, runs: 3, env: { PATH: process.env.PATH } });
  expect(result.burn?.cpuMean).toBeGreaterThanOrEqual(90);
  expect(result.burn?.cpuMean).toBeGreaterThan((result.idle?.cpuMean ?? Infinity) + 40);
  expect(result.burn?.n).toBe(3);
});

test('--baseline with a folder that is not a built checkout, or a revision that does not exist, is one clear error', async () => {
  const { prepareBaseline } = await import('../bench/lib/baseline.js');
  const tmp = tempDir();
  try {
    tmp.write('bin/run.cjs', '');
    expect(() => prepareBaseline(tmp.dir, ROOT)).toThrow(/no dist\/ there: run `npm ci && npm run build` in it first/);
    expect(() => prepareBaseline('no-such-revision-xyz', ROOT)).toThrow('--baseline no-such-revision-xyz: neither a built checkout (a folder with bin/run.cjs) nor a git revision of this repository');
    expect(prepareBaseline(ROOT, ROOT).bin).toBe(`${ROOT}/bin/run.cjs`);
  } finally {
    tmp.cleanup();
  }
});
