/**
 * Surgical edits of JSON text: a scanner that records where every value sits, and edits that
 * replace, insert or remove one member while leaving every other byte of the file as it was
 * (the user's formatting, key order, escapes, comments and neighbouring profiles). JSONC's
 * comments and trailing commas are read as the space between values.
 */

export interface JsonMember {
  key: string;
  /** Offset of the opening quote of the key. */
  keyStart: number;
  value: JsonNode;
}

export type JsonNode =
  | { kind: 'object'; start: number; end: number; members: JsonMember[] }
  | { kind: 'array'; start: number; end: number; items: JsonNode[] }
  | { kind: 'scalar'; start: number; end: number };

/** Scans a JSON or JSONC document (already known to be valid: parse it first). `end` is exclusive. */
export function scanJson(text: string): JsonNode {
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  /** Whitespace and comments. */
  const skip = (): void => {
    for (;;) {
      while (pos < text.length && /\s/.test(text[pos] as string)) pos += 1;
      if (text.startsWith('//', pos)) pos = text.includes('\n', pos) ? text.indexOf('\n', pos) + 1 : text.length;
      else if (text.startsWith('/*', pos)) pos = text.includes('*/', pos + 2) ? text.indexOf('*/', pos + 2) + 2 : text.length;
      else return;
    }
  };
  const stringEnd = (from: number): number => {
    let i = from + 1;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    return i + 1;
  };
  /** Reads the comma-separated entries of an object or array, from its opening to past its `close`. */
  const entries = (close: string, entry: () => void): void => {
    pos += 1;
    skip();
    while (text[pos] !== close) {
      entry();
      skip();
      if (text[pos] === ',') pos += 1;
      skip();
    }
    pos += 1;
  };
  const value = (): JsonNode => {
    skip();
    const start = pos;
    const ch = text[pos];
    if (ch === '{') {
      const members: JsonMember[] = [];
      entries('}', () => {
        const keyStart = pos;
        pos = stringEnd(pos);
        const key = JSON.parse(text.slice(keyStart, pos)) as string;
        skip();
        pos += 1; // ':'
        members.push({ key, keyStart, value: value() });
      });
      return { kind: 'object', start, end: pos, members };
    }
    if (ch === '[') {
      const items: JsonNode[] = [];
      entries(']', () => items.push(value()));
      return { kind: 'array', start, end: pos, items };
    }
    if (ch === '"') {
      pos = stringEnd(pos);
      return { kind: 'scalar', start, end: pos };
    }
    while (pos < text.length && !/[\s,\]}/]/.test(text[pos] as string)) pos += 1;
    return { kind: 'scalar', start, end: pos };
  };
  return value();
}

export function member(node: JsonNode, key: string): JsonMember | undefined {
  return node.kind === 'object' ? node.members.find((m) => m.key === key) : undefined;
}

/** The text's indentation unit (first indented line), or undefined for one-line documents. */
function indentUnit(text: string): string | undefined {
  const match = /\n([ \t]+)\S/.exec(text);
  return match ? match[1] : text.includes('\n') ? '  ' : undefined;
}

/** Leading whitespace of the line that holds `pos`. */
function lineIndent(text: string, pos: number): string {
  const lineStart = text.lastIndexOf('\n', pos - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
}

function isMultiline(text: string, node: JsonNode): boolean {
  return text.slice(node.start, node.end).includes('\n');
}

/** `value` as JSON text for a slot whose line is indented by `indent` (one line when `unit` is undefined). */
function serialise(value: unknown, unit: string | undefined, indent: string): string {
  if (unit === undefined) return JSON.stringify(value);
  return JSON.stringify(value, null, unit).split('\n').join(`\n${indent}`);
}

function splice(text: string, start: number, end: number, replacement: string): string {
  return text.slice(0, start) + replacement + text.slice(end);
}

/** Replaces a node's value text. */
function replaceNode(text: string, node: JsonNode, value: unknown): string {
  return splice(text, node.start, node.end, serialise(value, indentUnit(text), lineIndent(text, node.start)));
}

/**
 * Adds an entry after the last one of an object or array (`last`: its start and end), or as the
 * only one: on its own line indented like its siblings, or inline when the container is on one line.
 * `entry` writes the entry's text for a slot indented by `indent` (one line when `unit` is undefined).
 */
function addEntry(text: string, container: JsonNode, last: { start: number; end: number } | undefined, entry: (unit: string | undefined, indent: string) => string): string {
  const unit = indentUnit(text);
  if (!last) {
    const [open, close] = container.kind === 'object' ? ['{', '}'] : ['[', ']'];
    if (unit === undefined) return splice(text, container.start, container.end, `${open}${entry(unit, '')}${close}`);
    const outer = lineIndent(text, container.start);
    const inner = outer + unit;
    return splice(text, container.start, container.end, `${open}\n${inner}${entry(unit, inner)}\n${outer}${close}`);
  }
  if (unit === undefined || !isMultiline(text, container)) return splice(text, last.end, last.end, `, ${entry(undefined, '')}`);
  const indent = lineIndent(text, last.start);
  return splice(text, last.end, last.end, `,\n${indent}${entry(unit, indent)}`);
}

/** Sets `key` of an object: replaces its value in place, or adds the member after the last one. */
export function setMember(text: string, object: JsonNode, key: string, value: unknown): string {
  if (object.kind !== 'object') throw new Error('setMember needs an object');
  const existing = object.members.find((m) => m.key === key);
  if (existing) return replaceNode(text, existing.value, value);
  const last = object.members[object.members.length - 1];
  return addEntry(text, object, last && { start: last.keyStart, end: last.value.end }, (unit, indent) => `${JSON.stringify(key)}: ${serialise(value, unit, indent)}`);
}

/**
 * Removes `key` from an object together with its comma; a no-op when absent. A member on a line
 * of its own goes with its line; a comment above the next member stays.
 */
export function removeMember(text: string, object: JsonNode, key: string): string {
  if (object.kind !== 'object') return text;
  const index = object.members.findIndex((m) => m.key === key);
  if (index < 0) return text;
  const target = object.members[index] as JsonMember;
  const next = object.members[index + 1];
  if (next) {
    const comma = text.indexOf(',', target.value.end) + 1;
    const lineStart = text.lastIndexOf('\n', target.keyStart - 1) + 1;
    const ownLine = /^[ \t]*$/.test(text.slice(lineStart, target.keyStart)) && /^[ \t]*\r?\n/.test(text.slice(comma));
    if (!ownLine) return splice(text, target.keyStart, next.keyStart, '');
    return splice(text, lineStart, text.indexOf('\n', comma) + 1, '');
  }
  const previous = object.members[index - 1];
  if (previous) return splice(text, previous.value.end, target.value.end, '');
  return splice(text, object.start, object.end, '{}');
}

/** Replaces the element at `index` of an array. */
export function setItem(text: string, array: JsonNode, index: number, value: unknown): string {
  const item = array.kind === 'array' ? array.items[index] : undefined;
  if (!item) throw new Error('setItem needs an existing element');
  return replaceNode(text, item, value);
}

/** Appends an element to an array, indented like its siblings. */
export function appendItem(text: string, array: JsonNode, value: unknown): string {
  if (array.kind !== 'array') throw new Error('appendItem needs an array');
  return addEntry(text, array, array.items[array.items.length - 1], (unit, indent) => serialise(value, unit, indent));
}
