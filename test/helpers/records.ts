import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const validate = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(join(ROOT, 'docs', 'record.schema.json'), 'utf8')));

/** A record of `-o json`, as docs/record.schema.json describes it. */
export type JsonRecord = Record<string, unknown> & { type: 'response' | 'event' | 'end' | 'error'; name: string; method: string; url: string };

/** True for argv that asks for `-o json` output. */
export function wantsJson(args: readonly string[]): boolean {
  if (args[0] === 'stress') return false; // one summary document (docs/stress.md), not records
  return args.some((arg, i) => ((arg === '-o' || arg === '--output') && args[i + 1] === 'json') || arg === '-ojson' || arg === '--output=json');
}

/** Parses NDJSON output and validates every line against the published schema; throws naming the line. */
export function parseRecords(stdout: string): JsonRecord[] {
  const lines = stdout.split('\n').filter((line) => line !== '');
  return lines.map((line, index) => {
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch (error) {
      throw new Error(`-o json line ${index + 1} is not JSON (${(error as Error).message}): ${line.slice(0, 200)}`);
    }
    if (!validate(record)) throw new Error(`-o json line ${index + 1} does not match docs/record.schema.json: ${JSON.stringify(validate.errors)}\n${line.slice(0, 400)}`);
    return record as JsonRecord;
  });
}

/** The events of a stream as `{event?, id?, data}` (the envelope left out), for comparing with what a server sent. */
export function eventsOf(records: readonly JsonRecord[]): Array<{ event?: string; id?: string; data: unknown }> {
  return records.filter((r) => r.type === 'event').map((r) => ({ ...(r.event !== undefined ? { event: r.event as string } : {}), ...(r.id !== undefined ? { id: r.id as string } : {}), data: r.data }));
}
