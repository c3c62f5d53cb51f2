/**
 * The response pager without a screen: the line index over chunks, the window it draws, search,
 * and `G` reaching the true last line of a 5,000-line and a large body.
 */
import { describe, expect, it } from '@jest/globals';
import { ByteLines, MAX_LINE_BYTES } from '../src/tui/pager/byte-lines.js';
import { HexLines, JoinedLines, StoredLines, TextLines, stripSgr } from '../src/tui/pager/line-source.js';
import { Pager } from '../src/tui/pager/pager.js';
import { findMatches } from '../src/tui/pager/search.js';
import { wrapLine } from '../src/tui/pager/wrap-line.js';
import { layoutWidth } from '../src/tui/wide-chars.js';

const numbered = (count: number): string => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

/** The text appended in pieces of the given sizes (chunks cut anywhere, even inside a character). */
function appended(text: string, sizes: number[]): ByteLines {
  const bytes = Buffer.from(text, 'utf8');
  const store = new ByteLines();
  let at = 0;
  for (let i = 0; at < bytes.length; i += 1) {
    const size = sizes[i % sizes.length] as number;
    store.append(bytes.subarray(at, at + size));
    at += size;
  }
  return store;
}

/** The rows on screen without colours (every row starts with a reset). */
const rowsOf = (pager: Pager): string[] => pager.view().rows.map(stripSgr);

const pagerOver = (store: ByteLines, width = 40, height = 10): Pager => {
  const pager = new Pager();
  pager.setSource(new StoredLines(store, false));
  pager.setViewport(width, height);
  return pager;
};

describe('the line index', () => {
  it('finds the same lines however the text arrived, across chunk borders', () => {
    const text = 'ünï\ncödé ✓\n\nlast without newline';
    for (const sizes of [[1], [2, 3], [5], [1024 * 1024 + 1], [text.length * 4]]) {
      const store = appended(text, sizes);
      expect(store.lineCount()).toBe(4);
      expect([0, 1, 2, 3].map((i) => store.line(i).toString('utf8'))).toEqual(['ünï', 'cödé ✓', '', 'last without newline']);
      expect(store.all().toString('utf8')).toBe(text);
    }
  });

  it('counts a final newline as the end of the last line, not a new one; an empty text has no line', () => {
    expect(appended('a\nb\n', [1]).lineCount()).toBe(2);
    expect(new ByteLines().lineCount()).toBe(0);
    expect(new ByteLines(Buffer.from('x')).lineCount()).toBe(1);
  });

  it('indexes lazily: a line near the top is read without scanning the rest', () => {
    const store = new ByteLines(Buffer.from(numbered(100_000)));
    expect(store.line(2).toString()).toBe('line 3');
    expect(store.line(99_999).toString()).toBe('line 100000');
    expect(store.line(100_000).length).toBe(0);
  });

  it('cuts an over-long line into pieces at character boundaries, keeping every byte', () => {
    const long = 'é'.repeat(MAX_LINE_BYTES * 2); // 2 bytes each: cuts must not split one
    const store = new ByteLines(Buffer.from(`${long}\nnext\n`));
    const count = store.lineCount();
    expect(count).toBeGreaterThan(4);
    const pieces = Array.from({ length: count - 1 }, (_, i) => store.line(i));
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(MAX_LINE_BYTES);
    expect(pieces.map((piece) => piece.toString('utf8')).join('')).toBe(long);
    expect(store.line(count - 1).toString()).toBe('next');
  });

  it('cuts a minified multi-megabyte line the same way when it arrives in pieces across chunks', () => {
    const long = `${'é'.repeat(700_000)}\u001b[32m${'a'.repeat(900_001)}\u001b[39m✓`.repeat(2);
    const store = appended(`${long}\nend\n`, [700_001, 333_333]);
    const count = store.lineCount();
    let joined = '';
    for (let i = 0; i < count - 1; i += 1) {
      const piece = store.line(i);
      expect(piece.length).toBeLessThanOrEqual(MAX_LINE_BYTES);
      expect(piece.toString('utf8')).not.toContain('\uFFFD'); // never cut inside a character
      joined += piece.toString('utf8');
    }
    expect(joined).toBe(long);
    expect(store.line(count - 1).toString()).toBe('end');
  });

  it('grows while text is appended (a stream): lines seen before stay, the open last line completes', () => {
    const store = new ByteLines();
    store.append(Buffer.from('one\ntw'));
    expect(store.lineCount()).toBe(2);
    expect(store.line(1).toString()).toBe('tw');
    store.append(Buffer.from('o\nthree\n'));
    expect(store.lineCount()).toBe(3);
    expect(store.line(1).toString()).toBe('two');
  });
});

