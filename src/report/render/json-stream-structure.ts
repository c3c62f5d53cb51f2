import { JsonOutput } from './json-stream-output.js';
import { COMMIT_BYTES, Expect, type Frame, MAX_SHAPE_KEYS, MAX_TRACKED_KEYS, Token, isIndexKey , JsonSyntaxError, MAX_DEPTH } from './json-stream-shared.js';

/**
 * The structure layer of the streaming JSON pretty-printer: containers, members and keys —
 * where separators and indents go, and which objects must be reordered (array-index keys,
 * duplicates) the way `JSON.parse` + `JSON.stringify` would.
 */
export abstract class JsonStructure extends JsonOutput {
  // ---- structure ----------------------------------------------------------------------

  /** Checks that a value may come here; writes what precedes it (separator and indent in arrays). */
  protected valuePrefix(b: Buffer, i: number): void {
    if (this.expect !== Expect.Value && this.expect !== Expect.ValueOrClose) this.fail(b, i);
    this.started = true;
    const top = this.top;
    if (top !== undefined && !top.isObject) this.indent(top.depth, top.count++ > 0);
  }

  /** Writes what precedes a key; notes where the member starts, for reordering. */
  protected memberPrefix(frame: Frame): void {
    const later = frame.count++ > 0;
    if (!frame.committed) frame.memberStarts.push(this.position() + (later ? 1 : 0));
    this.indent(frame.depth, later);
  }

  protected afterValue(): void {
    this.expect = this.top === undefined ? Expect.Done : Expect.CommaOrClose;
  }

  protected open(isObject: boolean): void {
    const depth = this.stack.length + 1;
    // Deeper than anyone reads: its indentation alone would be gigabytes (100,000 levels: ~20 GB).
    if (depth > MAX_DEPTH) throw new JsonSyntaxError(`nested deeper than ${MAX_DEPTH} levels`, this.consumed);
    const shape = isObject ? this.shapes[depth] : undefined;
    const frame: Frame = {
      isObject,
      depth,
      count: 0,
      start: this.position(),
      committed: false,
      shape,
      shapeOk: shape !== undefined,
      keys: isObject && shape === undefined ? [] : null,
      keySet: undefined,
      memberStarts: [],
      lastIndex: -1,
      sawNonIndex: false,
      disorder: false,
    };
    this.stack.push(frame);
    this.top = frame;
    this.byte(isObject ? 0x7b : 0x5b);
    this.expect = isObject ? Expect.KeyOrClose : Expect.ValueOrClose;
  }

  protected close(isObject: boolean, b: Buffer, i: number): void {
    const frame = this.top;
    const allowed = isObject ? this.expect === Expect.KeyOrClose : this.expect === Expect.ValueOrClose;
    if (!frame || frame.isObject !== isObject || (!allowed && this.expect !== Expect.CommaOrClose)) this.fail(b, i);
    this.stack.pop();
    this.top = this.stack[this.stack.length - 1];
    if (isObject && !frame.committed) {
      if (frame.disorder) this.reorder(frame);
      else if (!frame.shapeOk && frame.keys && frame.keys.length <= MAX_SHAPE_KEYS) this.shapes[frame.depth] = frame.keys;
    }
    if (frame.count > 0) this.indent(frame.depth - 1, false);
    this.byte(isObject ? 0x7d : 0x5d);
    this.afterValue();
  }

  /** The closing quote of a string or key has been read. */
  protected endString(): void {
    if (this.highSurrogate >= 0) this.unit(-1);
    this.byte(0x22);
    if (this.token === Token.Key) {
      this.token = Token.None;
      this.finishKey();
    } else {
      this.token = Token.None;
      this.bytes(this.stringColour[1]);
      this.afterValue();
    }
  }

