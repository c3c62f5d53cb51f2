/** The first line of what `error` says (a library's message may go on with a stack or a dump). */
export function firstLine(error: unknown): string {
  return String(error instanceof Error ? error.message : error).split('\n')[0] ?? '';
}
