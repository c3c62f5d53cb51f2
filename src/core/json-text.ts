import { ParseError } from './errors/index.js';
import { lineColumn } from './json-error.js';

/**
 * JSON text to a value (`jsonc`: comments and trailing commas allowed, as VS Code writes it).
 * Invalid text is exit 2 naming the file, line and column, with the caller's hint.
 */
export async function parseJsonText(path: string, text: string, options: { jsonc: boolean; hint: string }): Promise<unknown> {
  const { jsonc } = options;
  // Most files are plain JSON: the JSONC parser loads only for one that is not (comments, an error).
  try {
    return JSON.parse(text);
  } catch {
    // fall through: the JSONC parser reads comments and trailing commas, or finds where the text breaks
  }
  const { parse, printParseErrorCode } = await import('jsonc-parser');
  const errors: Parameters<typeof parse>[1] = [];
  const value: unknown = parse(text, errors, { disallowComments: !jsonc, allowTrailingComma: jsonc, allowEmptyContent: jsonc });
  const first = errors?.[0];
  if (first || (!jsonc && value === undefined)) {
    const { line, column } = lineColumn(text, first?.offset ?? 0);
    const what = first ? printParseErrorCode(first.error) : 'ValueExpected';
    throw new ParseError(path, line, column, `not valid JSON${jsonc ? ' with comments' : ''} (${what})`, { hint: options.hint });
  }
  return value;
}

/** JSONC text (comments, trailing commas) to a value; undefined when it is not valid even so. */
export async function jsoncValue(text: string): Promise<unknown> {
  const { parse } = await import('jsonc-parser');
  const errors: Parameters<typeof parse>[1] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true });
  return errors.length === 0 ? value : undefined;
}
