import { Args, Command } from '@oclif/core';
import { toOclifFlags } from '../cli/oclif-flags.js';
import { processIo } from '../cli/run-file.js';
import { collectThirdPartyPlugins, type HookRunner } from '../pipeline/third-party.js';
import { STRESS_FLAGS, type RawStressFlags } from '../stress/flags.js';
import { stressCommand } from '../stress/run-stress.js';

export default class Stress extends Command {
  static override summary = 'Load-test one request of a file: workers, ramp-up, rate, latency percentiles, thresholds — or write it as a k6 script.';
  static override description =
    'Sends the request named with -n again and again through the same loop as `reqflow run` (profiles, --env, auth, sessions, TLS, proxies) with --workers concurrent workers for --duration (default 10s) or --requests N, at most --rate per second, then prints count, throughput, p50/p90/p95/p99/max latency, statuses, errors by kind and each check\'s passes and failures. --threshold fails the run (exit 1). --as k6 writes the same scenario as a k6 script instead. Reference: docs/stress.md.';
  static override examples = [
    { description: '20 workers for 30 seconds, then the table', command: '<%= config.bin %> stress api.http -n list-users --workers 20 --duration 30s' },
    { description: '10,000 requests at most 500 per second; fail when p95 is 300 ms or more', command: '<%= config.bin %> stress api.http -n list-users --requests 10000 --rate 500 --threshold "p95<300ms"' },
    { description: 'One JSON document for CI', command: '<%= config.bin %> stress api.http -n login -p staging -o json --threshold "error_rate<1%"' },
    { description: 'The same scenario as a k6 script', command: '<%= config.bin %> stress api.http -n list-users --workers 50 --ramp-up 30s --duration 5m --as k6 -o load.js' },
  ];
  static override args = { file: Args.string({ description: 'Request file (.http, .rest, .yaml, .yml, .json)', required: false }) };
  static override flags = toOclifFlags(undefined, STRESS_FLAGS);
  static override strict = true;

  async run(): Promise<void> {
    const { args, flags } = (await this.parse(Stress as never)) as { args: { file?: string }; flags: Record<string, unknown> };
    process.exitCode = await stressCommand(args.file, flags as RawStressFlags, processIo(), (warn) => collectThirdPartyPlugins(this.config as unknown as HookRunner, warn));
  }
}
