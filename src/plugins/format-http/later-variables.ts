/**
 * A file variable a request uses above its definition (`@endpoint = …` at the end of the file):
 * VS Code reads the `@name = value` lines of the whole document (`FileVariableProvider`, the last
 * definition of a name wins), httpyac runs every global region before a request, and JetBrains'
 * in-place variables are the file's. Read again from the file, once per run, and only where a
 * name nothing else defines is met (the unknown-variable path).
 */
import { importedHttpScope } from './parse-http.js';
import { readHttpText } from './read-http-text.js';

/** `runState` key: each request file's variables as they stand at its end. */
const LATER_VARIABLES = 'format-http.later-variables';

type Cache = Map<string, Promise<Readonly<Record<string, string>>>>;

/** The file's variables at its end; none for a file that is not `.http`/`.rest` or cannot be read. */
async function variablesAtEnd(file: string): Promise<Readonly<Record<string, string>>> {
  const text = await readHttpText(file);
  return text === undefined ? {} : importedHttpScope(text, file).variables;
}

/** The last definition of `name` in `file` (absolute), or undefined when the file defines none. */
export async function laterFileVariable(file: string, name: string, runState: Record<string, unknown>): Promise<string | undefined> {
  const cache = (runState[LATER_VARIABLES] ??= new Map()) as Cache;
  let variables = cache.get(file);
  if (!variables) {
    variables = variablesAtEnd(file);
    cache.set(file, variables);
  }
  const found = await variables;
  return Object.hasOwn(found, name) ? found[name] : undefined;
}
