/** ANSI colours, off when output is piped or `NO_COLOR` is set. */
export interface Palette {
  status(code: number, text: string): string;
  dim(text: string): string;
  bold(text: string): string;
  key(text: string): string;
  string(text: string): string;
  number(text: string): string;
  literal(text: string): string;
  method(method: string): string;
  error(text: string): string;
  warn(text: string): string;
}

const wrap = (code: string) => (text: string) => `\u001b[${code}m${text}\u001b[0m`;

const plain: Palette = {
  status: (_code, text) => text,
  dim: (t) => t,
  bold: (t) => t,
  key: (t) => t,
  string: (t) => t,
  number: (t) => t,
  literal: (t) => t,
  method: (t) => t,
  error: (t) => t,
  warn: (t) => t,
};

const METHOD_COLOURS: Record<string, string> = { GET: '32', POST: '33', PUT: '34', PATCH: '36', DELETE: '31' };

const coloured: Palette = {
  status: (code, text) => wrap(code >= 500 ? '1;31' : code >= 400 ? '1;33' : code >= 300 ? '1;36' : '1;32')(text),
  dim: wrap('2'),
  bold: wrap('1'),
  key: wrap('34'),
  string: wrap('32'),
  number: wrap('33'),
  literal: wrap('35'),
  method: (m) => wrap(METHOD_COLOURS[m] ?? '35')(m),
  error: wrap('31'),
  warn: wrap('33'),
};

export function palette(enabled: boolean): Palette {
  return enabled ? coloured : plain;
}

/** Whether text printed with `colors` is plain (no escape codes). */
export function isPlain(colors: Palette): boolean {
  return colors === plain;
}

/**
 * Colour on a terminal unless NO_COLOR is set; FORCE_COLOR forces it. `terminalColours`: what
 * the terminal's terminfo says it draws, where known (the UI's): fewer than 8 (xterm-mono,
 * vt100) is none.
 */
export function colorWanted(isTerminal: boolean, env: NodeJS.ProcessEnv = process.env, terminalColours?: number): boolean {
  if (env.FORCE_COLOR && env.FORCE_COLOR !== '0') return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return isTerminal && env.TERM !== 'dumb' && (terminalColours === undefined || terminalColours >= 8);
}
