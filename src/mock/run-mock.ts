/**
 * `reqflow mock`: load the routes, listen, reload them when their file changes, stop on Ctrl-C.
 * The oclif command (src/commands/mock.ts) only parses flags and calls this.
 */
import { exitCodeOf } from '../cli/report-error.js';
import { untilStopped } from '../cli/until-stopped.js';
import { UsageError } from '../core/errors/index.js';
import { SecretRegistry } from '../core/mask.js';
import { warningLine } from '../report/render/visible.js';
import { loadMockConfig, type MockConfig } from './config.js';
import { startMockServer } from './server.js';
import { watchFile } from './watch.js';

export interface MockFlags {
  port?: number;
  host?: string;
  'from-openapi'?: string;
  /** The largest mock file or OpenAPI document (and `$ref`'d file) read, in bytes. */
  'max-size': number;
  log?: boolean;
  watch?: boolean;
  debug?: boolean;
}

interface Io {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

const count = (config: MockConfig): string => `${config.routes.length} ${config.routes.length === 1 ? 'route' : 'routes'}`;

export function mockCommand(file: string | undefined, flags: MockFlags, io: Io = process): Promise<number> {
  const stops: Array<() => unknown> = [];
  return exitCodeOf(
    async () => {
      const spec = flags['from-openapi'];
      if ((file === undefined) === (spec === undefined)) throw new UsageError(file === undefined ? 'name a mock file, or an OpenAPI document with --from-openapi' : 'give a mock file or --from-openapi, not both', { hint: 'reqflow mock api.mock.yaml, or reqflow mock --from-openapi openapi.yaml' });
      const source = (file ?? spec) as string;
      const load = async (): Promise<MockConfig> => {
        const maxBytes = flags['max-size'];
        // A warning (an example made shallower than its schema) is said at each load, reloads too.
        const warn = (message: string): void => void io.stderr.write(`${warningLine(message)}\n`);
        const config = file !== undefined ? await loadMockConfig(file, maxBytes) : await (await import('./openapi.js')).loadOpenApiMock(source, maxBytes, warn);
        return flags.log ? { ...config, logging: true } : config;
      };
      let config = await load();
      const server = await startMockServer(config, { port: flags.port ?? config.port, host: flags.host ?? config.host, log: (line) => io.stderr.write(`${line}\n`) });
      stops.push(() => server.close());
      // Ctrl-C is ours before anyone reads that we listen (a script may stop us at once).
      const stopped = untilStopped();
      io.stdout.write(`mock: listening on ${server.url} (${count(config)} from ${source})\n`);
      if (flags.watch !== false) {
        const reload = (): void => {
          load().then(
            (next) => {
              config = next;
              server.setConfig(next);
              io.stdout.write(`mock: reloaded ${count(next)} from ${source}\n`);
            },
            // A half-saved or mistyped file: keep answering with what worked.
            (error: unknown) => io.stderr.write(`mock: reload failed, still serving the previous ${count(config)}: ${(error as Error).message}\n`),
          );
        };
        stops.push(watchFile(source, reload));
      }
      await stopped;
      io.stdout.write('mock: stopped\n');
      return 0;
    },
    io.stderr,
    () => ({ debug: flags.debug === true, secrets: new SecretRegistry() }),
    () => stops.reverse().forEach((stop) => void stop()),
  );
}
