/**
 * Decoding a request file that is not plain UTF-8 (loaded only for one: parse-file.ts decodes
 * the usual file itself): UTF-16 with a byte-order mark is read, anything else refused naming
 * the encoding or the first bad byte.
 */
import { ParseError } from '../core/errors/index.js';

/**
 * Request files are UTF-8. Anything else is refused with the position of the first bad byte,
 * rather than sent with U+FFFD in place of the user's characters.
 */
export function decodeRequestFile(bytes: Buffer, file: string): string {
  // A byte-order mark names the encoding: editors on Windows save UTF-16 with one.
  const utf16 = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : undefined;
  // ASCII in UTF-16 is valid UTF-8 full of NULs: name the encoding rather than "binary".
  if (!utf16 && looksLikeUtf16(bytes)) throw new ParseError(file, 1, 1, 'not UTF-8 text: it looks like UTF-16 without a byte-order mark', { hint: 'save it as UTF-8 (or as UTF-16 with a byte-order mark), e.g. iconv -f utf-16le -t utf-8 FILE' });
  try {
    return new TextDecoder(utf16 ?? 'utf-8', { fatal: true }).decode(bytes);
  } catch {
    if (utf16) throw new ParseError(file, 1, 1, `not valid ${utf16.toUpperCase()} text (its byte-order mark says ${utf16.toUpperCase()})`, { hint: 'save it as UTF-8' });
    const lossy = bytes.toString('utf8');
    const at = Math.max(lossy.indexOf('\uFFFD'), 0);
    const before = lossy.slice(0, at);
    const line = before.split('\n').length;
    const binary = bytes.includes(0);
    throw new ParseError(file, line, at - before.lastIndexOf('\n'), binary ? 'not a text file (it contains NUL bytes)' : 'not valid UTF-8 text', {
      hint: binary ? 'is this the right file? request files are UTF-8 text' : 'request files are UTF-8 text; convert it, e.g. iconv -f latin1 -t utf-8 FILE',
    });
  }
}

/** ASCII text in UTF-16 has a NUL in every other byte: mostly at odd offsets (LE) or even ones (BE). */
function looksLikeUtf16(bytes: Buffer): boolean {
  const sample = bytes.subarray(0, 512);
  if (sample.length < 4) return false;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < sample.length; i++) if (sample[i] === 0) i % 2 === 0 ? even++ : odd++;
  return Math.max(even, odd) >= sample.length / 2 * 0.7 && Math.min(even, odd) === 0;
}
