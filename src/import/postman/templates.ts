/**
 * Which `{{…}}` of a Postman document stay templates. Postman resolves a `{{name}}` it has a value
 * for and sends any other literally; reqflow reads more into a template — `{{env.NAME}}` an
 * environment variable, `{{$processEnv NAME}}`, `{{$uuid}}`, helpers, JavaScript. Only a reference
 * to a variable stays one: a plain name (the collection's, the environment's, or one a script
 * sets), one the collection or environment defines, or Postman's `{{$dynamic}}` (mapped or warned
 * about by request.ts). Everything else is written to be sent as the literal text it is.
 */
import { literalText } from '../http-text.js';

const TEMPLATE = /(\{\{[^{}]*\}\})/;

/** `{{inner}}` is a Postman variable reference, given the names the document defines. */
export function isPostmanReference(template: string, defined: (name: string) => boolean): boolean {
  const inner = template.slice(2, -2);
  if (/^\$[A-Za-z]+$/.test(inner) || /^[A-Za-z0-9_-]+$/.test(inner)) return true;
  return defined(inner) && /^[A-Za-z0-9_.-]+$/.test(inner) && !/^env\./i.test(inner);
}

/** Postman text as `.http` text: its variable references kept, every other `{{` literal. */
export function postmanText(text: string, defined: (name: string) => boolean): string {
  if (!text.includes('{{')) return text;
  return text
    .split(TEMPLATE)
    .map((part, i) => (i % 2 === 1 && isPostmanReference(part, defined) ? part : literalText(part)))
    .join('');
}
