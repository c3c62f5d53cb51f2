/**
 * The string half of the streaming JSON printer (json-stream-pretty.ts): string contents,
 * escapes decoded and written again the way `JSON.stringify` does, UTF-8 sequences a terminal
 * acts on escaped — each of them possibly split across chunks.
 */
import { JsonStructure } from './json-stream-structure.js';
import { unsafeInJson } from './visible.js';
import { ESCAPED, JsonSyntaxError, SHORT_ESCAPES, Token, describe, hexValue, sequenceLength } from './json-stream-shared.js';

/**
 * Lead bytes of the UTF-8 sequences {@link unsafeInJson} matches (DEL; U+0080–U+009F start with
 * 0xC2, the bidi controls with 0xE2): the fast copy loops stop there.
 */
export function mayBeUnsafe(byte: number): boolean {
  return byte >= 0x7f && (byte === 0x7f || byte === 0xc2 || byte === 0xe2);
}

export abstract class JsonStrings extends JsonStructure {
  /** String content from `j` (the slow path); returns the index after the closing quote, or the chunk length. */
  protected scanString(b: Buffer, j: number): number {
    const n = b.length;
    for (;;) {
      if (this.split.length > 0) {
        j = this.scanSequence(b, j);
        if (this.split.length > 0) return n;
        continue;
      }
      if (this.escape !== 0) {
        j = this.scanEscape(b, j);
        if (this.escape !== 0) return n;
        continue;
      }
      if (j >= n) return n;
      const c = b[j] as number;
      if (c === 0x5c) {
        this.escape = 1;
        j++;
        continue;
      }
      if (this.highSurrogate >= 0) this.unit(-1);
      if (c === 0x22) {
        this.endString();
        return j + 1;
      }
      if (c < 0x20) throw new JsonSyntaxError('Bad control character in string literal', this.consumed + j);
      if (mayBeUnsafe(c)) {
        j = this.scanSequence(b, j);
        continue;
      }
      this.ensure(n - j);
      const o = this.o;
      let p = this.p;
      for (; j < n; j++) {
        const d = b[j] as number;
        if (d === 0x22 || d === 0x5c || d < 0x20 || mayBeUnsafe(d)) break;
        o[p++] = d;
      }
      this.p = p;
    }
  }

  /**
   * A UTF-8 sequence that may be a character a terminal acts on (DEL, a C1 control, a bidi
   * control: see visible.ts), possibly split across chunks: written as a `\u` escape if it is
   * one, as it came otherwise. Returns the index after it, or the chunk length.
   */
  protected scanSequence(b: Buffer, j: number): number {
    const split = this.split;
    if (split.length === 0) {
      const need = sequenceLength(b[j] as number);
      if (j + need <= b.length) {
        this.sequence(need, b[j] as number, b[j + 1] as number, b[j + 2] as number);
        return j + need;
      }
      split.push(b[j++] as number);
    }
    const need = sequenceLength(split[0] as number);
    while (split.length < need && j < b.length) split.push(b[j++] as number);
    if (split.length < need) return j;
    this.split = [];
    this.sequence(need, split[0] as number, split[1] as number, split[2] as number);
    return j;
  }

  /** Writes a sequence of {@link scanSequence} (`need` bytes: DEL, or a 2- or 3-byte one). */
  protected sequence(need: number, lead: number, second: number, third: number): void {
    const cp = need === 1 ? lead : need === 2 ? ((lead & 0x1f) << 6) | (second & 0x3f) : ((lead & 0x0f) << 12) | ((second & 0x3f) << 6) | (third & 0x3f);
    if (!unsafeInJson(cp)) {
      this.byte(lead);
      if (need > 1) this.byte(second);
      if (need > 2) this.byte(third);
      return;
    }
    if (this.token === Token.Key) this.keyDecodes = true;
    this.ascii(`\\u${cp.toString(16).padStart(4, '0')}`);
  }

  /** After a backslash: one escape, possibly split across chunks. */
  protected scanEscape(b: Buffer, j: number): number {
    const n = b.length;
    if (this.token === Token.Key) this.keyDecodes = true;
    if (this.escape === 1) {
      if (j >= n) return j;
      const c = b[j] as number;
      j++;
      if (c === 0x75) {
        this.escape = 2;
        this.hex = 0;
      } else {
        const unit = ESCAPED[c];
        if (unit === undefined) throw new JsonSyntaxError(`Bad escaped character ${describe(c)} in string`, this.consumed + j - 1);
        this.escape = 0;
        this.unit(unit);
        return j;
      }
    }
    while (this.escape >= 2 && j < n) {
      const digit = hexValue(b[j] as number);
      if (digit < 0) throw new JsonSyntaxError('Bad Unicode escape in string', this.consumed + j);
      this.hex = this.hex * 16 + digit;
      j++;
      if (++this.escape === 6) {
        this.escape = 0;
        this.unit(this.hex);
      }
    }
    return j;
  }

  /**
   * One decoded code unit (from an escape), written the way JSON.stringify does; a high
   * surrogate waits for the next unit to see whether it is half of a pair. `-1` means "no
   * further escaped unit follows directly" (raw text or the end of the string).
   */
  protected unit(unit: number): void {
    if (this.highSurrogate >= 0) {
      const high = this.highSurrogate;
      this.highSurrogate = -1;
      if (unit >= 0xdc00 && unit <= 0xdfff) {
        this.codePoint(0x10000 + ((high - 0xd800) << 10) + (unit - 0xdc00));
        return;
      }
      this.ascii(`\\u${high.toString(16)}`);
    }
    if (unit < 0) return;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      this.highSurrogate = unit;
      return;
    }
    const short = SHORT_ESCAPES[unit];
    if (short !== undefined) this.ascii(short);
    else if (unit < 0x20 || (unit >= 0xdc00 && unit <= 0xdfff) || unsafeInJson(unit)) this.ascii(`\\u${unit.toString(16).padStart(4, '0')}`);
    else this.codePoint(unit);
  }

  /** One code point as UTF-8. */
  protected codePoint(cp: number): void {
    this.ensure(4);
    const o = this.o;
    if (cp < 0x80) {
      o[this.p++] = cp;
    } else if (cp < 0x800) {
      o[this.p++] = 0xc0 | (cp >> 6);
      o[this.p++] = 0x80 | (cp & 0x3f);
    } else if (cp < 0x10000) {
      o[this.p++] = 0xe0 | (cp >> 12);
      o[this.p++] = 0x80 | ((cp >> 6) & 0x3f);
      o[this.p++] = 0x80 | (cp & 0x3f);
    } else {
      o[this.p++] = 0xf0 | (cp >> 18);
      o[this.p++] = 0x80 | ((cp >> 12) & 0x3f);
      o[this.p++] = 0x80 | ((cp >> 6) & 0x3f);
      o[this.p++] = 0x80 | (cp & 0x3f);
    }
  }
}
