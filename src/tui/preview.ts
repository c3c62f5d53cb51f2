import { mergeHeaders } from '../core/headers.js';
import { MASK, SecretRegistry, displayHeaders, displayUrl, isSecretName } from '../core/mask.js';
import type { Profile, ProfileVariable, RequestSpec, Session } from '../core/model.js';
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

const TEMPLATE = /\{\{\s*([^{}]*?)\s*\}\}/g;

/**
 * A preview must be free of side effects: shell values are not run and interactive values are
 * not asked for; they show as `‹name›` and resolve when the request is sent.
 */
function inertProfile(profile: Profile, deferred: Set<string>): Profile {
  const variables: Record<string, ProfileVariable> = {};
  for (const [name, variable] of Object.entries(profile.variables)) {
    const raw = typeof variable === 'string' ? variable : variable.value;
    const interactive = typeof variable !== 'string' && variable.interactive === true;
    if (interactive || isShellValue(raw)) {
      deferred.add(name);
      variables[name] = `‹${name}›`;
    } else variables[name] = raw;
  }
  return { ...profile, variables };
}

export async function previewRequest(spec: RequestSpec, context: { profile: Profile; session: Session; cliVariables: Record<string, string>; env: NodeJS.ProcessEnv }): Promise<RequestPreview> {
  const deferred = new Set<string>();
  const unresolved = new Set<string>();
  const secrets = new SecretRegistry();
  const cliVariables: Record<string, string> = {};
  for (const [name, value] of Object.entries(context.cliVariables)) {
    if (isShellValue(value)) deferred.add(name);
    cliVariables[name] = isShellValue(value) ? `‹${name}›` : value;
    if (isSecretName(name)) secrets.add(value);
  }
  const resolver = new TemplateResolver({
    cliVariables,
    session: context.session,
    profile: inertProfile(context.profile, deferred),
    prompter: () => Promise.reject(new Error('no prompts in a preview')),
    promptCache: new Map(),
    secrets,
    env: context.env,
  });
  // Each template on its own, so one unknown variable leaves the rest resolved.
  const expand = async (text: string): Promise<string> => {
    let result = '';
    let last = 0;
    for (const match of text.matchAll(TEMPLATE)) {
      result += text.slice(last, match.index);
      try {
        result += await resolver.expand(match[0]);
      } catch {
        unresolved.add((match[1] ?? '').trim());
        result += match[0];
      }
      last = (match.index ?? 0) + match[0].length;
    }
    return result + text.slice(last);
  };
  const headers: Array<[string, string]> = [];
  const texts: string[] = [];
  const track = (text: string): string => (texts.push(text), text);
  for (const [name, value] of Object.entries(mergeHeaders(context.profile.headers, spec.headers))) {
    const expandedName = track(await expand(name));
    const expandedValue = track(await expand(value));
    headers.push([expandedName, isSecretName(expandedName) ? MASK : secrets.scrub(expandedValue)]);
  }
  const url = track(await expand(spec.url));
  const written = spec.bodyParts ? spec.bodyParts.map((part) => (part.kind === 'text' ? part.text : `< ${part.path}\n`)).join('') : spec.body;
  const body = written === undefined ? undefined : track(await expand(typeof written === 'string' ? written : written.toString('utf8')));
  const preview: RequestPreview = {
    method: spec.method,
    url: displayUrl(url, (text) => secrets.scrub(text)),
    headers,
    unresolved: [...unresolved],
    // Only the placeholders this request actually uses.
    deferred: [...deferred].filter((name) => texts.some((text) => text.includes(`‹${name}›`))),
  };
  if (body !== undefined) preview.body = secrets.scrub(body);
  return preview;
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
  if (spec.body !== undefined) preview.body = secrets.scrub(typeof spec.body === 'string' ? spec.body : spec.body.toString('utf8'));
  return preview;
}
