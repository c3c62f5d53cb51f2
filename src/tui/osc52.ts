/** Largest text copied: terminals (and tmux) drop longer OSC 52 sequences silently. */
export const OSC52_LIMIT = 512 * 1024;

/**
 * The OSC 52 sequence that puts text on the system clipboard (xterm, iTerm2, kitty, WezTerm,
 * Windows Terminal, tmux with `set-clipboard on`). Works over SSH, unlike a clipboard command.
 */
export function osc52(text: string): { sequence: string; truncated: boolean } {
  const bytes = Buffer.from(text, 'utf8');
  const truncated = bytes.length > OSC52_LIMIT;
  let cut = Math.min(bytes.length, OSC52_LIMIT);
  while (truncated && cut > 0 && ((bytes[cut] as number) & 0xc0) === 0x80) cut -= 1; // never split a character
  const payload = bytes.subarray(0, cut).toString('base64');
  return { sequence: `\u001b]52;c;${payload}\u0007`, truncated };
}
