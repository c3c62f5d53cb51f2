/**
 * How `--dry-run` and `--as` show what holds secrets: masked (`•••`) as everywhere else, or as
 * they are with `--show-secrets`, so the printed request runs. Either way a control character
 * reaches the terminal only made visible.
 */
import { fieldLines, type RequestHeaders } from '../core/headers.js';
import { MASK, displayHeaders, displayUrl } from '../core/mask.js';
import { visible } from './render/visible.js';

export interface Shown {
  url(url: string): string;
  /** Each header line as `[name, value]`. */
  headerLines(headers: Readonly<RequestHeaders>): Array<[string, string]>;
  /** Body text. */
  text(text: string): string;
  /** A value that is a secret whatever its name (a key's passphrase). */
  secret(value: string): string;
}

function lines(headers: Readonly<RequestHeaders>): Array<[string, string]> {
  return Object.entries(headers).flatMap(([name, value]) => fieldLines(value).map((line): [string, string] => [name, visible(line)]));
}

export function shownSecrets(show: boolean, redact: (text: string) => string): Shown {
  if (show) return { url: visible, headerLines: lines, text: (text) => text, secret: (value) => value };
  return {
    url: (url) => visible(displayUrl(url, redact)),
    headerLines: (headers) => lines(displayHeaders(headers, redact)),
    text: redact,
    secret: () => MASK,
  };
}
