/**
 * A `.http` or `.rest` request file read again (on a path that needs what the parse kept no
 * place for: a template's line, a file variable below a request). Undefined for another format,
 * or a file that cannot be read now.
 */
import { readFile } from 'node:fs/promises';

export async function readHttpText(file: string): Promise<string | undefined> {
  if (!/\.(?:http|rest)$/i.test(file)) return undefined;
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}
