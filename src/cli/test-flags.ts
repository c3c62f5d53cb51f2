/**
 * The flags of `reqflow test`: the request-sending ones of `run` (same meaning, one table) and
 * the test runner's own.
 */
import { type FlagSpec, type RawRunFlags, RUN_FLAGS } from './run-flags.js';

const SHARED = ['variable', 'profile', 'profiles', 'env', 'timeout', 'max-time', 'extract', 'insecure', 'follow', 'max-size', 'color', 'debug', 'save', 'script-timeout', 'trust', 'cookies', 'session', 'history', 'proxy', 'noproxy', 'retry', 'retry-all', 'http2', 'unix-socket', 'format', 'dry-run', 'as', 'show-secrets'] as const;

export const TEST_FLAGS = {
  ...Object.fromEntries(SHARED.map((name) => [name, RUN_FLAGS[name]])),
  jobs: { type: 'string', char: 'j', helpValue: 'N', default: '1', description: 'Run N files at once (the requests of one file always run in order).' },
  bail: { type: 'boolean', description: 'Stop at the first request that fails.' },
  grep: { type: 'string', helpValue: 'PATTERN', description: 'Run only the requests whose name matches (a regular expression, case-insensitive); requests they refer to still run.' },
  report: { type: 'string', multiple: true, helpValue: 'FORMAT[=PATH]', description: 'Write a report: junit=PATH, tap[=PATH] (stdout without a path), json=PATH (NDJSON records with the checks), html=PATH (report.html, or a folder that gets index.html). Repeatable.' },
  watch: { type: 'boolean', char: 'w', description: 'Run again whenever a request file, a script or an environment file changes, until Ctrl-C.' },
  repeat: { type: 'string', helpValue: 'N', description: 'Run everything N times; the summary gives each request\'s passes, failures and p50/p95 time (for flaky endpoints).' },
} as const satisfies Record<string, FlagSpec>;

export interface RawTestFlags extends RawRunFlags {
  jobs?: string;
  bail?: boolean;
  grep?: string;
  report?: string[];
  repeat?: string;
  watch?: boolean;
}

export const TEST_EXAMPLES = [
  { description: 'Run the requests and checks of every request file under api/', command: '<%= config.bin %> test api/' },
  { description: 'Two files at once, a JUnit report for CI', command: '<%= config.bin %> test api/ --jobs 2 --report junit=reports/junit.xml' },
  { description: 'Only the requests named like "login", stop at the first failure', command: '<%= config.bin %> test api/auth.http --grep login --bail' },
  { description: 'A browsable report', command: '<%= config.bin %> test api/ --report html=reports/html' },
  { description: 'The requests of a file from stdin', command: 'cat api.yaml | <%= config.bin %> test - --format yaml' },
];
