/**
 * A throw-away project folder for the auth and TLS tests: request files, a .profiles.json, its
 * own session folder, and the built CLI run inside it.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sessionFileFor } from './session-file.js';
import { startEchoServer, type EchoServer } from '../servers/echo-server.js';
import { runCli, tempDir, type CliResult } from './cli.js';

export interface Project {
  dir: string;
  stateDir: string;
  write(name: string, text: string): string;
  /** Writes `.profiles.json` (an array of profiles). */
  profiles(profiles: unknown[]): string;
  /** Seeds the session of a profile, as earlier runs would have left it. */
  seedSession(profile: string, variables: Record<string, string>, data?: Record<string, unknown>): void;
  run(args: string[], env?: NodeJS.ProcessEnv): Promise<CliResult>;
  cleanup(): void;
}

export function project(): Project {
  const temp = tempDir('reqflow-auth-');
  const stateDir = join(temp.dir, '.state');
  const baseEnv = { REQFLOW_STATE_DIR: stateDir };
  return {
    dir: temp.dir,
    stateDir,
    write: temp.write,
    profiles: (profiles) => temp.write('.profiles.json', JSON.stringify(profiles, null, 2)),
    seedSession(profile, variables, data = {}) {
      const path = sessionFileFor(stateDir, temp.dir, profile);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, JSON.stringify({ version: 1, variables, data }), { mode: 0o600 });
    },
    run: (args, env = {}) => runCli(args, { cwd: temp.dir, env: { ...baseEnv, ...env } }),
    cleanup: temp.cleanup,
  };
}

/** Secrets must never reach the terminal: not in stdout, not in stderr, not even encoded. */
export function expectNoSecrets(result: CliResult, secrets: readonly string[]): void {
  for (const secret of secrets) {
    for (const form of new Set([secret, encodeURIComponent(secret), Buffer.from(secret, 'utf8').toString('base64')])) {
      expect(result.stdout).not.toContain(form);
      expect(result.stderr).not.toContain(form);
    }
  }
}

/** `-v` prints the request headers: the named ones must show the mask. */
export function expectMaskedHeaders(output: string, names: readonly string[]): void {
  for (const name of names) expect(output).toMatch(new RegExp(`^${name}: •••$`, 'mi'));
}

/** The `reqflow: ...` lines (errors and warnings) of stderr; the status line of piped output is not one. */
export function diagnostics(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.startsWith('reqflow: '));
}

/** Exit 0 with no error or warning, showing stderr when it fails. */
export function expectQuietSuccess(result: CliResult): void {
  expect({ code: result.code, diagnostics: diagnostics(result.stderr), stderr: result.stderr }).toEqual({ code: 0, diagnostics: [], stderr: expect.any(String) });
}

/**
 * Registers the usual hooks of an auth test file: one echo server for the file, a fresh project
 * per test. Read `fixture.echo` and `fixture.p` inside tests.
 */
export function echoFixture(options: { hmacSecret?: string } = {}): { readonly echo: EchoServer; readonly p: Project } {
  const fixture = {} as { echo: EchoServer; p: Project };
  beforeAll(async () => {
    fixture.echo = await startEchoServer(options);
  });
  afterAll(() => fixture.echo.close());
  beforeEach(() => {
    fixture.p = project();
  });
  afterEach(() => fixture.p.cleanup());
  return fixture;
}
