/**
 * Credentials written in a body (`"password": …`, `client_secret=…`), masked: what test reports
 * and the history keep of a body must not hold them. The body's text is kept otherwise as it is.
 */
import { MASK, isSecretName } from './mask.js';

/** No secret-looking name can be in a text without one of these: most bodies skip the scan. */
const MAYBE_SECRET = /token|secret|passw|passphrase|key|signature|credential|auth|cookie/i;

/**
 * Every JSON string token, in order (so a quote inside a string never starts a "key"), with the
 * `: value` after it when it is a key of a primitive value (string, number, true, false). A
 * string's closing quote is optional: a body cut short ends inside one (its value is masked
 * still), and a string that had to close was tried again from every later quote of the line, to
 * its end (a server's line of `\"` made each response's masking quadratic: seconds at 64 KiB).
 */
const JSON_STRING = /"((?:[^"\\\n]|\\.)*)"?(?:(\s*:\s*)("(?:[^"\\\n]|\\.)*"?|-?\d[\d.eE+-]*|true|false))?/g;

const FORM = /^[^\s=&]+=[^\s&]*(&[^\s=&]+=[^\s&]*)*$/;

function decoded(text: string, decode: (text: string) => string): string {
  try {
    return decode(text);
  } catch {
    return text;
  }
}

const jsonKey = (raw: string): string => JSON.parse(`"${raw}"`) as string;
/** A JSON string token's text between its quotes (a cut one has no closing quote). */
const stringContent = (token: string): string => (/^"(?:[^"\\]|\\.)*"$/.test(token) ? token.slice(1, -1) : token.slice(1));
const formName = (raw: string): string => decodeURIComponent(raw.replace(/\+/g, ' '));

/** A form's or a query's piece decoded (`+` a space), or as written when it is no valid encoding. */
export const formDecoded = (raw: string): string => decoded(raw, formName);

/**
 * Values under secret-looking names in a JSON or form body, masked in place — or, given
 * `replace`, replaced by what it returns for the field's name and value (`reqflow proxy --save`
 * writes a `{{variable}}` there). JSON is scanned rather than parsed, so a body cut short (the
 * first 64 KiB of a larger one) is masked too, and numbers stay as the server wrote them. Other
 * texts are returned as they are.
 */
export function maskSecretFields(text: string, replace: (name: string, value: string) => string = () => MASK): string {
  if (!MAYBE_SECRET.test(text)) return text;
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    return text.replace(JSON_STRING, (all, key: string, colon: string | undefined, value: string | undefined) => {
      if (colon === undefined || value === undefined) return all;
      const name = decoded(key, jsonKey);
      return isSecretName(name) ? `"${key}"${colon}"${replace(name, value.startsWith('"') ? decoded(stringContent(value), jsonKey) : value)}"` : all;
    });
  }
  if (FORM.test(trimmed)) {
    return text.replace(/(^|&)([^=&]+)=([^&]*)/g, (all, lead: string, name: string, value: string) => {
      const field = formDecoded(name);
      return isSecretName(field) ? `${lead}${name}=${replace(field, value)}` : all;
    });
  }
  return text;
}
