import type { RequestSpec } from '../core/model.js';
import { chainingAnnotation } from '../chain/chain-annotations.js';
import { NameTable } from './name-table.js';

/**
 * The requests of one file as a run takes them: how many, their names, and each request built
 * when asked. A long `.http` file builds it again from its text each time, so a run keeps none
 * of them and its memory does not grow with the file; a short one (`KEEP_PARSED_BYTES` in
 * parse-file.ts) and other formats hold their parsed list.
 */
export interface RequestFile {
  readonly count: number;
  /** The name of request `index`, without building it. */
  name(index: number): string;
  /** The position of the first request named `name`, −1 when none is (references, `# @ref`). */
  indexOf(name: string): number;
  /** Request `index` (0-based), with its `source.index`: a fresh object for a long `.http` file (the loop copies it either way). */
  spec(index: number): RequestSpec;
  /** The positions of the requests whose annotations carry a filter (checked before anything is sent). */
  readonly filtered: readonly number[];
  /** The positions of the requests that may take part in chaining (`mayRefer`); absent: any may. */
  readonly linked?: readonly number[];
  /** The positions of the requests whose URL, written whole (no template), cannot be sent (`unsendable-urls.ts`). */
  readonly unsendable?: readonly number[];
}

const HEAD = /\{\{\s*[\w-]+\./;

/**
 * Could the request take part in chaining: checks, scripts, `# @ref`…, a chaining annotation
 * (`# @capture`, `expected*`), a `{{name.…}}` template in any text (file variables too), or a
 * `<@ file` whose text may hold one? Asked of every request of a file as it is parsed: it tests
 * the texts in place, building no list of them.
 */
export function mayRefer(spec: RequestSpec): boolean {
  if (spec.chain !== undefined || HEAD.test(spec.url) || (spec.body !== undefined && HEAD.test(String(spec.body)))) return true;
  // `# @loop for item of {{list.response.body.$.items}}`: the loop's values read a request too.
  if (spec.loop !== undefined && (HEAD.test(spec.loop.values ?? '') || HEAD.test(spec.loop.count ?? ''))) return true;
  for (const name in spec.headers) {
    const value = spec.headers[name] as string | readonly string[];
    if (typeof value === 'string' ? HEAD.test(value) : value.some((line) => HEAD.test(line))) return true;
  }
  if (spec.bodyParts?.some((part) => (part.kind === 'text' ? HEAD.test(part.text) : part.substitute)) === true) return true;
  for (const name in spec.fileVariables) if (HEAD.test(spec.fileVariables[name] as string)) return true;
  for (const name in spec.annotations) if (chainingAnnotation(name)) return true;
  return false;
}

/** Does the request's own filter (`# @filter`, `# @query`) need checking? */
export const carriesFilter = (spec: RequestSpec): boolean => spec.annotations.filter !== undefined || spec.annotations.query !== undefined;

/** Requests already parsed (`reqflow send`, imported files, the TUI) as a RequestFile. */
export function listedRequests(specs: readonly RequestSpec[]): RequestFile {
  let names: NameTable | undefined; // made when a name is first looked up
  return {
    count: specs.length,
    name: (index) => (specs[index] as RequestSpec).name,
    indexOf: (name) => (names ??= NameTable.of(specs.map((spec) => spec.name))).indexOf(name),
    spec: (index) => specs[index] as RequestSpec,
    filtered: specs.flatMap((spec, index) => (carriesFilter(spec) ? [index] : [])),
  };
}

/** Every request of the file, in order, each built as the loop reaches it. */
export function* requestsOf(file: RequestFile, indices?: Iterable<number>): Generator<RequestSpec> {
  if (indices) for (const index of indices) yield file.spec(index);
  else for (let index = 0; index < file.count; index++) yield file.spec(index);
}
