import { createHash, randomBytes } from 'node:crypto';
import type { DigestChallenge } from './challenge.js';

export interface DigestCredentials {
  username: string;
  password: string;
}

/** What the digest covers: the method and the request target (path and query) as sent. */
export interface DigestTarget {
  method: string;
  uri: string;
}

function hash(algorithm: string, text: string): string {
  return createHash(algorithm.toUpperCase().startsWith('SHA-256') ? 'sha256' : 'md5').update(text, 'utf8').digest('hex');
}

function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, '\\$&')}"`;
}

/**
 * The `Authorization: Digest …` value answering a challenge (RFC 7616 §3.4; RFC 2069 servers
 * without qop too). `qop=auth` only: `auth-int` would have to hash the body, and a server that
 * offers only that is refused by the caller. `cnonce` is fixed for tests, random otherwise.
 */
export function digestAuthorization(challenge: DigestChallenge, credentials: DigestCredentials, target: DigestTarget, nc = 1, cnonce = randomBytes(16).toString('hex')): string {
  const { algorithm, realm, nonce } = challenge;
  let ha1 = hash(algorithm, `${credentials.username}:${realm}:${credentials.password}`);
  if (algorithm.toUpperCase().endsWith('-SESS')) ha1 = hash(algorithm, `${ha1}:${nonce}:${cnonce}`);
  const ha2 = hash(algorithm, `${target.method}:${target.uri}`);
  const count = nc.toString(16).padStart(8, '0');
  const withQop = challenge.qop.includes('auth');
  const response = withQop ? hash(algorithm, `${ha1}:${nonce}:${count}:${cnonce}:auth:${ha2}`) : hash(algorithm, `${ha1}:${nonce}:${ha2}`);
  const parts = [`username=${quoted(credentials.username)}`, `realm=${quoted(realm)}`, `nonce=${quoted(nonce)}`, `uri=${quoted(target.uri)}`, `algorithm=${algorithm}`, `response=${quoted(response)}`];
  if (withQop) parts.push('qop=auth', `nc=${count}`, `cnonce=${quoted(cnonce)}`);
  if (challenge.opaque !== undefined) parts.push(`opaque=${quoted(challenge.opaque)}`);
  return `Digest ${parts.join(', ')}`;
}