describe('the window', () => {
  it('draws only the rows on screen; G reaches the true last line of a 5,000-line body', () => {
    const pager = pagerOver(new ByteLines(Buffer.from(numbered(5000))));
    expect(rowsOf(pager)).toEqual(Array.from({ length: 10 }, (_, i) => `line ${i + 1}`));
    pager.end();
    const view = pager.view();
    expect(stripSgr(view.rows.at(-1) ?? '')).toBe('line 5000');
    expect(stripSgr(view.rows[0] ?? '')).toBe('line 4991');
    expect(view.atEnd).toBe(true);
    pager.page(-1);
    expect(rowsOf(pager).at(-1)).toBe('line 4991');
    pager.first();
    expect(rowsOf(pager)[0]).toBe('line 1');
  });

  it('G reaches the last line of a large body (16 MB, 1.3 million lines) and pages from there', () => {
    const count = 1_300_000;
    const pager = pagerOver(appended(numbered(count), [64 * 1024 - 7]), 80, 20);
    pager.end();
    expect(rowsOf(pager).at(-1)).toBe(`line ${count}`);
    pager.scroll(-5);
    expect(rowsOf(pager).at(-1)).toBe(`line ${count - 5}`);
    pager.scroll(100); // never past the end
    expect(rowsOf(pager).at(-1)).toBe(`line ${count}`);
  });

  it('wraps long lines into rows, scrolls row by row, and ends with the last row of the last line', () => {
    const pager = pagerOver(new ByteLines(Buffer.from(`short\n${'x'.repeat(25)}\nend`)), 10, 3);
    expect(rowsOf(pager)).toEqual(['short', 'xxxxxxxxxx', 'xxxxxxxxxx']);
    pager.scroll(2);
    expect(rowsOf(pager)).toEqual(['xxxxxxxxxx', 'xxxxx', 'end']);
    pager.end();
    expect(rowsOf(pager)).toEqual(['xxxxxxxxxx', 'xxxxx', 'end']);
  });

  it('breaks a full row after a space near its end rather than inside a word; a long word is cut', () => {
    expect(wrapLine('Select a request and press Enter', 10).map(stripSgr)).toEqual(['Select a ', 'request ', 'and press ', 'Enter']);
    expect(wrapLine('\u001b[2mhello world foo\u001b[0m', 12).map(stripSgr)).toEqual(['hello world ', 'foo']);
    expect(wrapLine('abcdefghijklmnop', 5).map(stripSgr)).toEqual(['abcde', 'fghij', 'klmno', 'p']);
    // A wide character moves to the next row rather than overflow this one, counted as neo-blessed
    // lays it out (an emoji 3 for its 2 columns, a CJK character 2): blessed never wraps a row again.
    expect(wrapLine('ab😀cd漢字', 3).map(stripSgr)).toEqual(['ab', '😀', 'cd', '漢', '字']);
    // A line of emoji (31 × 🎉) in a pane 84 wide: rows blessed takes as they are, so the rows the
    // pager counts are the rows drawn, and G shows the body's last line.
    const rows = wrapLine('🎉'.repeat(31), 84);
    expect(rows.map((row) => layoutWidth(stripSgr(row)))).toEqual([84, 9]);
  });

  it('keeps colours per row and shows control characters of a raw body as U+FFFD', () => {
    const rows = wrapLine('\u001b[32mabcdef\u001b[39m', 4);
    expect(rows.map(stripSgr)).toEqual(['abcd', 'ef']);
    expect(rows[1]?.startsWith('\u001b[0m\u001b[32m')).toBe(true); // the colour goes on in the next row
    // A full row never ends with a code (neo-blessed would wrap it again): the code opens the next row.
    const cut = wrapLine('\u001b[32mabcd\u001b[39mef', 4);
    expect(cut[0]).toBe('\u001b[0m\u001b[32mabcd');
    expect(cut[1]).toBe('\u001b[0m\u001b[32m\u001b[39mef');
    const raw = new StoredLines(new ByteLines(Buffer.from('a\u001b[2Jb\u0007\tc')), false);
    expect(raw.line(0)).toBe('a\uFFFD[2Jb\uFFFD    c');
    const colored = new StoredLines(new ByteLines(Buffer.from('\u001b[31mred\u001b[39m \u001b[2J')), true);
    expect(colored.line(0)).toBe('\u001b[31mred\u001b[39m \uFFFD[2J');
  });

  it('puts a head of lines (errors, headers) before the body', () => {
    const source = new JoinedLines([new TextLines(['HTTP/1.1 200 OK', '']), new StoredLines(new ByteLines(Buffer.from('a\nb\n')), false)]);
    expect(source.count()).toBe(4);
    expect([0, 1, 2, 3].map((i) => source.line(i))).toEqual(['HTTP/1.1 200 OK', '', 'a', 'b']);
  });

  it('shows bytes as a hex dump, 16 a line, printable ASCII beside them', () => {
    const hex = new HexLines(Buffer.from([0x00, 0x41, 0xff, ...Buffer.from('hello, binary world')]));
    expect(hex.count()).toBe(2);
    expect(hex.line(0)).toBe('00000000  00 41 ff 68 65 6c 6c 6f  2c 20 62 69 6e 61 72 79  .A.hello, binary');
    expect(hex.line(1)).toBe('00000010  20 77 6f 72 6c 64                                  world');
  });
});

