/** A bash command line as completion reads and writes it: words split and unquoted, values quoted back. */

export interface Token {
  /** Quotes and backslashes removed. */
  value: string;
  start: number;
  end: number;
}

/** A bash command line's words: split at blanks outside quotes, the quoting removed (an open quote runs to the end). */
export function bashWords(text: string, offset = 0): Token[] {
  const tokens: Token[] = [];
  let token: Token | undefined;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (!quote && (c === ' ' || c === '\t' || c === '\n')) {
      if (token) tokens.push({ ...token, end: offset + i });
      token = undefined;
      continue;
    }
    token ??= { value: '', start: offset + i, end: offset + i };
    if (quote) {
      if (c === quote) quote = undefined;
      else if (quote === '"' && c === '\\' && '$`"\\'.includes(text[i + 1] ?? ' ')) token.value += text[++i];
      else token.value += c;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '\\') token.value += text[++i] ?? '';
    else token.value += c;
  }
  if (token) tokens.push({ ...token, end: offset + text.length });
  return tokens;
}

/** A value as bash reads it: special characters escaped (a leading `~` left to expand), or inside the quote the word opened. */
export function bashQuote(value: string, quote: string | undefined): string {
  if (quote === "'") return value;
  if (quote === '"') return value.replace(/[$`"\\]/g, '\\$&');
  return value.replace(/[^A-Za-z0-9_@%+=:,./-]/g, (c, at: number) => (c === '~' && at === 0 ? c : `\\${c}`));
}
