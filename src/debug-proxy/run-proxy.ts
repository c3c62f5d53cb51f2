/**
 * `reqflow proxy`: listen, print and record each exchange (the history of the current project
 * and profile, as `reqflow send` would record there), save requests with `--save`, stop on
 * Ctrl-C. The oclif command (src/commands/proxy.ts) only parses flags and calls this.
 */
import { statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { exitCodeOf } from '../cli/report-error.js';
import { untilStopped } from '../cli/until-stopped.js';
import { UsageError } from '../core/errors/index.js';
import { isLoopbackHost } from '../core/listen.js';
import { SecretRegistry } from '../core/mask.js';
import { learnRequestSecrets } from '../core/request-secrets.js';
import { selectProfile } from '../core/profiles.js';
import type { RecordedExchange } from '../history/entry.js';
import { openHistory, type HistoryLog } from '../history/log.js';
import { currentProject } from '../history/scope.js';
import { exchangeLine, tunnelLine } from './live-line.js';
import { saveExchange } from './save-http.js';
import { startProxyServer, type ProxyServer } from './server.js';
import { warningLine } from '../report/render/visible.js';

export interface ProxyFlags {
  port?: number;
  host?: string;
  save?: string;
  profile?: string;
  profiles?: string;
  history?: boolean;
  timeout?: number;
  'tunnel-idle'?: number;
  debug?: boolean;
}

interface Io {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export const DEFAULT_PROXY_PORT = 8888;
/** What `reqflow send --timeout` waits for a silent server. */
export const DEFAULT_PROXY_TIMEOUT_MS = 30_000;
/** How long a CONNECT tunnel may carry nothing before it is closed: ten minutes (squid's is fifteen). */
export const DEFAULT_TUNNEL_IDLE_MS = 600_000;

/** Every credential the exchange carries, so that it is masked wherever its value appears (URL, bodies, other headers). */
function learnSecrets(exchange: RecordedExchange, secrets: SecretRegistry): void {
  for (const [name, value] of Object.entries(exchange.requestHeaders)) for (const line of Array.isArray(value) ? value : [value]) secrets.addHeaderValue(name, line);
  // A key in the query, a password in a JSON or form body: the server may echo it back in its answer.
  learnRequestSecrets(secrets, exchange.url, exchange.requestBody);
}

/** `--save DIR`, absolute; a path that is there and is not a folder is refused before listening. */
function saveDir(flag: string | undefined, cwd: string): string | undefined {
  if (flag === undefined) return undefined;
  const dir = resolve(cwd, flag);
  const stat = statSync(dir, { throwIfNoEntry: false });
  if (stat && !stat.isDirectory()) throw new UsageError(`--save ${flag}: not a folder`, { hint: 'give a folder (it is created when missing): each request is saved there as a .http file' });
  return dir;
}

function usage(url: string, history: HistoryLog | undefined, save: string | undefined, cwd: string): string {
  const where = history ? `recording to the history of profile "${history.target.profile}" in ${history.target.project}` : 'history off';
  return [
    `proxy: listening on ${url} (${where}${save !== undefined ? `; saving requests to ${relative(cwd, save) || '.'}` : ''})`,
    `  use it: HTTP_PROXY=${url} HTTPS_PROXY=${url} your-app`,
    `          curl -x ${url} http://example.com/    ·    reqflow send -x ${url} http://example.com/`,
    '  https goes through as tunnels (CONNECT: shown, not decrypted, not recorded); Ctrl-C stops',
    '',
  ].join('\n');
}

export function proxyCommand(flags: ProxyFlags, io: Io): Promise<number> {
  const secrets = new SecretRegistry();
  let server: ProxyServer | undefined;
  return exitCodeOf(
    async () => {
      const host = flags.host ?? '127.0.0.1';
      const save = saveDir(flags.save, io.cwd);
      const { project, document } = await currentProject(flags, io);
      const profile = selectProfile(document, flags.profile, io.env, io.cwd);
      const warn = (message: string): void => void io.stderr.write(`${warningLine(message)}\n`);
      const history = openHistory({ options: { ...(flags.history === false ? { history: false } : {}) }, profile, project, ...(document.path ? { profilesFile: document.path } : {}), secrets, env: io.env, warn });
      const counts = { exchanges: 0, tunnels: 0 };
      const saved = { next: 1 };
      let saving: Promise<void> = Promise.resolve();
      server = await startProxyServer({
        port: flags.port ?? DEFAULT_PROXY_PORT,
        host,
        cwd: io.cwd,
        timeoutMs: flags.timeout ?? DEFAULT_PROXY_TIMEOUT_MS,
        tunnelIdleMs: flags['tunnel-idle'] ?? DEFAULT_TUNNEL_IDLE_MS,
        exchange: (exchange) => {
          counts.exchanges++;
          learnSecrets(exchange, secrets);
          io.stdout.write(`${exchangeLine(exchange, (text) => secrets.scrub(text))}\n`);
          if (history) {
            history.add(exchange);
            void history.flush(); // `reqflow history` sees it while the proxy runs
          }
          if (save !== undefined) {
            saving = saving
              .then(() => saveExchange(save, exchange, saved))
              .then(
                (file) => void io.stdout.write(`  saved ${relative(io.cwd, file)}\n`),
                (error: unknown) => warn(`cannot save the request: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`),
              );
          }
        },
        tunnel: (report) => {
          counts.tunnels++;
          io.stdout.write(`${tunnelLine(report)}\n`);
        },
        refused: (line) => void io.stderr.write(`proxy: refused ${line}\n`),
      });
      if (!isLoopbackHost(host)) warn(`listening on ${host}: other machines can send through this proxy (and read what it records); 127.0.0.1 keeps it to this one`);
      // Ctrl-C is ours before anyone reads that we listen (a script may stop us at once).
      const stopped = untilStopped();
      io.stdout.write(usage(server.url, history, save, io.cwd));
      await stopped;
      await server.close();
      server = undefined;
      await saving;
      await history?.flush();
      io.stdout.write(`proxy: stopped after ${counts.exchanges} ${counts.exchanges === 1 ? 'exchange' : 'exchanges'} and ${counts.tunnels} ${counts.tunnels === 1 ? 'tunnel' : 'tunnels'}\n`);
      return 0;
    },
    io.stderr,
    () => ({ debug: flags.debug === true, secrets }),
    () => void server?.close(),
  );
}
