/**
 * `Authorization: Basic user password` (or `Basic user:password`) and `Digest user password`
 * (VS Code REST Client, JetBrains): credentials written in the clear for the client to encode,
 * or to answer a digest challenge with. One rule, read per line of the header — by the plugin
 * list (does the plugin run?) and by the plugins themselves.
 */
import { getHeaderLines, type RequestHeaders } from './headers.js';

export interface ShorthandCredentials {
  username: string;
  password: string;
}

/**
 * Two parts, where a base64 token has one: `Basic dXNlcjpwYXNz` is sent as written. `user:password`
 * (the user may be empty: `Basic :token`, base64 has no colon) or `user password`.
 */
const BASIC = /^\s*basic\s+(?:([^\s:]*):(.*)|(\S+)\s+(.*))$/is;
/** A real `Digest username="…"` value has `=`. */
const DIGEST = /^\s*digest\s+([^\s=:]+)(?:\s+|:)(.*)$/is;

const SHORTHANDS = { basic: BASIC, digest: DIGEST } as const;

/** The credentials of one line of `Authorization` written as the scheme's shorthand, else undefined. */
export function shorthandCredentials(scheme: keyof typeof SHORTHANDS, line: string): ShorthandCredentials | undefined {
  const match = SHORTHANDS[scheme].exec(line);
  // BASIC's second form (`user password`) is in groups 3 and 4.
  return match ? { username: match[1] ?? match[3] ?? '', password: match[1] !== undefined ? (match[2] ?? '') : (match[4] ?? '') } : undefined;
}

/** True when a line of the request's `Authorization` is the scheme's shorthand. */
export function hasShorthand(scheme: keyof typeof SHORTHANDS, headers: Readonly<RequestHeaders>): boolean {
  // Asked of every request by two plugins' selectors: a loop, no callback made per call.
  const lines = getHeaderLines(headers, 'authorization');
  for (let i = 0; i < lines.length; i++) if (SHORTHANDS[scheme].test(lines[i] as string)) return true;
  return false;
}