describe('search', () => {
  it('finds every match in order; no capital letter matches any case, a capital matches exactly', () => {
    const source = new StoredLines(new ByteLines(Buffer.from('Alpha beta\nalpha ALPHA\nnone\n')), false);
    expect(findMatches(source, 'alpha').matches).toEqual([
      { line: 0, start: 0, end: 5 },
      { line: 1, start: 0, end: 5 },
      { line: 1, start: 6, end: 11 },
    ]);
    expect(findMatches(source, 'ALPHA').matches).toEqual([{ line: 1, start: 6, end: 11 }]);
    expect(findMatches(source, 'alpha', 2)).toEqual({ matches: expect.any(Array), capped: true });
  });

  it('searches the text as shown (colours ignored), highlights matches and moves with n/N, wrapping around', () => {
    const pager = pagerOver(new ByteLines(Buffer.from(`${numbered(3000)}needle one\n${numbered(10)}needle two\n`)), 40, 10);
    pager.setSource(new StoredLines(new ByteLines(Buffer.from(`${numbered(3000)}\u001b[32mneed\u001b[39mle one\n${numbered(10)}needle two\n`)), true));
    expect(pager.find('needle')).toMatch(/^match 1\/2 /);
    const first = pager.view().rows.find((row) => stripSgr(row).includes('needle one')) as string;
    expect(first).toContain('\u001b[30;43m'); // the current match
    expect(pager.step(1)).toMatch(/^match 2\/2 /);
    expect(rowsOf(pager).some((row) => stripSgr(row) === 'needle two')).toBe(true);
    expect(pager.step(1)).toMatch(/^match 1\/2 /);
    expect(pager.step(-1)).toMatch(/^match 2\/2 /);
    expect(pager.find('absent')).toBe('no match for "absent"');
  });
});
