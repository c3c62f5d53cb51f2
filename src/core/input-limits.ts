/**
 * Bounds on what the files a project brings may make reqflow hold. One small module on the
 * plain path (the search and the resolver read them); the code that enforces each, and its
 * error, load only when a file or a template comes near it.
 */

/** The largest settings file (environment files, `.env`, `.profiles.json`): real ones are a few kilobytes (read-config-file.ts says why it is bounded). */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

/**
 * How much a text's templates may add to it (the resolver's `{{…}}`, VS Code's `{{$shared …}}`):
 * values that repeat each other (`a={{b}}{{b}}`, `b={{c}}{{c}}`, …: a "billion laughs") or one
 * value of 1 MB named a thousand times would otherwise grow past the longest string V8 holds.
 * Also the text a YAML file's aliases may expand to (`format-yaml/alias-expansion.ts`).
 */
export const MAX_EXPANSION_MIB = 64;

/**
 * How many variables deep one template may go (`a={{b}}`, `b={{c}}`, …): each level is a few
 * frames of the resolver's recursion, which overflows the call stack near a thousand. Real
 * files go a handful deep.
 */
export const MAX_VARIABLE_NESTING = 100;
