/**
 * A history of 100,000 entries for `reqflow history stats`, written the way reqflow writes one
 * (the summary first, then the exchange; split between the current file and the rotated one):
 * 50 requests in 5 files, a month of entries, one in 17 a 500.
 */
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const HISTORY_ENTRIES = 100_000;

/** Writes the project folder (an empty profiles file) and its history; returns the folder. */
export function writeHistoryFixture(dir, stateDir) {
  const project = join(dir, 'history-project');
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, '.profiles.json'), '[]\n');
  const root = realpathSync(project);
  const folder = join(stateDir, 'history', encodeURIComponent(root));
  mkdirSync(folder, { recursive: true });
  const start = Date.now() - 30 * 86_400_000;
  const lines = [];
  for (let i = 0; i < HISTORY_ENTRIES; i++) {
    const request = i % 50;
    lines.push(
      JSON.stringify({
        v: 1,
        id: (0x100000000000 + i).toString(16).slice(-12),
        time: new Date(start + i * 25_000).toISOString(),
        project: root,
        profile: 'default',
        file: join(root, `api-${request % 5}.http`),
        name: `request-${request}`,
        line: request * 4 + 1,
        method: 'GET',
        url: `http://127.0.0.1:4010/users/${request}?page=1`,
        status: i % 17 === 0 ? 500 : 200,
        durationMs: ((i * 7919) % 500) / 10,
        size: 42,
        request: { headers: { Accept: 'application/json', Authorization: '•••' }, size: 0 },
        response: { statusText: 'OK', headers: { 'content-type': 'application/json', 'content-length': '42' }, body: '{"id":12,"name":"Ada Lovelace","ok":true}' },
      }),
    );
  }
  const half = HISTORY_ENTRIES / 2;
  writeFileSync(join(folder, 'default.ndjson.1'), `${lines.slice(0, half).join('\n')}\n`);
  writeFileSync(join(folder, 'default.ndjson'), `${lines.slice(half).join('\n')}\n`);
  return project;
}
