import { extname } from 'node:path';

/** The built-in formats by file extension; any other extension is `.http` text unless a plugin claims it. */
export const FORMAT_BY_EXTENSION: Readonly<Record<string, string>> = { http: 'http', rest: 'http', yaml: 'yaml', yml: 'yaml', json: 'json' };

/** Whether a request file is read as `.http` text by the built-in formats (YAML and JSON files are not). */
export function isHttpText(path: string): boolean {
  return (FORMAT_BY_EXTENSION[extname(path).slice(1).toLowerCase()] ?? 'http') === 'http';
}
