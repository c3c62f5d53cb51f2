/**
 * What the auth plugins share: their settings in the profile's `auth` object, credential
 * lookup with a method-specific hint, header-value checks and query parameters.
 */
import { UsageError, VariableError } from './errors/index.js';
import { NOT_IN_HEADER_VALUE, unheldNameRule } from './headers.js';
import type { RequestContext } from '../pipeline/context.js';

/** A method's settings from the profile, with where they sit (`auth` or `auth.custom`) for messages. */
export interface MethodSettings {
  values: Record<string, unknown>;
  path: string;
}

function settingsError(ctx: RequestContext, field: string, expected: string): UsageError {
  return new UsageError(`profile "${ctx.profile.name}": ${field}: expected ${expected}`, { hint: 'see the settings of each method in the README (Authentication)' });
}

/**
 * Settings for `method` from the profile's `auth`: the object itself when its `type` is that
 * method, else its entry named after the method (so a profile can configure methods that
 * requests pick with `# @auth`: `{"type": "none", "custom": {"headers": {...}}}`), else none:
 * defaults apply.
 */
export function authSettings(ctx: RequestContext, method: string): MethodSettings {
  const auth = ctx.profile.auth;
  if (auth === undefined) return { values: {}, path: 'auth' };
  if (auth.type === method) return { values: auth, path: 'auth' };
  const nested = auth[method];
  if (nested === undefined || nested === null) return { values: {}, path: `auth.${method}` };
  if (typeof nested !== 'object' || Array.isArray(nested)) throw settingsError(ctx, `auth.${method}`, `an object of ${method} settings`);
  return { values: nested as Record<string, unknown>, path: `auth.${method}` };
}

/** A string setting, validated where it enters (exit 2 naming the field). */
export function stringSetting(ctx: RequestContext, settings: MethodSettings, key: string): string | undefined {
  const value = settings.values[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw settingsError(ctx, `${settings.path}.${key}`, 'a string');
  return value;
}

/** An object-of-strings setting (`headers`, `query`). */
export function recordSetting(ctx: RequestContext, settings: MethodSettings, key: string): Record<string, string> | undefined {
  const value = settings.values[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw settingsError(ctx, `${settings.path}.${key}`, 'an object of "name": "value" strings');
  for (const [name, item] of Object.entries(value)) if (typeof item !== 'string') throw settingsError(ctx, `${settings.path}.${key}.${name}`, 'a string');
  return value as Record<string, string>;
}

/** A value of a setting that must be one of a few words. */
export function choiceSetting<T extends string>(ctx: RequestContext, settings: MethodSettings, key: string, choices: readonly T[], fallback: T): T {
  const value = stringSetting(ctx, settings, key) ?? fallback;
  if (!(choices as readonly string[]).includes(value)) throw settingsError(ctx, `${settings.path}.${key}`, `${choices.map((c) => JSON.stringify(c)).join(' or ')}, got ${JSON.stringify(value)}`);
  return value as T;
}

/**
 * A credential: the profile's template for it when there is one (`"token": "{{env.GH_TOKEN}}"`),
 * else the value of the method's default variable. A default variable that nothing defines, or
 * an empty value (unless `allowEmpty`), is exit 3 with the method's own hint.
 */
export async function credential(ctx: RequestContext, options: { template: string | undefined; variable: string; missing: () => VariableError; allowEmpty?: boolean }): Promise<string> {
  let value: string;
  if (options.template !== undefined) value = await ctx.variables.expand(options.template);
  else if (!ctx.variables.has(options.variable)) throw options.missing();
  else value = await ctx.variables.get(options.variable);
  if (value === '' && options.allowEmpty !== true) throw options.missing();
  return value;
}

/** Fails with exit 3 when a computed value cannot travel in a header (a line break, a control character, non-ASCII text). */
export function checkHeaderValue(ctx: RequestContext, header: string, value: string, from: string): string {
  if (NOT_IN_HEADER_VALUE.test(value)) {
    throw new VariableError(`the value for header ${header} (from ${from}) contains a character that cannot be sent in a header${ctx.spec.name ? ` (request "${ctx.spec.name}")` : ''}`, {
      hint: 'check the variable for a line break or non-ASCII text; base64-encode binary values with {{base64 name}}',
    });
  }
  return value;
}

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

/** A header name from a profile setting, validated (exit 2 naming the field). */
export function checkHeaderName(ctx: RequestContext, settings: MethodSettings, name: string, key: string): string {
  if (!HEADER_NAME.test(name)) throw settingsError(ctx, `${settings.path}.${key}`, `a valid header name, got ${JSON.stringify(name)}`);
  // Named here, not by the headers' backstop, which cannot say which setting wrote it.
  if (unheldNameRule(name) !== undefined) throw settingsError(ctx, `${settings.path}.${key}`, 'a header name reqflow can send (not __proto__)');
  return name;
}

function splitUrl(url: string): { base: string; fragment: string } {
  const hash = url.indexOf('#');
  return hash < 0 ? { base: url, fragment: '' } : { base: url.slice(0, hash), fragment: url.slice(hash) };
}

/** True when the URL's query already has the parameter (the request's own value wins). */
export function hasQueryParam(url: string, name: string): boolean {
  const { base } = splitUrl(url);
  const question = base.indexOf('?');
  return question >= 0 && new URLSearchParams(base.slice(question + 1)).has(name);
}

/**
 * Appends `name=value` (percent-encoded) to the query, before any `#fragment`, leaving the rest
 * of the URL byte for byte as written (re-serialising through `URL` would re-encode it).
 */
export function addQueryParam(url: string, name: string, value: string): string {
  const { base, fragment } = splitUrl(url);
  const separator = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${separator}${encodeURIComponent(name)}=${encodeURIComponent(value)}${fragment}`;
}
