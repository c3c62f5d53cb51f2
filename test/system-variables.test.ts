/**
 * The system and dynamic variables of the `.http` tools, as units (an injected clock) and end
 * to end: what a recording server receives.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { systemVariable, type SystemContext } from '../src/core/system-variables.js';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

const NOW = Date.parse('2030-01-31T12:34:56.789Z');
const ctx: SystemContext = { env: { HOME_DIR: '/home/ada', WHICH: 'HOME_DIR' }, now: () => NOW, where: '' };
const value = (expression: string): Promise<string> => systemVariable(expression, ctx, async (name) => (ctx.env[name] ?? `<${name}>`));

describe('system variables', () => {
  test('UUIDs: $guid, $uuid, $random.uuid — a new one each time', async () => {
    const [a, b, c] = await Promise.all([value('$guid'), value('$uuid'), value('$random.uuid')]);
    for (const id of [a, b, c]) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set([a, b, c]).size).toBe(3);
  });

  test('random numbers and text stay in their ranges and alphabets', async () => {
    for (let i = 0; i < 200; i++) {
      const n = Number(await value('$randomInt 5 8'));
      expect(n >= 5 && n < 8 && Number.isInteger(n)).toBe(true);
      const m = Number(await value('$random.integer(-3, 3)'));
      expect(m >= -3 && m < 3).toBe(true);
      const f = Number(await value('$random.float(1, 2)'));
      expect(f >= 1 && f < 2).toBe(true);
      // JetBrains' other forms: (to) counts from 0, () is 0 to 1000.
      const upTo = Number(await value('$random.integer(4)'));
      expect(Number.isInteger(upTo) && upTo >= 0 && upTo < 4).toBe(true);
      const any = Number(await value('$random.integer()'));
      expect(Number.isInteger(any) && any >= 0 && any < 1000).toBe(true);
    }
    await expect(value('$random.integer(3, 3)')).rejects.toThrow('{{$random.integer(3, 3)}} needs from < to');
    expect(await value('$random.alphabetic(12)')).toMatch(/^[A-Za-z]{12}$/);
    expect(await value('$random.alphanumeric(9)')).toMatch(/^\w{9}$/);
    expect(await value('$random.hexadecimal(16)')).toMatch(/^[0-9a-f]{16}$/);
    expect(await value('$random.email')).toMatch(/^[a-z]+@[a-z]+\.com$/);
  });

  test('bounds a generator cannot take are exit 3 naming the template, at once: never NaN, Invalid Date, an internal error or gigabytes', async () => {
    const refused: Array<[string, string]> = [
      ['$randomInt 1 100000000000000000000', 'the bounds are whole numbers within ±2^53, less than 2^48 apart'],
      ['$random.integer(0,99999999999999999999)', 'the bounds are whole numbers within ±2^53, less than 2^48 apart'],
      ['$random.integer(-9007199254740993,0)', 'the bounds are whole numbers within ±2^53, less than 2^48 apart'],
      ['$random.float(1,1)', 'needs from < to'],
      ['$random.alphabetic(-1)', 'the length is a whole number from 0 to 1048576'],
      ['$random.hexadecimal(1000000000)', 'the length is a whole number from 0 to 1048576'],
      ['$timestamp 99999999999 y', 'the offset goes past the dates a timestamp can hold'],
      ['$datetime iso8601 99999999999 y', 'the offset goes past the dates a timestamp can hold'],
      ['$datetime rfc1123 300000 y', 'the offset goes past the dates a timestamp can hold'],
      ['$localDatetime iso8601 999999999999999999999 d', 'the offset goes past the dates a timestamp can hold'],
    ];
    for (const [expression, message] of refused) {
      const error = await value(expression).then(() => undefined, (caught: unknown) => caught as { message: string; exitCode: number });
      expect({ expression, message: error?.message.includes(message), exitCode: error?.exitCode }).toEqual({ expression, message: true, exitCode: 3 });
    }
    expect(await value('$random.alphabetic(0)')).toBe('');
  });

  test('time: $timestamp with offsets, $isoTimestamp, $datetime rfc1123 / iso8601 / custom formats', async () => {
    expect(await value('$timestamp')).toBe(String(Math.floor(NOW / 1000)));
    expect(await value('$timestamp -1 d')).toBe(String(Math.floor((NOW - 86_400_000) / 1000)));
    expect(await value('$isoTimestamp')).toBe('2030-01-31T12:34:56.789Z');
    expect(await value('$datetime iso8601')).toBe('2030-01-31T12:34:56.789Z');
    expect(await value('$datetime rfc1123')).toBe('Thu, 31 Jan 2030 12:34:56 GMT');
    expect(await value('$datetime "DD-MM-YYYY HH:mm [at] ddd" 2 h')).toBe('31-01-2030 14:34 at Thu');
  });

  test('dates are Day.js\'s, as VS Code REST Client and httpyac make them: a month later keeps the day in the month, every Day.js token, no others', async () => {
    // Jan 31 + 1 month is Feb 28 (Day.js clamps the day); a Date's own arithmetic gave Mar 3.
    expect(await value('$datetime iso8601 1 M')).toBe('2030-02-28T12:34:56.789Z');
    expect(await value('$timestamp 1 M')).toBe(String(Date.parse('2030-02-28T12:34:56.789Z') / 1000 | 0));
    // `d` and `dd` are the weekday (4, Th); `x` and `X` are no Day.js core tokens: text, as VS Code sends them.
    expect(await value("$datetime 'YY M D d dd h A SSS x X'")).toBe('30 1 31 4 Th 12 PM 789 x X');
    // $datetime with no format is no form of either tool (both leave it unresolved): refused, not an ISO date.
    await expect(value('$datetime')).rejects.toMatchObject({ exitCode: 3, message: expect.stringContaining('needs a format') });
    await expect(value('$timestamp 1 Q')).rejects.toMatchObject({ exitCode: 3, message: expect.stringContaining('unknown unit "Q"') });
  });

  test('environment: $processEnv NAME, $processEnv %var (the name from a variable), $env.NAME; unset is exit 3', async () => {
    expect(await value('$processEnv HOME_DIR')).toBe('/home/ada');
    expect(await value('$processEnv %WHICH')).toBe('/home/ada');
    expect(await value('$env.HOME_DIR')).toBe('/home/ada');
    await expect(value('$processEnv NOPE')).rejects.toMatchObject({ exitCode: 3, message: expect.stringContaining('environment variable NOPE is not set') });
  });

  test('an unknown $ function is exit 3 naming it; a Faker-style JetBrains generator too', async () => {
    await expect(value('$nope')).rejects.toMatchObject({ exitCode: 3, message: 'unknown system variable {{$nope}}' });
    await expect(value('$random.address.city')).rejects.toMatchObject({ exitCode: 3, message: "{{$random.address.city}} is one of JetBrains' Faker generators, which reqflow does not have" });
    // The tools' variables reqflow does not make are said as such, not as unknown ones.
    await expect(value('$aadToken new public')).rejects.toMatchObject({ exitCode: 3, message: expect.stringContaining("{{$aadToken}} is VS Code REST Client's sign-in") });
    await expect(value('$aadV2Token')).rejects.toMatchObject({ exitCode: 3, message: expect.stringContaining("VS Code REST Client's sign-in") });
    await expect(value('$exampleServer')).rejects.toMatchObject({ exitCode: 3, message: expect.stringContaining("the JetBrains IDE's own examples server") });
    await expect(value('$timestamp 1 fortnight')).rejects.toMatchObject({ exitCode: 3 });
  });
});

describe('end to end', () => {
  let recorder: Recorder;
  let url = '';
  const tmp = tempDir('reqflow-sysvars-');
  beforeAll(async () => {
    recorder = await startRecorder();
    url = recorder.url;
  });
  afterAll(async () => {
    await recorder.close();
    tmp.cleanup();
  });

  test('what the server receives: a fresh UUID, tomorrow, a .env value (masked in -v), a percent-encoded variable', async () => {
    tmp.write('.env', '# local secrets\nAPI_TOKEN="tok-from-dotenv-123"\nPLAIN=plain value\n');
    const file = tmp.write('sys.http', `@q = a b&c\nGET ${url}/?q={{%q}}\nX-Id: {{$guid}}\nX-Tomorrow: {{$datetime "YYYY-MM-DD" 1 d}}\nX-Token: {{$dotenv API_TOKEN}}\nX-Plain: {{$dotenv PLAIN}}\n`);
    const before = recorder.received.length;
    const result = await runCli(['run', file, '-v'], { env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
    expect(result.code).toBe(0);
    const got = recorder.received[before];
    expect(got?.url).toBe('/?q=a%20b%26c');
    expect(got?.headers['x-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(got?.headers['x-tomorrow']).toBe(new Date(Date.now() + 86_400_000).toISOString().slice(0, 10));
    expect(got?.headers['x-token']).toBe('tok-from-dotenv-123');
    expect(got?.headers['x-plain']).toBe('plain value');
    expect(result.stderr).not.toContain('tok-from-dotenv-123');
  });

  test('$localDatetime in the local zone: iso8601 as Day.js\'s format() — no milliseconds —, rfc1123 with the offset, Day.js tokens', async () => {
    const file = tmp.write('local.http', `GET ${url}/local\nX-Iso: {{$localDatetime iso8601}}\nX-Rfc: {{$localDatetime rfc1123}}\nX-Days: {{$datetime "d dd x"}}\n`);
    const before = recorder.received.length;
    // +05:30 all year (no daylight saving): the zone is seen in what is sent.
    const result = await runCli(['run', file], { env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state'), TZ: 'Asia/Kolkata' } });
    expect(result.code).toBe(0);
    const got = recorder.received[before];
    expect(got?.headers['x-iso']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+05:30$/);
    expect(got?.headers['x-rfc']).toMatch(/^[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d \+0530$/);
    expect(got?.headers['x-days']).toMatch(/^[0-6] (Su|Mo|Tu|We|Th|Fr|Sa) x$/);
  });

  test('$dotenv reads the file VS Code REST Client reads: .env.ENV of the environment picked before .env, in the nearest folder up from the request file', async () => {
    // A project (package.json) whose .env files are at its root, the request two folders down.
    tmp.write('proj/package.json', '{}\n');
    tmp.write('proj/.env', 'KEY=from-dotenv\nONLY=root-only\n');
    tmp.write('proj/.env.dev', 'KEY=from-dotenv-dev\n');
    tmp.write('proj/http-client.env.json', '{"dev": {"x": "1"}}\n');
    const file = tmp.write('proj/api/users/dotenv.http', `GET ${url}/dotenv?key={{$dotenv KEY}}\n`);
    const run = async (args: string[]): Promise<string | undefined> => {
      const before = recorder.received.length;
      const result = await runCli(['run', file, ...args], { env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
      expect(result.code).toBe(0);
      return recorder.received[before]?.url;
    };
    expect(await run([])).toBe('/dotenv?key=from-dotenv');
    expect(await run(['--env', 'dev'])).toBe('/dotenv?key=from-dotenv-dev');
    // Not above the project: a .env outside it is never read.
    tmp.write('outside/.env', 'KEY=outside\n');
    tmp.write('outside/proj/package.json', '{}\n');
    const lone = tmp.write('outside/proj/lone.http', `GET ${url}/lone?key={{$dotenv KEY}}\n`);
    const before = recorder.received.length;
    const result = await runCli(['run', lone], { env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/lone\.http:1: \{\{\$dotenv KEY\}\}: no \.env file in \S*outside\/proj in request "request-1"/);
    expect(recorder.received.length).toBe(before);
  });

  test('an unknown system variable is exit 3 and nothing is sent', async () => {
    const before = recorder.received.length;
    const result = await runCli(['run', tmp.write('bad.http', `GET ${url}/?x={{$nope}}\n`)], { env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^reqflow: \S*bad\.http:1: unknown system variable \{\{\$nope\}\} in request "request-1"$/m);
    expect(recorder.received.length).toBe(before);
  });
});
