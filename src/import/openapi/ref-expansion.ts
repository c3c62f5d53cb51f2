/**
 * How large a spec is once every `$ref` is replaced by what it names — what the parser library's
 * validation and dereferencing walk. The library shares one object per target, but walks each
 * place it is used (its `circular: 'ignore'` mode re-crawls every one, and the schema validator
 * visits every path): a 2 KB spec whose schemas each refer to the next ten times, eight levels
 * deep, is 10^7 values (22 s), twenty times is a hang. Counted here first, over the shared graph
 * (each object once, memoised), in every file the spec names, and refused past the limit.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SpecFiles } from './spec-files.js';

/**
 * Values a spec may expand to: ten times the largest real specs measured (a 3,500-operation one
 * is 1.1 million), and a few seconds of the library's work (4.9 million took 2.7 s of CPU).
 */
export const MAX_EXPANDED_VALUES = 5_000_000;

/** How many `$ref`s a pointer may pass through on its way (`#/a/b` where `a` is itself a `$ref`). */
const MAX_POINTER_HOPS = 64;

type Node = Record<string, unknown> | unknown[];

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null;

/** The `$ref` of an object, if it is a reference (the library reads only a string there). */
const refOf = (node: Node): string | undefined => (!Array.isArray(node) && typeof node.$ref === 'string' ? node.$ref : undefined);

/** What a `$ref` names: its file (a real path; undefined for a remote one, never read) and its JSON pointer. */
function split(ref: string, base: string): { file: string | undefined; pointer: string } {
  const hash = ref.indexOf('#');
  const location = hash < 0 ? ref : ref.slice(0, hash);
  const pointer = hash < 0 ? '' : ref.slice(hash + 1);
  if (location === '') return { file: base, pointer };
  if (!SpecFiles.isLocal(location)) return { file: undefined, pointer };
  let path: string;
  try {
    path = location.startsWith('file:') ? fileURLToPath(location) : resolve(dirname(base), decodeURIComponent(location));
  } catch {
    path = resolve(dirname(base), location);
  }
  return { file: SpecFiles.pathOf(path), pointer };
}

/** Every `$ref`'s file the spec reaches, each file read once (and refused as {@link SpecFiles} says); `refs`: whether any holds a `$ref`. */
async function loadAll(files: SpecFiles, spec: string): Promise<{ loaded: Map<string, unknown>; refs: boolean }> {
  const loaded = new Map<string, unknown>();
  let refs = false;
  const queue = [SpecFiles.pathOf(spec)];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (loaded.has(file)) continue;
    const value = await files.value(file);
    loaded.set(file, value);
    const seen = new Set<Node>();
    const stack: unknown[] = [value];
    while (stack.length > 0) {
      const node = stack.pop();
      if (!isNode(node) || seen.has(node)) continue;
      seen.add(node);
      const ref = refOf(node);
      refs ||= ref !== undefined;
      const target = ref === undefined ? undefined : split(ref, file).file;
      if (target !== undefined && !loaded.has(target)) queue.push(target);
      stack.push(...(Array.isArray(node) ? node : Object.values(node)));
    }
  }
  return { loaded, refs };
}

interface Target {
  node: unknown;
  file: string;
}

