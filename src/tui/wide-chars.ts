/**
 * Character widths as terminals draw them. neo-blessed's width table predates emoji: it counts
 * 😀 or ✅ one column wide while terminals draw two, so every later cell of the row shifts and
 * cells stay stale after a redraw. Here its measure is replaced by the Unicode East Asian Width
 * data (get-east-asian-width: emoji with emoji presentation are Wide), and sequences whose
 * width terminals disagree on (joined emoji, skin tones, emoji variation selectors) are drawn
 * as their parts, U+2028/U+2029 as U+FFFD. Only what is drawn changes: copies and saves use the
 * bytes as received.
 */
import { eastAsianWidth } from 'get-east-asian-width';

/** The part of neo-blessed's `unicode` module that measures text. */
export interface BlessedUnicode {
  charWidth(text: string | number, index?: number): number;
  chars: { all: RegExp | { [Symbol.replace](text: string, replacement: string): string } };
}

/** Zero-width joiner, variation selectors, skin-tone modifiers, tag characters: drawn apart. */
const JOINERS = /[\u200d\ufe0e\ufe0f\u{1f3fb}-\u{1f3ff}\u{e0020}-\u{e007f}]/gu;

/**
 * U+2028 and U+2029: one column to xterm and neo-blessed, none to terminals that measure with
 * the C library (wcwidth: -1), so every later cell of the row would land a column off there.
 * Drawn as U+FFFD, which every terminal draws one column wide.
 */
const LINE_SEPARATORS = /[\u2028\u2029]/g;

/** Marks a cell blessed must leave empty: the second column of a wide character. */
const SPACER = '\u0003';

function isWide(codePoint: number): boolean {
  return codePoint >= 0x1100 && eastAsianWidth(codePoint) === 2;
}

/**
 * Columns the text takes on a terminal (no control sequences in it). A combining mark counts one,
 * as neo-blessed's line layout counts it (it draws the mark in the cell before, so such a row
 * ends a column early; counted as zero, the row would be cut or wrapped by neo-blessed instead).
 */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text.replace(JOINERS, '')) width += isWide(ch.codePointAt(0) ?? 0) ? 2 : 1;
  return width;
}

/** Characters that may be wide (none is below U+1100): only these are measured. */
const MAYBE_WIDE = /[\u1100-\u{10ffff}]/gu;

/** The text as blessed lays it out: parts of joined sequences apart, a spacer after each wide character. */
export function markWide(text: string): string {
  return text.replace(JOINERS, '').replace(LINE_SEPARATORS, '\uFFFD').replace(MAYBE_WIDE, (ch) => (isWide(ch.codePointAt(0) ?? 0) ? ch + SPACER : ch));
}

/**
 * What neo-blessed's line layout counts for the text: one per UTF-16 code unit once laid out
 * ({@link markWide}) — an emoji 3 for its 2 columns, each letter of a flag 2. A line that counts
 * more than its box is wide is cut or wrapped by neo-blessed (at a space: the end of a status
 * line went to a second, hidden row) even when its columns would fit: lines cut to this never are.
 */
export function layoutWidth(text: string): number {
  return markWide(text).length;
}

/** Makes neo-blessed measure (and lay out) wide characters and emoji as terminals draw them. */
export function installWideChars(unicode: BlessedUnicode): void {
  const original = unicode.charWidth.bind(unicode);
  unicode.charWidth = (text, index) => {
    const point = typeof text === 'number' ? text : text.codePointAt(index ?? 0);
    return point !== undefined && isWide(point) ? 2 : original(text, index);
  };
  // blessed calls `content.replace(unicode.chars.all, '$1\x03')` on every element's content.
  unicode.chars.all = { [Symbol.replace]: (text: string) => markWide(text) };
}
