/** A `WWW-Authenticate: Digest …` challenge (RFC 7616 §3.3), its parameters by lower-case name. */
export interface DigestChallenge {
  realm: string;
  nonce: string;
  opaque?: string;
  /** As the server spelled it (echoed back); `MD5` when absent (RFC 7616 §3.3); `-sess` variants included. */
  algorithm: string;
  /** The qop values offered (`auth`, `auth-int`), empty for an RFC 2069 server. */
  qop: string[];
}

/** `key=token` and `key="quoted \" string"` pairs, as RFC 7235 writes auth-params. */
function authParams(text: string): Map<string, string> {
  const params = new Map<string, string>();
  // A name starts where a token does (the lookbehind): else a long token without `=` (a
  // server's) is tried again from each of its characters, quadratic in the header's length.
  const pattern = /(?<![A-Za-z0-9!#$%&'*+.^_`|~-])([A-Za-z0-9!#$%&'*+.^_`|~-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))/g;
  for (const match of text.matchAll(pattern)) params.set((match[1] as string).toLowerCase(), match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : (match[3] ?? ''));
  return params;
}

/**
 * The Digest challenges of a response's `WWW-Authenticate` header(s), strongest first: a
 * server may offer SHA-256 and MD5 side by side (RFC 7616 §3.7).
 */
export function digestChallenges(header: string | string[] | undefined): DigestChallenge[] {
  const values = Array.isArray(header) ? header : header === undefined ? [] : [header];
  const challenges: DigestChallenge[] = [];
  for (const value of values) {
    // One header may hold several challenges: split before each scheme name, the commas and
    // spaces before it dropped. A split starts where a run of them does (the lookbehind), so a
    // long run is scanned once, not once from each of its characters.
    for (const part of value.split(/(?<![\s,])[\s,]*(?=\b(?:Digest|Basic|Bearer|Negotiate|NTLM)\s)/i)) {
      const scheme = /^\s*Digest\s+/i.exec(part);
      if (!scheme) continue;
      const params = authParams(part.slice(scheme[0].length));
      const realm = params.get('realm');
      const nonce = params.get('nonce');
      if (realm === undefined || nonce === undefined) continue;
      const challenge: DigestChallenge = { realm, nonce, algorithm: params.get('algorithm') ?? 'MD5', qop: (params.get('qop') ?? '').split(',').map((q) => q.trim().toLowerCase()).filter(Boolean) };
      const opaque = params.get('opaque');
      if (opaque !== undefined) challenge.opaque = opaque;
      challenges.push(challenge);
    }
  }
  const strength = (c: DigestChallenge): number => {
    const name = c.algorithm.toUpperCase();
    return name === 'SHA-256' || name === 'SHA-256-SESS' ? 2 : name === 'MD5' || name === 'MD5-SESS' ? 1 : 0;
  };
  return challenges.filter((c) => strength(c) > 0).sort((a, b) => strength(b) - strength(a));
}
