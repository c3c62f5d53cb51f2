/**
 * The system and dynamic variables of the `.http` tools: `{{$guid}}`, `{{$randomInt 1 10}}`,
 * `{{$random.alphanumeric(8)}}`, `{{$timestamp -1 d}}`, `{{$datetime iso8601 1 h}}`,
 * `{{$processEnv HOME}}`, `{{$dotenv TOKEN}}`, … — VS Code REST Client's, JetBrains' and
 * httpyac's. Each occurrence gets its own value. An unknown `$` function is exit 3 naming it.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseDotenv } from './dotenv.js';
import { projectRoot } from './environment-search.js';
import { UsageError, VariableError } from './errors/index.js';
import { readConfigFile } from './read-config-file.js';
import { lazyBuiltin } from './lazy-builtin.js';

const crypto = (): typeof import('node:crypto') => lazyBuiltin('node:crypto');

/** What system variables may read: the environment, the request file's folder, a clock (tests set it). */
export interface SystemContext {
  env: NodeJS.ProcessEnv;
  /** The request file's folder, where the search for `$dotenv`'s file starts. */
  baseDir?: string;
  /** The environment picked (`--env NAME`): `$dotenv` reads `.env.NAME` before `.env`. */
  environmentName?: string;
  now?: () => number;
  /** For messages: `in request "x"`. */
  where: string;
}

/** The offset units VS Code and httpyac take (their `y|Q|M|w|d|h|m|s|ms` without `Q`, which Day.js core reads as milliseconds). */
const UNITS = new Set(['y', 'M', 'w', 'd', 'h', 'm', 's', 'ms']);

type Dayjs = import('dayjs').Dayjs;

/**
 * Now, in UTC or the local zone, shifted by `-3 d`, `1 M`: through Day.js with its UTC plugin, as
 * VS Code REST Client and httpyac compute it (`dayjs.utc().add(n, unit)`; months and years keep
 * the day within the month: Jan 31 + 1 M is Feb 28).
 */
async function shifted(now: number, offset: string | undefined, unit: string | undefined, local: boolean, expression: string, where: string): Promise<Dayjs> {
  const dayjs = (await import('dayjs')).default;
  dayjs.extend((await import('dayjs/plugin/utc.js')).default); // extend installs a plugin once
  const utc = dayjs.utc(now);
  const date = local ? utc.local() : utc;
  if (offset === undefined) return date;
  if (!/^-?\d+$/.test(offset) || unit === undefined) throw new VariableError(`{{${expression}}}: an offset is a whole number and a unit (y, M, w, d, h, m, s, ms)${where}`);
  if (!UNITS.has(unit)) throw new VariableError(`{{${expression}}}: unknown unit "${unit}" (y, M, w, d, h, m, s, ms)${where}`);
  const moved = date.add(Number(offset), unit as import('dayjs').ManipulateType);
  // Past ±275,760 years a Date is invalid: `NaN` and `Invalid Date` would be sent.
  if (!moved.isValid()) throw new VariableError(`{{${expression}}}: the offset goes past the dates a timestamp can hold (±270,000 years)${where}`);
  return moved;
}

/** Splits `rfc1123 -1 d` and `"DD-MM-YYYY" 2 h` into words, keeping a quoted format whole. */
function words(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

/** VS Code's and httpyac's `$datetime` / `$localDatetime`: rfc1123, iso8601 or a Day.js format. */
async function datetime(args: string, expression: string, local: boolean, ctx: SystemContext): Promise<string> {
  const [format, offset, unit] = words(args);
  if (format === undefined) throw new VariableError(`{{${expression}}} needs a format: rfc1123, iso8601 or a quoted Day.js format ("YYYY-MM-DD")${ctx.where}`);
  const date = await shifted(ctx.now?.() ?? Date.now(), offset, unit, local, expression, ctx.where);
  if (format === 'rfc1123') return local ? date.locale('en').format('ddd, DD MMM YYYY HH:mm:ss ZZ') : date.toDate().toUTCString();
  if (format === 'iso8601') return local ? date.format() : date.toISOString();
  return date.format(format);
}

const ALPHA = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The longest `$random.alphabetic(n)` and the like: a MiB of text (a request line or header holds far less). */
const MAX_RANDOM_TEXT = 1024 * 1024;

function randomText(alphabet: string, length: number, expression: string, where: string): string {
  if (!Number.isInteger(length) || length < 0 || length > MAX_RANDOM_TEXT) throw new VariableError(`{{${expression}}}: the length is a whole number from 0 to ${MAX_RANDOM_TEXT}${where}`);
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[crypto().randomInt(alphabet.length)];
  return out;
}

/** crypto.randomInt's bounds: safe integers, less than 2^48 apart. */
const MAX_RANGE = 2 ** 48;

/** A random whole number in [min, max), or exit 3 for bounds crypto.randomInt cannot take (it threw a RangeError: exit 70). */
function randomInteger(min: number, max: number, expression: string, where: string): string {
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || max - min > MAX_RANGE) throw new VariableError(`{{${expression}}}: the bounds are whole numbers within ±2^53, less than 2^48 apart${where}`);
  return String(crypto().randomInt(min, max));
}

