/**
 * The files an OpenAPI import reads: the spec, and the `.json`, `.yaml` and `.yml` files of its
 * project that its `$ref`s name — nothing else, and nothing over the network. A spec comes from
 * someone else: a `$ref` to `~/.aws/credentials` would put that file's text into an example body,
 * sent to the spec's server by the first run of the imported request. Each file is read and
 * parsed once, here, and checked for YAML aliases that expand past the limit before anything
 * walks it; the parser library is handed copies of these values, never the bytes.
 */
import { closeSync, openSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as jsYaml from 'js-yaml';
import { DEFAULT_SCHEMA, load, type LoadOptions, type Schema } from 'js-yaml';
import { UsageError } from '../../core/errors/index.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../core/json-depth.js';
import { cloneJson, hasInexactNumbers, parseJsonExact, plainNumbers } from '../../core/json-exact.js';
import { notAFile } from '../../core/not-a-file.js';
import { isInside, projectRoot, real } from '../../core/project.js';
import { readAtMost } from '../../core/read-bounded.js';
import { decode } from '../../core/read-config-file.js';
import { deepNestingWords, importLimitWords } from '../source.js';
import { expansionPastLimit } from '../../plugins/format-yaml/alias-expansion.js';
import { exactNumbersSchema } from '../../plugins/format-yaml/exact-numbers.js';
import { firstLine } from '../../core/first-line.js';

const SPEC_FILES = new Set(['.json', '.yaml', '.yml']);

/** What js-yaml's parse events (`listener`) show of a node: its `&anchor`, if it has one (js-yaml's types leave the field out). */
interface NodeEvent {
  anchor?: string | null;
}

/** The resolver `@readme/openapi-parser` (json-schema-ref-parser) calls for every file; `read` may give a parsed value. */
interface FileResolver {
  canRead: (file: { url: string }) => boolean;
  read: (file: { url: string }) => Promise<unknown>;
}

/**
 * JSON, else YAML (JSON.parse first: it is many times faster, and JSON holds no aliases). YAML
 * is read as the parser library reads it: the core schema (a date stays a string), else js-yaml's
 * default one (`!!binary`, `!!set`). Whether the text holds an anchor is told by js-yaml's own
 * parse events: `&` in prose (`R &D`) or in a URL (`?a=1&b=2`) is no anchor. Numbers a double
 * cannot give back as written (`1.10`, `12345678901234567890`) are kept as their text
 * (json-exact.ts): an import sends the examples, a mock serves them. Undefined: JSON nested past
 * {@link MAX_JSON_DEPTH}, found before anything recursive (lossless-json, the parser library)
 * walks it (js-yaml stops at that depth itself).
 */
function parseText(text: string): { value: unknown; anchored: boolean } | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined; // not JSON: YAML below
  }
  if (json !== undefined) {
    if (nestedDeeperThan(json, MAX_JSON_DEPTH)) return undefined;
    return { value: hasInexactNumbers(text) ? parseJsonExact(text).value : json, anchored: false };
  }
  let anchored = false;
  // js-yaml's own limit is 100 levels; the importer's is the one every source has (deepNestingWords).
  const options = (schema: Schema): LoadOptions & { maxDepth: number } => ({
    schema,
    maxDepth: MAX_JSON_DEPTH,
    listener: (event, state) => {
      if (event === 'close' && typeof (state as NodeEvent).anchor === 'string') anchored = true;
    },
  });
  const read = (schema: Schema): unknown => load(text, options(schema));
  let value: unknown;
  try {
    value = read(exactNumbersSchema(jsYaml));
  } catch {
    anchored = false;
    value = read(DEFAULT_SCHEMA);
  }
  return { value, anchored };
}

export class SpecFiles {
  /** The spec itself, links resolved: read whatever its extension. */
  private readonly own: string;
  /** The folder `$ref`s may read in (src/core/project.ts). */
  readonly root: string;
  /** Each file once, by its real path: the parse, or why it was refused. */
  private readonly parsed = new Map<string, Promise<unknown>>();
  /** Why the last file was refused (without the spec's name), for the parser library's error, which wraps it as "Error reading file". */
  refused: string | undefined;

  /**
   * @param spec the spec's path as it was given, for messages
   * @param maxBytes the most bytes each file may have (`--max-size`)
   * @param reader who reads, for the words of a refusal (`not imported`, `not read`)
   */
  constructor(
    private readonly spec: string,
    private readonly maxBytes: number,
    private readonly reader: 'import' | 'mock' = 'import',
  ) {
    this.own = real(resolve(spec));
    this.root = projectRoot(dirname(this.own));
  }