  protected finishKey(): void {
    const frame = this.top as Frame;
    const from = this.keyStart + 1 - this.base;
    const to = this.p - 1;
    if (!this.sameAsShape(frame, from, to)) {
      const text = this.o.toString('utf8', from, to);
      this.checkKey(frame, this.keyDecodes ? (JSON.parse(`"${text}"`) as string) : text);
    }
    this.bytes(this.keyColour[1]);
    this.ensure(2);
    this.o[this.p++] = 0x3a;
    this.o[this.p++] = 0x20;
    this.expect = Expect.Colon;
  }

  /** Is the key just written (ASCII, no escapes) the one the previous sibling had here? */
  protected sameAsShape(frame: Frame, from: number, to: number): boolean {
    if (!frame.shapeOk || this.keyDecodes) return false;
    const expected = (frame.shape as string[])[frame.count - 1];
    if (expected === undefined || expected.length !== to - from) return false;
    const o = this.o;
    for (let k = 0; k < expected.length; k++) {
      const byte = o[from + k] as number;
      if (byte >= 0x80 || byte !== expected.charCodeAt(k)) return false;
    }
    return true;
  }

  /** Notes keys that `JSON.parse` would move (array indexes after other keys) or merge (duplicates). */
  protected checkKey(frame: Frame, key: string): void {
    const position = frame.count - 1;
    if (frame.shapeOk) {
      // Different from the previous sibling: remember the keys so far the long way.
      frame.shapeOk = false;
      frame.keys = (frame.shape as string[]).slice(0, position);
      for (const earlier of frame.keys) {
        if (isIndexKey(earlier)) frame.lastIndex = Number(earlier);
        else frame.sawNonIndex = true;
      }
    }
    let problem: string | undefined;
    const keys = frame.keys;
    if (keys) {
      if (keys.length > 16 && !frame.keySet) frame.keySet = new Set(keys);
      const seen = frame.keySet ? frame.keySet.has(key) : keys.includes(key);
      if (seen) problem = `duplicate key ${JSON.stringify(key)}`;
      if (keys.length >= MAX_TRACKED_KEYS && frame.committed) {
        frame.keys = null;
        frame.keySet = undefined;
      } else {
        keys.push(key);
        frame.keySet?.add(key);
      }
    }
    if (isIndexKey(key)) {
      const index = Number(key);
      if (frame.sawNonIndex || index <= frame.lastIndex) problem ??= `key ${JSON.stringify(key)} that JSON.parse moves forward`;
      frame.lastIndex = Math.max(frame.lastIndex, index);
    } else {
      frame.sawNonIndex = true;
    }
    if (problem === undefined) return;
    if (!frame.committed) {
      frame.disorder = true;
    } else if (!this.warned) {
      this.warned = true;
      this.options.onWarning?.(`an object larger than ${COMMIT_BYTES >> 20} MiB has a ${problem} after it was printed; it is shown in document order`);
    }
  }

  /**
   * Rewrites a held object's members in `JSON.parse` order: array-index keys first in
   * ascending order, then the others in first-seen order, each with its last value.
   */
  protected reorder(frame: Frame): void {
    const keys = frame.keys as string[];
    const starts = frame.memberStarts;
    const end = this.position();
    const texts = starts.map((start, k) => Buffer.from(this.o.subarray(start - this.base, (k + 1 < starts.length ? (starts[k + 1] as number) - 1 : end) - this.base)));
    const slot = new Map<string, number>();
    const order: string[] = [];
    keys.forEach((key, k) => {
      if (!slot.has(key)) order.push(key);
      slot.set(key, k);
    });
    const indexes = order.filter(isIndexKey).sort((a, c) => Number(a) - Number(c));
    const others = order.filter((key) => !isIndexKey(key));
    const members = [...indexes, ...others].map((key) => texts[slot.get(key) as number] as Buffer);
    this.p = frame.start + 1 - this.base;
    members.forEach((member, k) => {
      if (k > 0) this.byte(0x2c);
      this.bytes(member);
    });
    frame.count = members.length;
  }

  /** Writes one UTF-16 code unit of a string the way JSON.stringify escapes it (-1: flush a pending surrogate). */
  protected abstract unit(unit: number): void;
}
