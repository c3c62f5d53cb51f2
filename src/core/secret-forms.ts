/**
 * The forms a secret takes on its way through other software: URL- and form-encoded (an API key
 * in a query string, a client secret in a token request's body), JSON-escaped (a server echoing
 * it in an error), and base64 — alone (`{{base64 …}}`, a Basic header's `user:password`) or
 * inside a longer base64 text, where only the characters whose 3-byte groups lie wholly in the
 * secret are the same whatever surrounds it.
 */

/** Base64 runs shorter than this are not masked inside longer texts: they would mangle ordinary words. */
const MIN_BASE64_PART = 8;

function percentForms(secret: string): string[] {
  let encoded: string;
  try {
    encoded = encodeURIComponent(secret);
  } catch {
    return []; // a lone surrogate cannot be URL-encoded, so it cannot appear encoded either
  }
  // Form encoding (`+` for a space, `!'()~` escaped too), and the lower-case hex some encoders write.
  const form = new URLSearchParams([['', secret]]).toString().slice(1);
  return [encoded, encoded.replace(/%20/g, '+'), form, encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()), ...urlForms(secret)];
}

/**
 * The secret inside a URL, encoded only where a URL must be: as reqflow sends a target written
 * with it (a space and what is past ASCII: `request-target.ts`), and as a WHATWG URL's path and
 * query encode it (`"`, `<`, `>`, … too) — `/p/{{pw}}` with `sesame/open 42` goes as `sesame/open%2042`.
 */
function urlForms(secret: string): string[] {
  const encode = (pattern: RegExp): string => secret.replace(pattern, (char) => (char === ' ' ? '%20' : encodeURIComponent(char).replace(/^[^%].*$/, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)));
  return [encode(/[^\x21-\x7e]/gu), encode(/[^\x21-\x7e]|["#<>?`{}]/gu), encode(/[^\x21-\x7e]|["#<>']/gu)];
}

function jsonForms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  // Python's json.dumps escapes every non-ASCII character; PHP's json_encode escapes `/` too.
  const ascii = json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  // .NET's System.Text.Json (its default encoder) escapes `+ < > & '` and every non-ASCII
  // character as `\u002B`: a base64 key echoed by an ASP.NET API.
  const htmlSafe = json.replace(/[+<>&'\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
  return [json, ascii, json.replace(/\//g, '\\/'), ascii.replace(/\//g, '\\/'), htmlSafe];
}

function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const whole = bytes.toString('base64');
  const forms = [whole, whole.replace(/=+$/, '')];
  // The secret after 0, 1 or 2 bytes of its 3-byte group: the groups wholly inside it are stable.
  for (let before = 0; before < 3; before++) {
    const encoded = Buffer.concat([Buffer.alloc(before), bytes]).toString('base64');
    const part = encoded.slice(before > 0 ? 4 : 0, Math.floor((before + bytes.length) / 3) * 4);
    if (part.length >= MIN_BASE64_PART) forms.push(part);
  }
  return [...forms, ...forms.map((form) => form.replace(/\+/g, '-').replace(/\//g, '_'))];
}

/** `secret` and every derived form of it that differs, longest first (so a longer form is masked whole). */
export function formsOf(secret: string): string[] {
  // Lower-cased too: a secret that is a host name comes back lower-cased by the URL parser (`cannot resolve host "internalhost"`).
  const forms = new Set([secret, secret.toLowerCase(), ...percentForms(secret), ...jsonForms(secret), ...base64Forms(secret)]);
  return [...forms].sort((a, b) => b.length - a.length);
}

/** The `user:password` and the password of a `Basic` credential, decoded; none for another scheme. */
export function basicCredentials(value: string): string[] {
  const match = /^basic\s+([A-Za-z0-9+/_-]+={0,2})\s*$/i.exec(value);
  if (!match) return [];
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? [decoded] : [decoded, decoded.slice(colon + 1)];
}
