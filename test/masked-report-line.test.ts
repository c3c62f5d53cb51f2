/**
 * The JSON report's lines (`--report json=PATH`, src/test-run/masked-report-line.ts): masked as
 * the other reports and the history are, and still one JSON value per line whatever a secret
 * looked like where it was written.
 */
import { describe, expect, test } from '@jest/globals';
import { maskedReportLine } from '../src/test-run/masked-report-line.js';
import { MASK } from '../src/core/mask.js';

/** A scrub that knows the given secrets, as the run's would. */
const scrubbing =
  (...secrets: string[]) =>
  (text: string): string =>
    secrets.reduce((out, secret) => out.split(secret).join(MASK), text);

describe('maskedReportLine', () => {
  test("a known secret in a body's string and a value under a secret-looking name are masked; the rest is as written", () => {
    const line = '{"type":"response","body":{"echo":"/echo/cs-abcdef123456","token":"TOK-1","n":12345678901234567890}}\n';
    const masked = maskedReportLine(line, scrubbing('cs-abcdef123456'));
    expect(masked).toBe(`{"type":"response","body":{"echo":"/echo/${MASK}","token":"${MASK}","n":12345678901234567890}}\n`);
  });

  test('a secret written as a number (or across a value) still leaves one valid JSON line, the value masked as a string', () => {
    const line = '{"type":"response","body":{"pin":"x","account":98765432,"big":123456789012345678901,"list":[1,98765432]}}';
    const masked = maskedReportLine(line, scrubbing('98765432'));
    expect(JSON.parse(masked)).toEqual({ type: 'response', body: { pin: 'x', account: MASK, big: 123456789012345678901, list: [1, MASK] } });
    expect(masked).toContain('"big":123456789012345678901'); // digits as written
    expect(masked).not.toContain('98765432');
  });

  test('a secret holding a quote or a backslash, echoed in a text body (escaped twice in the line), is masked too', async () => {
    const { SecretRegistry } = await import('../src/core/mask.js');
    const secrets = new SecretRegistry();
    secrets.add('ab"cd1234');
    secrets.add('plain\\secret99');
    const body = JSON.stringify({ seen: 'Bearer ab"cd1234', other: 'Bearer plain\\secret99', n: 1.5 });
    const line = `${JSON.stringify({ type: 'response', body })}\n`;
    const masked = maskedReportLine(line, (text) => secrets.scrub(text));
    expect(JSON.parse(masked).body).toBe(JSON.stringify({ seen: `Bearer ${MASK}`, other: `Bearer ${MASK}`, n: 1.5 }));
  });

  test('a line with nothing to mask is returned as it is', () => {
    const line = '{"type":"test","name":"a","test":{"passed":true}}\n';
    expect(maskedReportLine(line, scrubbing('nothing-here'))).toBe(line);
  });
});
