/**
 * What the layers of the streaming JSON pretty-printer share: limits, token states, errors, the
 * frame of an open container and small byte helpers. The design is in json-stream-pretty.ts.
 */
import type { Palette } from './colors.js';

/** Output held back for reordering before an object is written out as it comes. */
export const COMMIT_BYTES = 1 << 20;
/** Containers nested deeper than this are not pretty-printed (shown as text, with a warning). */
export const MAX_DEPTH = 1000;
/** Output is handed to `write` in pieces of at least this size. */
export const FLUSH_BYTES = 64 * 1024;
/** Small to start with (most bodies are small, and a batch run prints thousands); grows as needed. */
export const INITIAL_BYTES = 4 * 1024;
/**
 * Longest number printed (it is held whole, to be checked and written as the server wrote it);
 * `holdLimit` when smaller. No real number comes near it: an endless one is refused here.
 */
export const MAX_NUMBER_BYTES = 1 << 20;
/** Longest literal (`false`): a longer run of letters is not JSON. */
export const MAX_LITERAL_BYTES = 5;
/** Keys remembered per written-out object to spot a late duplicate. */
export const MAX_TRACKED_KEYS = 100_000;
/** Objects with more keys than this do not become the shape their siblings are compared with. */
export const MAX_SHAPE_KEYS = 1000;
/** Largest array index key (JS objects order these first): 2^32 - 2. */
const MAX_INDEX = 4294967294;

export const enum Expect {
  Value,
  ValueOrClose,
  Key,
  KeyOrClose,
  Colon,
  CommaOrClose,
  Done,
}

export const enum Token {
  None,
  String,
  Key,
  Number,
  Literal,
}

/** A JSON syntax error; `offset` is the byte position in the whole input. */
export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at position ${offset}`);
    this.name = 'JsonSyntaxError';
  }
}

/** The input is not UTF-8 (JSON text always is). */
export class JsonEncodingError extends Error {
  constructor() {
    super('the input is not valid UTF-8');
    this.name = 'JsonEncodingError';
  }
}

/** More output would have to be held (for key reordering) than allowed. */
export class JsonHoldLimitError extends Error {
  constructor(readonly limit: number) {
    super(`an object whose keys must be reordered is larger than ${limit} bytes`);
    this.name = 'JsonHoldLimitError';
  }
}

/** A number longer than {@link MAX_NUMBER_BYTES} (or `holdLimit`). */
export class JsonNumberLimitError extends Error {
  constructor(readonly limit: number) {
    super(`a JSON number longer than ${limit} bytes`);
    this.name = 'JsonNumberLimitError';
  }
}

export interface Frame {
  isObject: boolean;
  /** Nesting depth of the container's members (1 for a top-level container). */
  depth: number;
  count: number;
  /** Objects: absolute output offset of `{`. */
  start: number;
  /** Objects: written out already (no reordering possible any more). */
  committed: boolean;
  /**
   * Objects: the keys of the previous object at this depth. While this object's keys repeat
   * them in order (the usual case: an array of records), no key can be a duplicate or out of
   * order, and nothing else needs remembering.
   */
  shape: string[] | undefined;
  shapeOk: boolean;
  /** Objects: decoded keys in document order, once they differ from `shape` (null: too many to track). */
  keys: string[] | null;
  keySet: Set<string> | undefined;
  /** Objects: absolute output offset where each member's text starts (after the comma). */
  memberStarts: number[];
  lastIndex: number;
  sawNonIndex: boolean;
  /** Objects: some key needs reordering or is a duplicate. */
  disorder: boolean;
}

export interface JsonPrettyOptions {
  /** Colours for keys, strings, numbers and literals (plain when absent). */
  colors?: Palette;
  /** Most bytes held for an object that needs reordering (default: unlimited). */
  holdLimit?: number;
  /** Called (once) when a written-out object turns out to need reordering. */
  onWarning?: (message: string) => void;
}

export const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const INDEX_KEY = /^(?:0|[1-9]\d{0,9})$/;
export const SHORT_ESCAPES: Record<number, string> = { 0x22: '\\"', 0x5c: '\\\\', 0x08: '\\b', 0x0c: '\\f', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t' };
/** `\X` escapes other than `\u`: the code unit each stands for. */
export const ESCAPED: Record<number, number> = { 0x22: 0x22, 0x5c: 0x5c, 0x2f: 0x2f, 0x62: 0x08, 0x66: 0x0c, 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09 };
export const LITERALS = ['true', 'false', 'null'].map((word) => Buffer.from(word));
const EMPTY = new Uint8Array(0);

export function isIndexKey(key: string): boolean {
  const first = key.charCodeAt(0);
  return first >= 0x30 && first <= 0x39 && INDEX_KEY.test(key) && Number(key) <= MAX_INDEX;
}

export function isDigit(byte: number): boolean {
  return byte >= 0x30 && byte <= 0x39;
}

export function isNumberByte(byte: number): boolean {
  return isDigit(byte) || byte === 0x2d || byte === 0x2b || byte === 0x2e || byte === 0x65 || byte === 0x45;
}

export function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

/** Bytes in the UTF-8 sequence that starts with `lead` (1 for anything not a lead byte). */
export function sequenceLength(lead: number): number {
  return lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
}

export function describe(byte: number | undefined): string {
  if (byte === undefined) return 'end of input';
  return byte >= 0x20 && byte < 0x7f ? `token ${JSON.stringify(String.fromCharCode(byte))}` : `byte 0x${byte.toString(16).padStart(2, '0')}`;
}

/** ANSI wrappers of one palette colour, as bytes: [open, close]. */
export function wrapper(colour: ((text: string) => string) | undefined): [Uint8Array, Uint8Array] {
  if (!colour) return [EMPTY, EMPTY];
  const [open = '', close = ''] = colour('\u0000').split('\u0000');
  return [Buffer.from(open), Buffer.from(close)];
}
