import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** The HMAC algorithms a profile may name in `"algorithm"`. */
export const ALGORITHMS = ['sha256', 'sha384', 'sha512'] as const;
export type Algorithm = (typeof ALGORITHMS)[number];

export function isAlgorithm(name: string): name is Algorithm {
  return (ALGORITHMS as readonly string[]).includes(name);
}

/** The parts of a request that the signature covers. */
export interface Signable {
  method: string;
  /** Path and query exactly as sent, e.g. `/orders?page=2`. */
  target: string;
  /** Unix time in seconds, the value of the timestamp header. */
  timestamp: string;
  body?: string | Buffer;
}

/**
 * The signed text, four lines: method, path with query, timestamp, and the hex SHA-256 of the
 * body (of the empty string when there is none). Hashing the body keeps the signed text small
 * and lets a server check the body separately.
 */
export function canonicalString(request: Signable): string {
  const bodyHash = createHash('sha256').update(request.body ?? '').digest('hex');
  return [request.method.toUpperCase(), request.target, request.timestamp, bodyHash].join('\n');
}

/** The hex HMAC of the canonical string. */
export function sign(secret: string, algorithm: Algorithm, request: Signable): string {
  return createHmac(algorithm, secret).update(canonicalString(request)).digest('hex');
}

/** Constant-time check of a hex signature, for servers that verify what the plugin sends. */
export function verify(secret: string, algorithm: Algorithm, request: Signable, signature: string): boolean {
  const expected = Buffer.from(sign(secret, algorithm, request), 'hex');
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
