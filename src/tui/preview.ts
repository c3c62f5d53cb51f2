import { fieldLines, mergeHeaders } from '../core/headers.js';
import { MASK, SecretRegistry, displayHeaders, displayUrl, isSecretName } from '../core/mask.js';
import { learnRequestSecrets } from '../core/request-secrets.js';
import type { Environment } from '../core/environments.js';
import type { Profile, RequestSpec, Session } from '../core/model.js';
import { isShellValue } from '../core/shell.js';
import { TemplateResolver } from '../core/variables.js';

/** The request as it would be sent, for the request pane; secrets are already masked. */
export interface RequestPreview {
  method: string;
  url: string;
  headers: Array<[string, string]>;
  body?: string;
  /** Variables that are not known yet (`{{name}}` left as written). */
  unresolved: string[];
  /** Values shown as placeholders: shell commands (not run for a preview) and interactive prompts. */
  deferred: string[];
}

/**
 * The request with its variables resolved by the core's resolver in preview mode: shell values
 * are not run and prompts not asked (they show as `‹name›`), unknown variables stay as written.
 */
export async function previewRequest(spec: RequestSpec, context: { profile: Profile; session: Session; cliVariables: Record<string, string>; env: NodeJS.ProcessEnv; environment?: Environment }): Promise<RequestPreview> {
  const preview = { deferred: new Set<string>(), unresolved: new Set<string>() };
  const secrets = new SecretRegistry();
  const { environment } = context;
  for (const value of environment?.secrets ?? []) secrets.add(value);
  for (const [name, value] of Object.entries(context.cliVariables)) if (isSecretName(name) && !isShellValue(value)) secrets.add(value);
  const resolver = new TemplateResolver({
    cliVariables: context.cliVariables,
    ...(spec.fileVariables ? { fileVariables: spec.fileVariables } : {}),
    ...(spec.prompts ? { prompts: spec.prompts } : {}),
    session: context.session,
    ...(environment ? { environmentVariables: environment.variables, ...(environment.name ? { environmentName: environment.name } : {}) } : {}),
    profile: context.profile,
    prompter: () => Promise.reject(new Error('no prompts in a preview')),
    promptCache: new Map(),
    secrets,
    env: context.env,
    preview,
  });
  const texts: string[] = [];
  const expand = async (text: string): Promise<string> => {
    const expanded = await resolver.expand(text);
    texts.push(expanded);
    return expanded;
  };
  const expanded: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(mergeHeaders(context.profile.headers, spec.headers))) {
    const expandedName = await expand(name);
    for (const line of fieldLines(value)) expanded.push([expandedName, await expand(line)]);
  }
  const url = await expand(spec.url);
  const written = spec.bodyParts ? spec.bodyParts.map((part) => (part.kind === 'text' ? part.text : `< ${part.path}\n`)).join('') : spec.body;
  const body = written === undefined ? undefined : await expand(typeof written === 'string' ? written : written.toString('utf8'));
  // What the pipeline learns before -v or --dry-run prints (loop.ts): a secret-named header's value
  // (`Authorization: Bearer {{t}}`) and what the URL and body write under secret names are secrets
  // wherever else they appear — `X-Trace: {{t}}` must not show in the pane what --dry-run masks.
  for (const [name, value] of expanded) secrets.addHeaderValue(name, value);
  learnRequestSecrets(secrets, url, body);
  const headers = expanded.map(([name, value]): [string, string] => [name, isSecretName(name) ? MASK : secrets.scrub(value)]);
  const result: RequestPreview = {
    method: spec.method,
    url: displayUrl(url, (text) => secrets.scrub(text)),
    headers,
    unresolved: [...preview.unresolved],
    // Only the placeholders this request actually uses.
    deferred: [...preview.deferred].filter((name) => texts.some((text) => text.includes(`‹${name}›`))),
  };
  if (body !== undefined) result.body = secrets.scrub(body);
  return result;
}

/** The request as actually sent (after auth), masked the same way. */
export function sentRequest(spec: RequestSpec, secrets: SecretRegistry): RequestPreview {
  const scrub = (text: string): string => secrets.scrub(text);
  const preview: RequestPreview = {
    method: spec.method,
    url: displayUrl(spec.url, scrub),
    headers: Object.entries(displayHeaders(spec.headers, scrub)).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value]),
    unresolved: [],
    deferred: [],
  };
  // A large file sent as it is read is named, not read.
  const body = spec.bodyFile?.stillBodyOf(spec)?.placeholder ?? spec.body;
  if (body !== undefined) preview.body = secrets.scrub(typeof body === 'string' ? body : body.toString('utf8'));
  return preview;
}
