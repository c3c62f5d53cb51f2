/**
 * Credentials in a body's fields, masked for the history, test reports and the proxy
 * (`src/core/mask-fields.ts`): in whole JSON, in JSON cut short, and in linear time on a
 * server's text made to make a scan backtrack.
 */
import { describe, expect, test } from '@jest/globals';
import { maskSecretFields } from '../src/core/mask-fields.js';
import { MASK } from '../src/core/mask.js';

describe('maskSecretFields', () => {
  test('JSON: values under secret names masked, the rest kept as written', () => {
    expect(maskSecretFields('{"user": "ann", "password": "hunter2", "n": 1.50, "api_key": 42}')).toBe(`{"user": "ann", "password": "${MASK}", "n": 1.50, "api_key": "${MASK}"}`);
    expect(maskSecretFields('{"note": "a \\"password\\": \\"x\\" inside", "token": "t"}')).toBe(`{"note": "a \\"password\\": \\"x\\" inside", "token": "${MASK}"}`);
  });

  test('JSON cut short inside a secret value (the first 64 KiB of a larger body): the part kept is masked', () => {
    expect(maskSecretFields('{"user": "ann", "password": "hunter2-and-mo')).toBe(`{"user": "ann", "password": "${MASK}"`);
    // What the proxy's --save writes in its place learns the value that was there.
    const seen: string[] = [];
    maskSecretFields('{"client_secret": "s3cr\\u0065t-cut', (name, value) => (seen.push(`${name}=${value}`), 'X'));
    expect(seen).toEqual(['client_secret=s3cret-cut']);
  });

  test("a server's line of quotes that never close (1 MiB) is scanned in linear time and kept as it is", () => {
    // A string that had to close was tried again from every later quote, each time to the line's
    // end: quadratic, about 1 s at 64 KiB, so many minutes at 1 MiB. The bound is far from both.
    const text = `["a token", "${'ull\\"\\'.repeat(180_000)}`;
    const started = Date.now();
    const masked = maskSecretFields(text);
    expect(masked === text).toBe(true); // (not toBe: a megabyte's diff)
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
