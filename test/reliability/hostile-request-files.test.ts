/**
 * Request files written to exhaust the machine: a YAML file whose aliases expand
 * exponentially (the "billion laughs"). Each is refused with a clear error in bounded time,
 * and peak RSS — read from /proc by a preloaded reporter — stays under 256 MB.
 */
import { afterAll, expect, test } from '@jest/globals';
import { tempDir } from '../helpers/cli.js';
import { runMeasured } from '../helpers/run-measured.js';

const LIMIT_MB = 256;
const tmp = tempDir('reqflow-hostile-files-');
afterAll(() => tmp.cleanup());

/** Eleven levels of nine aliases: 9^11 strings once expanded, from a file of 1 KiB. */
function billionLaughs(): string {
  const lines = [`a0: &a0 [${Array(9).fill('"lol"').join(', ')}]`];
  for (let i = 1; i <= 11; i++) lines.push(`a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(', ')}]`);
  return `${lines.join('\n')}\nrequests:\n  - method: POST\n    url: http://127.0.0.1:9/\n    body: *a11\n`;
}

test('a YAML file whose aliases expand exponentially: exit 2 naming the file, nothing sent, bounded memory and time', async () => {
  const result = await runMeasured(['run', tmp.write('laughs.yaml', billionLaughs())], tmp.dir);
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/^reqflow: \S*laughs\.yaml:1:1: its aliases \(\*name\) expand to more than 1,000,000 values\n/);
  expect(result.peakMb).toBeGreaterThan(0);
  expect(result.peakMb).toBeLessThan(LIMIT_MB);
  expect(result.ms).toBeLessThan(10_000);
});

test('anchors used as YAML intends (a shared header block) still work', async () => {
  const file = tmp.write('anchors.yaml', 'common: &common\n  Accept: application/json\nrequests:\n  - name: a\n    method: GET\n    url: http://127.0.0.1:9/a\n    headers: *common\n  - name: b\n    method: GET\n    url: http://127.0.0.1:9/b\n    headers: *common\n');
  const result = await runMeasured(['run', file, '--list'], tmp.dir);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
});
