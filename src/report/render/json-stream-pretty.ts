/**
 * A streaming JSON pretty-printer: UTF-8 bytes go in chunk by chunk, and what comes out is
 * exactly `JSON.stringify(JSON.parse(text), null, 2)` as UTF-8, except that numbers are written
 * as received (`12345678901234567890`, `1e400`, `1.10` stay so; see core/json-exact.ts) and
 * characters a terminal acts on are escaped (`\u009b`, `\u202e`: see visibleJson in visible.ts) —
 * without ever building the document, so a 100 MiB response is printed in constant memory. It
 * works on bytes, never on per-token strings, which is what makes it fast (a 100 MiB document
 * in well under a second).
 *
 * Exactness needs care in three places, because `JSON.parse` + `JSON.stringify` normalise:
 * - strings: escapes are decoded and re-escaped the way `JSON.stringify` does (`\u00e9` → `é`,
 *   `\/` → `/`, lone surrogates → `\udxxx`), one code unit at a time;
 * - objects whose keys are array indexes (`"0"` … `"4294967294"`): JS objects list those first,
 *   in ascending order;
 * - duplicate keys: the last value wins, at the position of the first.
 * The last two need an object's members before it closes, so every object is held until it
 * closes or until it has produced {@link COMMIT_BYTES} of output. An object that turns out to
 * need reordering is held until it closes (up to `holdLimit` bytes); an object that has
 * already been written when such a key arrives is shown in document order, with one warning.
 */
import { isUtf8 } from 'node:buffer';
import { JsonStrings, mayBeUnsafe } from './json-stream-strings.js';
import { Expect, type Frame, JsonEncodingError, JsonNumberLimitError, type JsonPrettyOptions, JsonSyntaxError, LITERALS, MAX_LITERAL_BYTES, MAX_NUMBER_BYTES, NUMBER, Token, describe, isDigit, isNumberByte, sequenceLength } from './json-stream-shared.js';

export { JsonEncodingError, JsonHoldLimitError, JsonNumberLimitError, JsonSyntaxError, type JsonPrettyOptions } from './json-stream-shared.js';

/**
 * Feed UTF-8 bytes with {@link push}, finish with {@link end}; output arrives through `write`
 * in order, as buffers the caller may keep. Throws {@link JsonSyntaxError} (or
 * {@link JsonEncodingError}) on invalid input; output already written stays written.
 */
