import type { BodyDecoder } from './charset.js';

/** What a front end does to text before showing it (the CLI makes control characters visible). */
export type SafeText = (text: string) => string;

/**
 * A body's text made safe chunk by chunk: decoded across chunk boundaries, and a CR at the end
 * of a chunk held back until the next one shows whether a LF follows it (so a CRLF split by
 * the network still reads as one line end).
 */
export class SafeTextDecoder {
  private pending = '';

  constructor(
    private readonly safeText: SafeText,
    private readonly decoder: BodyDecoder,
  ) {}

  write(chunk: Uint8Array): string {
    const text = this.pending + this.decoder.decode(chunk, { stream: true });
    const cut = text.endsWith('\r') ? text.length - 1 : text.length;
    this.pending = text.slice(cut);
    return this.safeText(text.slice(0, cut));
  }

  end(): string {
    const rest = this.pending + this.decoder.decode();
    this.pending = '';
    return this.safeText(rest);
  }
}