  /** A `$ref`'s file (a path, or a `file:` URL) as a real path. */
  static pathOf(url: string): string {
    return real(url.startsWith('file:') ? fileURLToPath(url) : resolve(url));
  }

  /** Whether a `$ref` names a file at all: `https://…` (or any scheme but `file:`) is never read. */
  static isLocal(url: string): boolean {
    return !/^[a-z][a-z0-9+.-]+:/i.test(url) || url.startsWith('file:');
  }

  /**
   * The parsed value of `path` (the spec, or a file in its project): exit 2 naming it for a file
   * outside, of another kind, unreadable, not YAML or JSON, or whose aliases expand past the limit.
   */
  value(path: string): Promise<unknown> {
    const file = SpecFiles.pathOf(path);
    let value = this.parsed.get(file);
    if (value === undefined) {
      value = this.read(file);
      this.parsed.set(file, value);
      // Awaited by whoever asked; marked handled so a refusal nobody awaits again is not "unhandled".
      value.catch(() => undefined);
    }
    return value;
  }

  private async read(path: string): Promise<unknown> {
    const own = path === this.own;
    // The spec's own faults name it as it was given; another file's, the spec and that file.
    const fault: (why: string, hint?: string) => never = (why, hint) => this.refuse(own ? why : `$ref to ${path} not read: ${why}`, hint);
    const kind = notAFile(path);
    if (!own && !isInside(this.root, path)) fault(`outside the spec's project (${this.root})`);
    if (!own && !SPEC_FILES.has(extname(path).toLowerCase())) fault('only .json, .yaml and .yml files are read');
    if (kind) fault(`it is ${kind}, not a file`);
    let bytes: Buffer;
    let fd: number | undefined;
    try {
      fd = openSync(path, 'r');
      // Its size checked before a byte is read (a pipe's as it arrives); refused naming the file.
      bytes = readAtMost(fd, this.maxBytes, (past) => {
        const { why, hint } = importLimitWords(past, this.maxBytes, this.reader);
        return fault(why, hint);
      });
    } catch (error) {
      if (error instanceof UsageError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      fault(code === 'ENOENT' ? 'no such file' : `cannot read it: ${code}`);
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    let parsed: { value: unknown; anchored: boolean } | undefined;
    try {
      parsed = parseText(decode(bytes, own ? this.spec : path).replace(/^\uFEFF/, ''));
    } catch (error) {
      if (error instanceof UsageError && own) throw error;
      fault(`not valid YAML or JSON: ${firstLine(error)}`, 'expected an OpenAPI 3.x or Swagger 2.0 description');
    }
    if (parsed === undefined) fault(deepNestingWords(this.reader));
    // js-yaml hands back one shared object per anchor; everything after (the parser library's walks, the examples) expands every repetition: a 700-byte "billion laughs" took 43 s.
    const past = parsed.anchored ? expansionPastLimit(parsed.value) : undefined;
    if (past !== undefined) fault(`its YAML aliases (*name) expand to more than ${past}: not imported`, 'write the repeated parts out, or remove the aliases');
    return parsed.value;
  }

  private refuse(why: string, hint?: string): never {
    this.refused = why;
    throw new UsageError(`${this.spec}: ${why}`, hint === undefined ? {} : { hint });
  }

  /**
   * The parser library's options: files only through {@link value} (each call gets its own copy:
   * dereferencing changes the value in place), remote `$ref`s an error, never a download.
   * `numbers`: `as-written` keeps the numbers kept as text (what is dereferenced, then made
   * ready by schema-numbers.ts; structuredClone would make them plain objects), `plain` makes
   * every one a number (what the validator checks: a `minimum` kept as text is no number to it).
   */
  options(numbers: 'as-written' | 'plain' = 'as-written'): never {
    const copy = numbers === 'plain' ? (value: unknown): unknown => plainNumbers(value)?.value ?? cloneJson(value) : cloneJson;
    const file: FileResolver = {
      canRead: (ref) => SpecFiles.isLocal(ref.url),
      read: async (ref) => copy(await this.value(ref.url)),
    };
    return {
      resolve: { file, http: { canRead: false } },
      // A schema that refers to itself stays a $ref where it loops (the sampler resolves it on its own).
      dereference: { circular: 'ignore' as const },
    } as never;
  }
}
