/**
 * A full disk, a read-only one or a folder reqflow may not write is the machine's state, not a
 * bug: one line naming the path, exit 74 — never "internal error … a bug in reqflow" (exit 70).
 * The commands that write a file of their own (the trust store, `import -o`, the UI's edit of
 * `.profiles.json`) reach the user through `internalError` when the write fails.
 */
import { describe, expect, test } from '@jest/globals';
import { internalError } from '../src/core/errors/index.js';

const refusal = (code: string, syscall: string, path = '/cfg/reqflow/.trusted-projects.json.1234.2c3d4747.tmp'): Error => Object.assign(new Error(`${code}: something, ${syscall} '${path}'`), { code, syscall, path, errno: -1 });

describe('internalError', () => {
  test('a full or read-only disk is one line naming the path, exit 74', () => {
    const full = internalError(refusal('ENOSPC', 'write'));
    expect([full.message, full.exitCode]).toEqual(['cannot write /cfg/reqflow/trusted-projects.json: no space left on the device', 74]); // named as the file, not its temporary
    expect(full.hint).not.toMatch(/bug/);
    expect(internalError(refusal('EROFS', 'rename')).message).toBe('cannot write /cfg/reqflow/trusted-projects.json: read-only file system');
    expect(internalError(refusal('EACCES', 'open', '/h/default.ndjson')).message).toBe('cannot open /h/default.ndjson: permission denied'); // a read, or a write
    expect(internalError(refusal('EACCES', 'scandir', '/p')).message).toBe('cannot read /p: permission denied');
  });

  test('anything else is still a bug in reqflow, exit 70', () => {
    const bug = internalError(new TypeError('x is not a function'));
    expect([bug.message, bug.exitCode]).toEqual(['internal error: x is not a function', 70]);
    expect(bug.hint).toMatch(/bug in reqflow/);
    expect(internalError(Object.assign(new Error('EBADF'), { code: 'EBADF', path: '/p' })).exitCode).toBe(70);
  });
});