/** `(8)`, `(1, 10)`: the numbers of a JetBrains `$random.*(…)` call. */
function numbers(args: string | undefined, count: number, expression: string, where: string): number[] {
  const parts = (args ?? '').split(',').map((p) => p.trim()).filter(Boolean).map(Number);
  if (parts.length !== count || parts.some((n) => !Number.isFinite(n))) throw new VariableError(`{{${expression}}} expects ${count} number${count === 1 ? '' : 's'} in parentheses${where}`);
  return parts;
}

/**
 * The range of `$random.integer(…)` / `$random.float(…)`: `(from, to)`, `(to)` from 0, or `()`
 * (0 to 1000), `to` excluded, as JetBrains documents them.
 */
function range(args: string | undefined, expression: string, where: string): [number, number] {
  const count = (args ?? '').split(',').filter((p) => p.trim() !== '').length;
  if (count === 0) return [0, 1000];
  if (count === 1) return [0, numbers(args, 1, expression, where)[0] as number];
  const [from, to] = numbers(args, 2, expression, where) as [number, number];
  return [from, to];
}

/** JetBrains' `$random.*` generators that have one meaning (the Faker-based ones do not: refused). */
function jetbrainsRandom(name: string, args: string | undefined, expression: string, where: string): string {
  switch (name) {
    case 'uuid':
      return crypto().randomUUID();
    case 'integer': {
      const [from, to] = range(args, expression, where);
      if (Math.floor(to) <= Math.ceil(from)) throw new VariableError(`{{${expression}}} needs from < to${where}`);
      return randomInteger(Math.ceil(from), Math.floor(to), expression, where);
    }
    case 'float': {
      const [from, to] = range(args, expression, where);
      // [from, to), as documented: empty when to ≤ from.
      if (!(to > from) || !Number.isFinite(to - from)) throw new VariableError(`{{${expression}}} needs from < to${where}`);
      return String(from + Math.random() * (to - from));
    }
    case 'alphabetic':
      return randomText(ALPHA, numbers(args, 1, expression, where)[0] as number, expression, where);
    case 'alphanumeric':
      return randomText(`${ALPHA}0123456789_`, numbers(args, 1, expression, where)[0] as number, expression, where);
    case 'hexadecimal':
      return randomText('0123456789abcdef', numbers(args, 1, expression, where)[0] as number, expression, where);
    case 'email':
      return `${randomText(ALPHA.slice(0, 26), 8, expression, where)}@${randomText(ALPHA.slice(0, 26), 6, expression, where)}.com`;
    default:
      throw unknown(`$random.${name}`, where);
  }
}

const KNOWN = '$guid, $uuid, $random.uuid, $randomInt [min max], $random.integer(a, b), $random.float(a, b), $random.alphabetic(n), $random.alphanumeric(n), $random.hexadecimal(n), $random.email, $timestamp [offset unit], $isoTimestamp, $datetime, $localDatetime, $processEnv NAME, $env.NAME, $dotenv NAME';

/** The tools' variables reqflow knows and does not make: said as such, not as unknown ones. */
function unsupported(name: string, where: string): VariableError | undefined {
  if (/^\$(aadToken|aadV2Token|oidcAccessToken)$/.test(name)) {
    return new VariableError(`{{${name}}} is VS Code REST Client's sign-in (Azure AD, OpenID Connect), which reqflow does not do${where}`, { hint: 'pass the token as a variable (-e token=…) or use an oauth2 profile (docs/oauth.md)' });
  }
  if (name === '$exampleServer') return new VariableError(`{{$exampleServer}} is the JetBrains IDE's own examples server, which reqflow does not know${where}`, { hint: 'write the address of the server to send to' });
  // JetBrains' Java Faker generators (`$random.address.city`): no generator here makes the same kind of values.
  if (/^\$random\.\w+\./.test(name)) return new VariableError(`{{${name}}} is one of JetBrains' Faker generators, which reqflow does not have${where}`, { hint: 'write a value, or use $random.alphabetic(n), $random.alphanumeric(n), $random.integer(a, b), $random.email' });
  return undefined;
}

function unknown(name: string, where: string): VariableError {
  return unsupported(name, where) ?? new VariableError(`unknown system variable {{${name}}}${where}`, { hint: `known: ${KNOWN}` });
}

