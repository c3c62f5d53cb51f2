import { stringifyJsonValue } from '../../core/json-exact.js';
import type { Palette } from './colors.js';
import { visibleJson } from './visible.js';

/** `JSON.stringify(value, null, 2)` (terminal controls escaped), coloured token by token when the palette has colours. */
export function prettyJson(value: unknown, colors: Palette): string {
  const text = visibleJson(stringifyJsonValue(value, 2) ?? 'undefined');
  return colorizeJson(text, colors);
}

/**
 * A JSON token. A string's closing quote is optional: JSON's strings always close, but a text
 * body that only starts like JSON (a server's) may hold a quote that never does, and a string
 * that had to close was tried again from every later quote, each time to the text's end
 * (quadratic: 120 kB of `\"` took 4 s, 16 MiB would take hours, with the terminal frozen).
 */
const TOKEN = /("(?:[^"\\]|\\.)*"?)(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b/g;

/** Colours already-formatted JSON text (keys, strings, numbers, literals). */
export function colorizeJson(text: string, colors: Palette): string {
  if (colors.key('x') === 'x') return text;
  return text.replace(TOKEN, (_match, str: string | undefined, colon: string | undefined, num: string | undefined, lit: string | undefined) => {
    if (str !== undefined) return colon ? colors.key(str) + colon : colors.string(str);
    if (num !== undefined) return colors.number(num);
    return colors.literal(lit ?? '');
  });
}
