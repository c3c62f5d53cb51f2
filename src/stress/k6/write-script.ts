/**
 * `reqflow stress … --as k6`: the request is built once as a dry run builds it (variables,
 * scripts, auth — nothing sent), turned into a k6 script, and printed or written to `-o FILE`
 * (never over an existing file without --force).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createFileAtomic, writeFileAtomic } from '../../core/atomic-write.js';
import { ExitCode, UsageError } from '../../core/errors/index.js';
import { fieldLines } from '../../core/headers.js';
import type { RequestSpec } from '../../core/model.js';
import { real } from '../../core/project.js';
import { shownPath } from '../../core/resolve-path.js';
import type { CliIo } from '../../cli/run-file.js';
import type { RunServices } from '../../pipeline/create-context.js';
import type { RequestOutcome } from '../../report/reporter.js';
import type { StressPlan } from '../flags.js';
import { translateChecks } from './checks.js';
import { k6Scenario, k6Thresholds } from './scenario.js';
import { k6Script } from './script.js';
import { envSecrets } from './secrets.js';

export interface K6Export {
  spec: RequestSpec;
  file: string;
  plan: StressPlan;
  services: RunServices;
  io: CliIo;
  /** Runs the request once through the loop, as a dry run. */
  run(): Promise<RequestOutcome>;
}

/** The run's named values, to name each secret after the variable that holds it. */
function namedValues(services: RunServices, spec: RequestSpec): Array<[string, string]> {
  const named: Array<[string, string]> = [...Object.entries(services.options.cliVariables)];
  named.push(...Object.entries(services.environment?.variables ?? {}));
  for (const [name, value] of Object.entries(services.profile.variables)) {
    if (typeof value === 'string') named.push([name, value]);
    const session = services.session.get(name);
    if (session !== undefined) named.push([name, session]);
  }
  const token = services.session.get('token');
  if (token !== undefined) named.push(['token', token]);
  for (const [name, value] of Object.entries(spec.fileVariables ?? {})) named.push([name, value]);
  return named;
}

export async function writeK6Script(job: K6Export): Promise<number> {
  const { plan, services, io } = job;
  const target = plan.k6?.scriptPath !== undefined ? resolve(io.cwd, plan.k6.scriptPath) : undefined;
  // Refused before anything is built: an existing script may be the user's own edit of the last one.
  const exists = (path: string): UsageError => new UsageError(`${shownPath(path, io.cwd)} exists: not overwritten`, { hint: 'pass --force to replace it, or -o another file' });
  const force = plan.k6?.force === true;
  if (target && existsSync(target) && !force) throw exists(target);
  // Not even with --force: the request file it is exported from (`-o api.http`) would be lost (as a test report's path, test-run/reports.ts).
  if (target && real(target) === real(resolve(io.cwd, job.file))) throw new UsageError(`-o ${shownPath(target, io.cwd)}: that is the request file being exported, which the script would replace`, { hint: 'write the script to another path, e.g. -o script.js' });
  const outcome = await job.run();
  if (outcome.error) throw outcome.error;
  const sent = outcome.sent ?? job.spec;
  const tls = { ...services.profile.tls, ...sent.tls };
  // Only those the request holds: the run knows others (the session's token), which the script neither reads nor needs.
  const texts = [sent.url, ...Object.values(sent.headers).flatMap((value) => fieldLines(value)), typeof sent.body === 'string' ? sent.body : (sent.body?.toString('utf8') ?? '')];
  const secrets = envSecrets(services.secrets, sent, namedValues(services, sent)).filter((secret) => texts.some((text) => text.includes(secret.value) || text.includes(encodeURIComponent(secret.value))));
  if (Buffer.isBuffer(sent.body) && secrets.some((secret) => (sent.body as Buffer).includes(secret.value))) {
    throw new UsageError(`request "${job.spec.name}": its body is binary and holds a secret, which a k6 script cannot take from the environment`, { hint: 'write the body as text, or export without the secret' });
  }
  const { scenario, notes } = k6Scenario(plan);
  const unresolved = [sent.url, sent.body].some((text) => typeof text === 'string' && /\{\{[^}]*\.response\./.test(text));
  const script = k6Script({
    source: `${shownPath(job.file, io.cwd)} › ${job.spec.name}`,
    request: { name: sent.name, method: sent.method, url: sent.url, headers: sent.headers, ...(sent.body !== undefined ? { body: sent.body } : {}) },
    secrets,
    checks: translateChecks(job.spec),
    scenario,
    thresholds: k6Thresholds(plan.thresholds),
    insecure: services.options.insecure || tls.insecureSkipVerify === true,
    notes: [
      ...notes,
      ...(unresolved ? ['the request refers to another request\'s response ({{name.response…}}), left as written: replace it, or add that request to the script'] : []),
      ...(tls.certFile !== undefined || tls.pfxFile !== undefined ? ['the request uses a client certificate: set tlsAuth in options'] : []),
    ],
  });
  // The last guard: a secret in a form not replaced above is masked, never written.
  const safe = services.secrets.scrub(script);
  if (!target) {
    io.stdout.write(safe);
    return ExitCode.ok;
  }
  // Created only where no file is, even one made while the request ran.
  if (force) await writeFileAtomic(target, safe, { mode: 0o644, dirMode: 0o755 });
  else if (!(await createFileAtomic(target, safe, { mode: 0o644, dirMode: 0o755 }))) throw exists(target);
  io.stderr.write(`reqflow: wrote ${shownPath(target, io.cwd)} — run it with: k6 run ${secrets.map((s) => `-e ${s.name}=… `).join('')}${shownPath(target, io.cwd)}\n`);
  return ExitCode.ok;
}