function processEnv(name: string, ctx: SystemContext, expression: string): string {
  // Own names only: `{{$processEnv constructor}}` is unset, not `function () { [native code] }` sent.
  const value = Object.hasOwn(ctx.env, name) ? ctx.env[name] : undefined;
  if (value === undefined) throw new VariableError(`environment variable ${name} is not set (${`{{${expression}}}`})${ctx.where}`, { hint: `export ${name}=... before running` });
  return value;
}

/**
 * The file `$dotenv` reads, as VS Code REST Client finds it (`registerDotenvVariable`): from the
 * request file's folder up, the first folder holding `.env.ENVIRONMENT` (the one picked) or `.env`,
 * the former first. Up to the project's root (docs/environments.md), as the other `.env` values.
 */
function dotenvFile(ctx: SystemContext): { path?: string; searched: string } {
  const start = resolve(ctx.baseDir ?? process.cwd());
  const root = projectRoot(start);
  // A name that is a path (`--env ../x`) names no file of a folder.
  const named = ctx.environmentName !== undefined && !/[\\/]/.test(ctx.environmentName) ? `.env.${ctx.environmentName}` : undefined;
  for (let at = start; ; at = dirname(at)) {
    // Any entry there is the one (VS Code's `existsSync`): one that is no file — a device, a pipe — is refused by the read, by name.
    for (const name of named ? [named, '.env'] : ['.env']) if (existsSync(join(at, name))) return { path: join(at, name), searched: start };
    if (at === root || dirname(at) === at) return { searched: start === root ? start : `${start} up to ${root}` };
  }
}

/** `NAME` of the `.env` file found (`#` comments, optional quotes, `export`). */
function dotenv(name: string, ctx: SystemContext, expression: string): string {
  const { path, searched } = dotenvFile(ctx);
  const files = ctx.environmentName === undefined ? '.env' : `.env.${ctx.environmentName} or .env`;
  if (path === undefined) throw new VariableError(`{{${expression}}}: no ${files} file in ${searched}${ctx.where}`);
  let text: string;
  try {
    text = readConfigFile(path);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new VariableError(`{{${expression}}}: cannot read ${path}${ctx.where}`);
  }
  const value = parseDotenv(text)[name];
  if (value !== undefined) return value;
  throw new VariableError(`{{${expression}}}: ${name} is not in ${path}${ctx.where}`);
}

/**
 * The value of a `$…` expression, or an exit-3 error. `lookup` resolves `%name` arguments
 * (VS Code: `{{$processEnv %envVarName}}` takes the variable's value as the name).
 */
export async function systemVariable(expression: string, ctx: SystemContext, lookup: (name: string) => Promise<string>): Promise<string> {
  const space = expression.search(/\s/);
  const head = space < 0 ? expression : expression.slice(0, space);
  const args = space < 0 ? '' : expression.slice(space + 1).trim();
  const nameArg = async (): Promise<string> => {
    const [word = ''] = words(args);
    if (word === '') throw new VariableError(`{{${expression}}} needs a name${ctx.where}`);
    return word.startsWith('%') ? lookup(word.slice(1)) : word;
  };
  if (head.startsWith('$env.')) return processEnv(head.slice(5), ctx, expression);
  const call = /^\$random\.(\w+)(?:\((.*)\))?$/s.exec(expression); // `(1, 10)` may hold spaces
  if (call) return jetbrainsRandom(call[1] as string, call[2], expression, ctx.where);
  switch (head) {
    case '$guid':
    case '$uuid':
      return crypto().randomUUID();
    case '$randomInt': {
      if (args === '') return String(crypto().randomInt(0, 1000));
      const [min, max] = words(args).map(Number);
      if (!Number.isInteger(min) || !Number.isInteger(max) || (max as number) <= (min as number)) throw new VariableError(`{{${expression}}} expects two whole numbers, min < max${ctx.where}`);
      return randomInteger(min as number, max as number, expression, ctx.where); // [min, max), as VS Code
    }
    case '$timestamp': {
      const [offset, unit] = words(args);
      return String((await shifted(ctx.now?.() ?? Date.now(), offset, unit, false, expression, ctx.where)).unix());
    }
    case '$isoTimestamp':
      return new Date(ctx.now?.() ?? Date.now()).toISOString();
    case '$datetime':
      return datetime(args, expression, false, ctx);
    case '$localDatetime':
      return datetime(args, expression, true, ctx);
    case '$processEnv':
      return processEnv(await nameArg(), ctx, expression);
    case '$dotenv':
      return dotenv(await nameArg(), ctx, expression);
    default:
      throw unknown(head, ctx.where);
  }
}
