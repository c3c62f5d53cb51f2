import { StringDecoder } from 'node:string_decoder';
import type { Screen } from './blessed.js';
import { PasteParser, type Paste } from './paste-parser.js';

/** xterm's bracketed paste mode (DECSET 2004): the terminal marks each paste (paste-parser.ts). */
export const BRACKETED_PASTE = { on: '\u001b[?2004h', off: '\u001b[?2004l' } as const;

/**
 * A paste whose end marker has not come after this long of silence is over: what came is the
 * paste, and what follows is keys again. A terminal sends a paste in one burst; without this,
 * a start marker with no end (a terminal that died in the middle, stray bytes) would take every
 * key after it, Ctrl-C included, as text.
 */
const PASTE_SILENCE_MS = 2_000;

/** Where text goes: the app (app.ts). */
export interface TextSink {
  /** A whole paste (never keys: outside a text field it is ignored). */
  paste(paste: Paste): void;
  /** Printable characters that came in one read (a paste from a terminal without bracketed paste, fast typing): true when a text field took them at once; else they are keys. */
  typed(text: string): boolean;
}

type DataListener = (chunk: Buffer) => void;

/**
 * Reads the terminal for the UI, in front of neo-blessed's key parser (which sees a character
 * as one key press, and would redraw once per character of a paste): pastes go to the app
 * whole, a run of printable characters read at once goes to the focused text field in one
 * piece, and everything else — keys, escape sequences, mouse reports — to neo-blessed as it
 * came. Call after the screen is created (neo-blessed listens then); returns the undo.
 */
export function routeTerminalInput(input: NodeJS.ReadableStream, sink: TextSink, silenceMs = PASTE_SILENCE_MS): () => void {
  const neoBlessed = input.listeners('data') as DataListener[];
  const decoder = new StringDecoder('utf8');
  const parser = new PasteParser();
  let silence: NodeJS.Timeout | undefined;
  let reads = 0;
  let stopped = false;

  const keys = (text: string): void => {
    const bytes = Buffer.from(text, 'utf8');
    for (const listener of neoBlessed) listener.call(input, bytes);
  };
  const plain = (text: string): void => {
    for (const piece of typedPieces(text)) {
      if (!piece.printable || !sink.typed(piece.text)) keys(piece.text);
    }
  };
  const endSilentPaste = (): void => {
    const paste = parser.end();
    if (paste) sink.paste(paste);
  };
  const watchSilence = (): void => {
    if (silence) clearTimeout(silence);
    silence = undefined;
    if (!parser.pasting) return;
    const at = reads;
    // The check runs after the event loop's next poll: bytes already waiting are read first.
    silence = setTimeout(() => setImmediate(() => !stopped && at === reads && endSilentPaste()), silenceMs);
    silence.unref();
  };
  const onData = (chunk: Buffer | string): void => {
    reads += 1;
    const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    for (const piece of parser.push(text)) {
      if (piece.kind === 'paste') sink.paste(piece.paste);
      else plain(piece.text);
    }
    watchSilence();
  };

  for (const listener of neoBlessed) input.removeListener('data', listener);
  input.on('data', onData);
  return () => {
    stopped = true;
    if (silence) clearTimeout(silence);
    input.removeListener('data', onData);
    for (const listener of neoBlessed) input.on('data', listener);
  };
}

/**
 * Typed input cut into what a text field may take at once — runs of two or more printable
 * characters — and the rest, for the key parser one piece at a time. Input with an escape
 * sequence goes to the key parser whole (its parts are no text), as does a single character.
 */
function typedPieces(text: string): Array<{ text: string; printable: boolean }> {
  if (text.includes('\u001b')) return [{ text, printable: false }];
  const pieces: Array<{ text: string; printable: boolean }> = [];
  for (const match of text.matchAll(/[\u0000-\u001f\u007f-\u009f]+|[^\u0000-\u001f\u007f-\u009f]+/g)) {
    const piece = match[0];
    const control = /^[\u0000-\u001f\u007f-\u009f]/.test(piece);
    const oneCharacter = piece.length === 1 || (piece.length === 2 && (piece.codePointAt(0) as number) > 0xffff);
    pieces.push({ text: piece, printable: !control && !oneCharacter });
  }
  return pieces;
}

/** Bracketed paste on, and off again however the screen ends (neo-blessed's exit handler too). */
export function useBracketedPaste(screen: Screen): void {
  setBracketedPaste(screen, true);
  screen.on('destroy', () => setBracketedPaste(screen, false));
}

/**
 * Written straight to the terminal, around neo-blessed's buffer: off before an editor takes the
 * terminal (one that knows nothing of it would get the markers as text), on when it gives it back.
 */
export function setBracketedPaste(screen: Screen, on: boolean): void {
  const output = screen.program.output as NodeJS.WritableStream & { writable?: boolean };
  if (output.writable !== false) output.write(on ? BRACKETED_PASTE.on : BRACKETED_PASTE.off);
}
