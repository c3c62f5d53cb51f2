/**
 * The PEM blocks of a certificate, key or CA file (`src/plugins/auth-mtls/files.ts`): every
 * whole block, and a file of BEGIN lines never ended — a hostile project's "CA file" — read in
 * linear time.
 */
import { describe, expect, test } from '@jest/globals';
import { pemBlocks } from '../src/plugins/auth-mtls/files.js';

const block = (label: string, body: string): string => `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;

describe('pemBlocks', () => {
  test('every whole block, with its label; text between blocks and a block never ended are left out', () => {
    const file = `comment\n${block('CERTIFICATE', 'MIIB')}junk\n-----BEGIN CERTIFICATE-----\nMIIC\n${block('EC PRIVATE KEY', 'MHc')}`;
    expect(pemBlocks(Buffer.from(file))).toEqual([
      { label: 'CERTIFICATE', text: block('CERTIFICATE', 'MIIB').trimEnd() },
      { label: 'EC PRIVATE KEY', text: block('EC PRIVATE KEY', 'MHc').trimEnd() },
    ]);
  });

  test('a megabyte of BEGIN lines never ended is read in linear time', () => {
    // Each BEGIN was searched for its END to the file's end: quadratic, 10 s at 500 kB. The bound is far from both.
    const started = Date.now();
    expect(pemBlocks(Buffer.from('-----BEGIN G-----\n-----END '.repeat(40_000)))).toEqual([]);
    expect(pemBlocks(Buffer.from(`-----BEGIN D-----\n${'----'.repeat(250_000)}\n`))).toEqual([]);
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