export class JsonPrettyPrinter extends JsonStrings {
  push(chunk: Uint8Array): void {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const n = b.length;
    this.checkUtf8(b);
    let i = 0;
    // TextDecoder drops a byte-order mark; so does this (JSON.parse of the decoded text never sees it).
    if (this.consumed === 0 && n >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) i = 3;
    if (this.token !== Token.None) i = this.continueToken(b, i);
    while (i < n) {
      const c = b[i] as number;
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        i++;
      } else if (c === 0x22) {
        const isKey = this.expect === Expect.Key || this.expect === Expect.KeyOrClose;
        if (isKey) {
          this.memberPrefix(this.top as Frame);
          this.bytes(this.keyColour[0]);
          this.keyStart = this.position();
          this.keyDecodes = false;
        } else {
          this.valuePrefix(b, i);
          this.bytes(this.stringColour[0]);
        }
        this.token = isKey ? Token.Key : Token.String;
        // Copy plain content straight through; escapes and chunk ends take the slow path.
        this.ensure(n - i + 1);
        const o = this.o;
        let p = this.p;
        o[p++] = 0x22;
        let j = i + 1;
        for (; j < n; j++) {
          const d = b[j] as number;
          if (d === 0x22 || d === 0x5c || d < 0x20 || mayBeUnsafe(d)) break;
          o[p++] = d;
        }
        this.p = p;
        if (j < n && b[j] === 0x22) {
          this.endString();
          i = j + 1;
        } else {
          i = this.scanString(b, j);
        }
      } else if (c === 0x2c) {
        if (this.expect !== Expect.CommaOrClose) this.fail(b, i);
        this.expect = (this.top as Frame).isObject ? Expect.Key : Expect.Value;
        i++;
      } else if (c === 0x3a) {
        if (this.expect !== Expect.Colon) this.fail(b, i);
        this.expect = Expect.Value;
        i++;
      } else if (c === 0x2d || isDigit(c)) {
        this.valuePrefix(b, i);
        const end = this.plainNumberEnd(b, i);
        if (end > 0) {
          this.bytes(this.numberColour[0]);
          this.copy(b, i, end);
          this.bytes(this.numberColour[1]);
          this.afterValue();
          i = end;
        } else {
          i = this.scanRun(b, i, Token.Number);
        }
      } else if (c === 0x7b || c === 0x5b) {
        this.valuePrefix(b, i);
        this.open(c === 0x7b);
        i++;
      } else if (c === 0x7d || c === 0x5d) {
        this.close(c === 0x7d, b, i);
        i++;
      } else if (c >= 0x61 && c <= 0x7a) {
        this.valuePrefix(b, i);
        const word = LITERALS[c === 0x74 ? 0 : c === 0x66 ? 1 : 2] as Buffer;
        if (i + word.length <= n && b.compare(word, 0, word.length, i, i + word.length) === 0) {
          this.bytes(this.literalColour[0]);
          this.bytes(word);
          this.bytes(this.literalColour[1]);
          this.afterValue();
          i += word.length;
        } else {
          i = this.scanRun(b, i, Token.Literal);
        }
      } else {
        this.fail(b, i);
      }
    }
    this.consumed += n;
    this.settle(0);
  }

  /** The input is complete: finishes the last token and writes everything held. */
  end(): void {
    if (this.utf8Tail) throw new JsonEncodingError();
    if (this.token === Token.Number || this.token === Token.Literal) this.finishRun();
    else if (this.token !== Token.None) throw new JsonSyntaxError('Unterminated string', this.consumed);
    if (!this.started) throw new JsonSyntaxError('Unexpected end of input (the body is empty)', this.consumed);
    if (this.expect !== Expect.Done) throw new JsonSyntaxError('Unexpected end of input', this.consumed);
    this.flushAll();
  }

  // ---- input checks -------------------------------------------------------------------

  /** Validates UTF-8 chunk by chunk; a sequence split across chunks is checked once complete. */
  protected checkUtf8(b: Buffer): void {
    let from = 0;
    if (this.utf8Tail) {
      const tail = this.utf8Tail;
      const need = sequenceLength(tail[0] as number) - tail.length;
      if (b.length < need) {
        this.utf8Tail = Buffer.concat([tail, b]);
        return;
      }
      if (!isUtf8(Buffer.concat([tail, b.subarray(0, need)]))) throw new JsonEncodingError();
      this.utf8Tail = undefined;
      from = need;
    }
    let end = b.length;
    let lead = end - 1;
    while (lead >= from && lead > end - 4 && ((b[lead] as number) & 0xc0) === 0x80) lead--;
    if (lead >= from && (b[lead] as number) >= 0xc0 && sequenceLength(b[lead] as number) > end - lead) {
      this.utf8Tail = Buffer.from(b.subarray(lead, end));
      end = lead;
    }
    if (!isUtf8(b.subarray(from, end))) throw new JsonEncodingError();
  }

  /**
   * End of a number that prints unchanged — a short integer, or a short decimal without
   * trailing zero or exponent, complete in this chunk — or 0 when it needs the slow path.
   * (At most 15 significant digits always survive the trip through a double unchanged.)
   */
  protected plainNumberEnd(b: Buffer, i: number): number {
    const n = b.length;
    let j = b[i] === 0x2d ? i + 1 : i;
    const intStart = j;
    while (j < n && isDigit(b[j] as number)) j++;
    const intDigits = j - intStart;
    if (intDigits === 0 || (intDigits > 1 && b[intStart] === 0x30)) return 0;
    let digits = intDigits;
    if (j < n && b[j] === 0x2e) {
      const fracStart = ++j;
      while (j < n && isDigit(b[j] as number)) j++;
      const fracDigits = j - fracStart;
      if (fracDigits === 0 || b[j - 1] === 0x30) return 0;
      if (b[intStart] === 0x30) {
        let zeros = 0;
        while (b[fracStart + zeros] === 0x30) zeros++;
        if (zeros > 5) return 0; // below 1e-6 JavaScript prints an exponent
      }
      digits += fracDigits;
    } else if (intDigits === 1 && b[intStart] === 0x30 && intStart > i) {
      return 0; // -0 prints as 0
    }
    if (j >= n || digits > 15) return 0;
    const next = b[j] as number;
    return next === 0x65 || next === 0x45 || next === 0x2e || next === 0x2b || next === 0x2d || isDigit(next) ? 0 : j;
  }

  // ---- tokens -------------------------------------------------------------------------

  protected continueToken(b: Buffer, i: number): number {
    if (this.token === Token.String || this.token === Token.Key) return this.scanString(b, i);
    return this.scanRun(b, i, this.token);
  }

  /** Numbers and literals the fast path did not take, possibly split across chunks. */
  protected scanRun(b: Buffer, i: number, token: Token): number {
    const n = b.length;
    let j = i;
    if (token === Token.Number) while (j < n && isNumberByte(b[j] as number)) j++;
    else while (j < n && (b[j] as number) >= 0x61 && (b[j] as number) <= 0x7a) j++;
    if (this.token !== token) {
      this.text = '';
      this.tokenStart = this.consumed + i;
    }
    this.token = token;
    // Held until the token ends: bounded, so an endless one cannot grow without limit.
    const limit = token === Token.Number ? Math.min(MAX_NUMBER_BYTES, this.options.holdLimit ?? MAX_NUMBER_BYTES) : MAX_LITERAL_BYTES;
    if (this.text.length + (j - i) > limit) {
      if (token === Token.Number) throw new JsonNumberLimitError(limit);
      throw new JsonSyntaxError(`Unexpected token ${JSON.stringify((this.text + b.toString('latin1', i, j)).slice(0, limit + 1))}`, this.tokenStart);
    }
    this.text += b.toString('latin1', i, j);
    if (j < n) this.finishRun();
    return j;
  }

  protected finishRun(): void {
    const text = this.text;
    const token = this.token;
    this.token = Token.None;
    this.text = '';
    if (token === Token.Number) {
      if (!NUMBER.test(text)) throw new JsonSyntaxError(`Invalid number ${JSON.stringify(text)}`, this.tokenStart);
      this.bytes(this.numberColour[0]);
      this.ascii(text); // as the server wrote it: a double would round 12345678901234567890 and turn 1e400 into null
      this.bytes(this.numberColour[1]);
    } else {
      if (text !== 'true' && text !== 'false' && text !== 'null') throw new JsonSyntaxError(`Unexpected token ${JSON.stringify(text)}`, this.tokenStart);
      this.bytes(this.literalColour[0]);
      this.ascii(text);
      this.bytes(this.literalColour[1]);
    }
    this.afterValue();
  }

  protected fail(b: Buffer, i: number): never {
    throw new JsonSyntaxError(`Unexpected ${describe(b[i])}`, this.consumed + i);
  }
}

/** Pretty-prints a whole JSON text at once (tests, small bodies): the same output as the stream. */
export function prettyJsonText(text: string, options: JsonPrettyOptions = {}): string {
  const parts: Buffer[] = [];
  const printer = new JsonPrettyPrinter((part) => parts.push(part), options);
  printer.push(Buffer.from(text, 'utf8'));
  printer.end();
  return Buffer.concat(parts).toString('utf8');
}

