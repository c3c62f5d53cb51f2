/**
 * VS Code's `{{$shared name}}` in environment values (docs/environments.md): the `$shared` value
 * of that name, itself expanded, so `$shared` values may name each other. A value naming one
 * that `$shared` does not have is left unusable: a request that uses it is exit 2 naming the
 * file, the value and the name, and the file's other requests run (VS Code REST Client sends the
 * text `undefined` in its place: `mapEnvironmentVariables`). A value whose `$shared` references
 * come back to themselves is a cycle: it is left unusable too, and a request that uses it is
 * exit 3 naming the cycle and the file, as any other variable cycle is.
 */
import { UsageError } from './errors/index.js';
import { emptyValues, type EnvironmentValues } from './environment-values.js';
import { through } from './expansion-error.js';
import { MAX_EXPANSION_MIB, MAX_VARIABLE_NESTING } from './input-limits.js';

const SHARED_REFERENCE = /\{\{\s*\$shared\s+([^\s{}]+)\s*\}\}/g;
const LIMIT = MAX_EXPANSION_MIB * 1024 * 1024;

/** The `$shared` layer: its values, and the file that defines each (for messages). */
export interface SharedLayer {
  vars: Readonly<Record<string, string>>;
  files: ReadonlyMap<string, string>;
}

/** Thrown inside the expansion only: the `$shared` names of a cycle, from the value's first reference back to itself. */
class SharedCycle {
  constructor(readonly names: string[]) {}
}

/** Thrown inside the expansion only: a `{{$shared key}}` that `$shared` does not have, and the `$shared` names it was reached through. */
class SharedMissing {
  constructor(
    readonly key: string,
    readonly through: string[],
  ) {}
}

/** Thrown inside the expansion only: the `$shared` names of a chain past {@link MAX_VARIABLE_NESTING}, outermost first. */
class SharedTooDeep {
  constructor(readonly names: string[]) {}
}

/**
 * Each value of `own` (environment `env` of `file`, or the `$shared` layer itself: `env` is
 * `$shared`, each value's file in `shared.files`) with its `{{$shared name}}` references replaced. Expanded `$shared` values are kept
 * for the next reference, so values that name each other many times are expanded once each; all
 * of them together, like any one value, may come to at most {@link MAX_EXPANSION_MIB} MiB.
 */
export function expandSharedReferences(own: EnvironmentValues, shared: SharedLayer, file: string, env: string): EnvironmentValues {
  const expanded = new Map<string, string>();
  let kept = 0;
  const tooLong = (at: string): UsageError => new UsageError(`${at}: its {{$shared …}} values come to more than ${MAX_EXPANSION_MIB} MiB of text`, { hint: 'name each $shared value once or twice, not thousands of times' });
  const expand = (text: string, stack: readonly string[], at: string): string => {
    if (!text.includes('$shared')) return text;
    let added = 0;
    return text.replace(SHARED_REFERENCE, (_whole, key: string) => {
      if (!Object.hasOwn(shared.vars, key)) throw new SharedMissing(key, [...stack]);
      if (stack.includes(key)) throw new SharedCycle([...stack, key]);
      let value = expanded.get(key);
      if (value === undefined) {
        // Before the call stack runs out (thousands deep: exit 70), as the resolver's own limit.
        if (stack.length >= MAX_VARIABLE_NESTING) throw new SharedTooDeep([...stack, key]);
        value = expand(shared.vars[key] as string, [...stack, key], `${shared.files.get(key) ?? file}: $shared.${key}`);
        kept += value.length;
        if (kept > LIMIT) throw tooLong(at);
        expanded.set(key, value);
      }
      added += value.length;
      if (added > LIMIT) throw tooLong(at);
      return value;
    });
  };
  // The `$shared` layer's values come from several files: each is named by its own.
  const fileOf = (name: string): string => (env === '$shared' ? (shared.files.get(name) ?? file) : file);
  const out: EnvironmentValues = { vars: emptyValues().vars, unusable: own.unusable };
  for (const [name, value] of Object.entries(own.vars)) {
    try {
      // A `$shared` value is the first name of its own cycle; an environment's `a` is another variable than `$shared a`.
      out.vars[name] = expand(value, env === '$shared' ? [name] : [], `${fileOf(name)}: ${env}.${name}`);
    } catch (error) {
      if (error instanceof SharedTooDeep) {
        const chain = error.names.map((key) => `$shared ${key}`);
        throw new UsageError(`${fileOf(name)}: ${env}.${name}: its {{$shared …}} values nest more than ${MAX_VARIABLE_NESTING} deep${through(chain)}`, { hint: `a $shared value may name another, at most ${MAX_VARIABLE_NESTING} levels down` });
      }
      if (error instanceof SharedMissing) {
        // Only the requests that use this value are refused (a request that does not, runs).
        const names = Object.keys(shared.vars);
        // A `$shared` value's own name leads its stack: the names after it are the ones it went through.
        const via = error.through.slice(env === '$shared' ? 1 : 0).map((key) => `$shared ${key}`);
        out.unusable[name] = {
          what: `{{$shared ${error.key}}}${via.length > 0 ? ` (through ${via.join(' → ')})` : ''}, a name $shared does not have`,
          where: `${env}.${name}`,
          file: fileOf(name),
          hint: names.length > 0 ? `$shared has: ${names.join(', ')}` : 'no file defines $shared values',
        };
        continue;
      }
      if (!(error instanceof SharedCycle)) throw error;
      const cycle = error.names.map((key) => `$shared ${key}`);
      if (env !== '$shared') cycle.unshift(`${env}.${name}`);
      out.unusable[name] = { what: `a variable cycle: ${cycle.join(' → ')}`, where: `${env}.${name}`, file: fileOf(name), hint: 'a variable cannot refer to itself, directly or through others', cycle: true };
    }
  }
  return out;
}
