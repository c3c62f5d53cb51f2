/** See baseline.js. */
export function prepareBaseline(spec: string, root: string): { label: string; bin: string; cleanup(): void };
