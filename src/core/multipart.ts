/**
 * A multipart/form-data body (RFC 7578) from fields, as body parts: text parts hold the
 * boundaries, part headers and values (their `{{variables}}` resolved like any body text),
 * file parts the files' bytes as they are, read when the request is sent.
 */
import { basename } from 'node:path';
import type { BodyPart } from './model.js';

export type FormField = { name: string; value: string } | { name: string; file: string; type: string };

/** A quoted-string of a Content-Disposition parameter, escaped as the WHATWG HTML standard does (`"` and line breaks percent-encoded). */
function quoted(text: string): string {
  return `"${text.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;
}

/** A boundary no value is likely to hold: random, so it cannot be guessed into a field. */
export function newBoundary(): string {
  return `reqflow-${globalThis.crypto.randomUUID().replace(/-/g, '')}`;
}

export function multipartParts(fields: readonly FormField[], boundary: string, line: number): BodyPart[] {
  const parts: BodyPart[] = [];
  let text = '';
  for (const field of fields) {
    text += `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(field.name)}`;
    if ('file' in field) {
      text += `; filename=${quoted(basename(field.file))}\r\nContent-Type: ${field.type}\r\n\r\n`;
      parts.push({ kind: 'text', text }, { kind: 'file', path: field.file, substitute: false, line });
      text = '\r\n';
    } else text += `\r\n\r\n${field.value}\r\n`;
  }
  parts.push({ kind: 'text', text: `${text}--${boundary}--\r\n` });
  return parts;
}
