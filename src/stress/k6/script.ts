/** The text of a k6 script: one request, its checks, the scenario and thresholds, secrets as `__ENV`. */
import { getHeader, type RequestHeaders } from '../../core/headers.js';
import { utf8Text } from '../../report/outgoing-request.js';
import { CHECK_HELPERS, type TranslatedChecks } from './checks.js';
import { jsText, type EnvSecret } from './secrets.js';

export interface K6Request {
  name: string;
  method: string;
  url: string;
  headers: RequestHeaders;
  body?: string | Buffer;
}

export interface K6ScriptParts {
  /** Where it comes from, for the first comment: `api.http › login`. */
  source: string;
  request: K6Request;
  secrets: readonly EnvSecret[];
  checks: TranslatedChecks;
  scenario: Record<string, unknown>;
  thresholds: Record<string, string[]>;
  insecure: boolean;
  /** Anything else the user should know (what the scenario leaves out, `{{…}}` left in the request). */
  notes: readonly string[];
}

const indent = (text: string, by: string): string => text.split('\n').join(`\n${by}`);

function bodyExpression(body: string | Buffer | undefined, secrets: readonly EnvSecret[]): { code: string; binary: boolean } {
  if (body === undefined) return { code: 'null', binary: false };
  const text = typeof body === 'string' ? body : utf8Text(body);
  if (text !== undefined) return { code: jsText(text, secrets), binary: false };
  return { code: `encoding.b64decode(${JSON.stringify((body as Buffer).toString('base64'))}, 'std', 'b')`, binary: true };
}

export function k6Script(parts: K6ScriptParts): string {
  const { request, secrets } = parts;
  const body = bodyExpression(request.body, secrets);
  const envLine = secrets.length > 0 ? ` ${secrets.map((s) => `-e ${s.name}=…`).join(' ')}` : '';
  const lines = [
    `// k6 script written by reqflow stress --as k6 from ${parts.source}.`,
    `// Run it: k6 run${envLine} script.js   (k6 cloud / distributed runners take the same file)`,
  ];
  if (secrets.length > 0) {
    lines.push('// Secrets are not in this file; pass each as a k6 environment variable:');
    for (const secret of secrets) lines.push(`//   -e ${secret.name}=…   ${secret.where}`);
  }
  for (const note of parts.notes) lines.push(`// Note: ${note}`);
  if (parts.checks.untranslated.length > 0) {
    lines.push('// Checks with no k6 equivalent, left out (reqflow stress still runs them):');
    for (const check of parts.checks.untranslated) lines.push(`//   ${check.replace(/\n/g, ' ')}`);
  }
  lines.push("import http from 'k6/http';");
  if (parts.checks.checks.length > 0) lines.push("import { check } from 'k6';");
  if (body.binary) lines.push("import encoding from 'k6/encoding';");
  const options: Record<string, unknown> = { scenarios: { stress: parts.scenario } };
  if (Object.keys(parts.thresholds).length > 0) options.thresholds = parts.thresholds;
  if (parts.insecure) options.insecureSkipTLSVerify = true;
  lines.push('', `export const options = ${JSON.stringify(options, null, 2)};`, '');
  const headers = Object.keys(request.headers).map((name) => `    ${JSON.stringify(name)}: ${jsText(getHeader(request.headers, name) ?? '', secrets)},`);
  lines.push(
    `const url = ${jsText(request.url, secrets)};`,
    `const body = ${body.code};`,
    'const params = {',
    `  headers: {${headers.length > 0 ? `\n${headers.join('\n')}\n  ` : ''}},`,
    `  tags: { name: ${JSON.stringify(request.name)} },`,
    '};',
    '',
  );
  if (parts.checks.checks.length > 0) lines.push(CHECK_HELPERS, '');
  lines.push('export default function () {', `  const res = http.request(${JSON.stringify(request.method)}, url, body, params);`);
  if (parts.checks.checks.length > 0) {
    lines.push('  check(res, {');
    for (const c of parts.checks.checks) lines.push(`    ${JSON.stringify(c.name)}: ${indent(c.fn, '    ')},`);
    lines.push('  });');
  }
  lines.push('}', '');
  return lines.join('\n');
}
