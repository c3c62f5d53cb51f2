import { StringDecoder } from 'node:string_decoder';

/** Where typed text goes: the app (app.ts). */
export interface TextSink {
  /** Printable characters that came in one read (a paste, fast typing): true when a text field took them at once; else they are keys. */
  typed(text: string): boolean;
}

type DataListener = (chunk: Buffer) => void;

/**
 * Reads the terminal for the UI, in front of neo-blessed's key parser (which sees a character
 * as one key press, and would redraw once per character of a paste): a run of printable
 * characters read at once goes to the focused text field in one piece, and everything else —
 * keys, escape sequences, mouse reports — to neo-blessed as it came. Call after the screen is
 * created (neo-blessed listens then); returns the undo.
 */
export function routeTerminalInput(input: NodeJS.ReadableStream, sink: TextSink): () => void {
  const neoBlessed = input.listeners('data') as DataListener[];
  const decoder = new StringDecoder('utf8');

  const keys = (text: string): void => {
    const bytes = Buffer.from(text, 'utf8');
    for (const listener of neoBlessed) listener.call(input, bytes);
  };
  const onData = (chunk: Buffer | string): void => {
    const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    for (const piece of typedPieces(text)) {
      if (!piece.printable || !sink.typed(piece.text)) keys(piece.text);
    }
  };

  for (const listener of neoBlessed) input.removeListener('data', listener);
  input.on('data', onData);
  return () => {
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
