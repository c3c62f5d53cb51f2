import { colors } from './format.js';

/** A body to compare: its text and what to call it in the diff's header. */
export interface DiffSide {
  label: string;
  text: string;
}

/** JSON with its keys sorted, two spaces: two documents that differ only in key order are equal. */
function canonicalJson(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const sorted = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(sorted);
    if (item !== null && typeof item === 'object') return Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, inner]) => [key, sorted(inner)]));
    return item;
  };
  return `${JSON.stringify(sorted(value), null, 2)}\n`;
}

/**
 * A unified diff of two bodies, coloured (removed red, added green): JSON bodies compared field
 * by field (keys sorted, pretty-printed, so each changed field is a line), other bodies line by
 * line. Uses the `diff` package, loaded only when a diff is asked for.
 */
export async function bodyDiffLines(before: DiffSide, after: DiffSide): Promise<string[]> {
  const { structuredPatch } = await import('diff');
  const left = canonicalJson(before.text);
  const right = canonicalJson(after.text);
  const json = left !== undefined && right !== undefined;
  const patch = structuredPatch(before.label, after.label, json ? left : before.text, json ? right : after.text, '', '', { context: 3 });
  const lines = [colors.error(`--- ${before.label}`), colors.string(`+++ ${after.label}`), colors.dim(json ? '(JSON: keys sorted, compared field by field)' : '(compared line by line)')];
  if (patch.hunks.length === 0) return [...lines, '', 'no difference'];
  for (const hunk of patch.hunks) {
    lines.push(colors.dim(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`));
    for (const line of hunk.lines) {
      if (line.startsWith('-')) lines.push(colors.error(line));
      else if (line.startsWith('+')) lines.push(colors.string(line));
      else if (!line.startsWith('\\')) lines.push(line);
    }
  }
  return lines;
}