/** `#/components/schemas/Pet` in a loaded file, through any `$ref` on the way; undefined where the library would fail (it says so itself). */
function resolveRef(ref: string, base: string, loaded: Map<string, unknown>): Target | undefined {
  let { file, pointer } = split(ref, base);
  for (let hop = 0; hop < MAX_POINTER_HOPS && file !== undefined && loaded.has(file); hop++) {
    let node: unknown = loaded.get(file);
    const keys = pointer === '' || pointer === '/' ? [] : pointer.replace(/^\//, '').split('/');
    let index = 0;
    for (; index < keys.length && isNode(node); index++) {
      const through = refOf(node);
      if (through !== undefined) break;
      let key = keys[index] as string;
      try {
        key = decodeURIComponent(key);
      } catch {
        // kept as written
      }
      node = (node as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    if (index === keys.length) return { node, file };
    const through = isNode(node) ? refOf(node) : undefined;
    if (through === undefined) return undefined;
    // A pointer through a `$ref`: on from what it names.
    const next = split(through, file);
    file = next.file;
    pointer = `${next.pointer.replace(/\/$/, '')}/${keys.slice(index).join('/')}`;
  }
  return undefined;
}

/**
 * Where the spec's expansion passes {@link MAX_EXPANDED_VALUES}: the innermost `$ref` being
 * expanded then (`#/components/schemas/S1`, `/abs/common.yaml: ./common.yaml#/Pet`), else the
 * place in the spec (`#/components/schemas/S0`); undefined within the limit. A `$ref` whose target leads back to itself stays a `$ref`
 * in the library's result (one value), and so does every `$ref` that leads into such a loop.
 */
export async function refExpansionPastLimit(files: SpecFiles, spec: string): Promise<string | undefined> {
  const { loaded, refs } = await loadAll(files, spec);
  // Without a `$ref` the spec is as large as its files (their aliases are bounded as they are read): a 3,500-operation spec is not walked again.
  if (!refs) return undefined;
  const root = SpecFiles.pathOf(spec);
  /** Each finished object's expanded size; `looped`: it leads into a loop of `$ref`s. */
  const sizes = new Map<Node, number>();
  const looped = new Set<Node>();
  interface Frame {
    node: Node;
    file: string;
    /** Its key in its parent: a path to name when no `$ref` is being expanded. */
    key: string;
    target?: Target;
    open: boolean;
  }
  const stack: Frame[] = [];
  /** The `$ref`s being expanded, innermost last: the one to name. */
  const expanding: string[] = [];
  /** The keys from the document's root to the object being counted. */
  const keys: string[] = [];
  const push = (value: unknown, file: string, key: string): void => {
    if (isNode(value) && !sizes.has(value)) stack.push({ node: value, file, key, open: false });
  };
  const start = loaded.get(root);
  if (!isNode(start)) return undefined;
  push(start, root, '');
  const opened = new Set<Node>();
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    const { node, file } = frame;
    if (!frame.open) {
      if (sizes.has(node) || opened.has(node)) {
        stack.pop();
        continue;
      }
      frame.open = true;
      opened.add(node);
      keys.push(frame.key);
      const ref = refOf(node);
      if (ref !== undefined) {
        expanding.push(file === root ? `$ref ${ref}` : `$ref ${ref} in ${file}`);
        frame.target = resolveRef(ref, file, loaded);
        if (frame.target !== undefined && !opened.has(frame.target.node as Node)) push(frame.target.node, frame.target.file, '$ref');
      }
      for (const [key, child] of Array.isArray(node) ? node.entries() : Object.entries(node)) if (key !== '$ref' && !opened.has(child as Node)) push(child, file, String(key));
      continue;
    }
    stack.pop();
    opened.delete(node);
    const at = expanding[expanding.length - 1] ?? `#${keys.map((key) => key.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
    keys.pop();
    // A child not finished now is one being expanded above: a loop, left as a `$ref`.
    const sizeOf = (value: unknown): number => (!isNode(value) ? 1 : (sizes.get(value) ?? 1));
    const loops = (value: unknown): boolean => isNode(value) && (looped.has(value) || !sizes.has(value));
    let values = 1;
    let loop = false;
    for (const [key, child] of Array.isArray(node) ? node.entries() : Object.entries(node)) {
      if (key === '$ref') continue;
      values += sizeOf(child);
      loop ||= loops(child);
    }
    const target = frame.target;
    if (refOf(node) !== undefined) {
      expanding.pop();
      if (target !== undefined && loops(target.node)) loop = true;
      // Replaced by its target (with any keys beside it), unless it leads into a loop.
      else if (target !== undefined) values += sizeOf(target.node) - 1;
    }
    if (loop) looped.add(node);
    sizes.set(node, values);
    if (values > MAX_EXPANDED_VALUES) return at;
  }
  return undefined;
}
