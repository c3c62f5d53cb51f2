/**
 * Small helpers for plugin authors, exported from `reqflow` (and handed to the
 * `reqflow:plugins` hook as `reqflow`). They only use the context they are given, so they work
 * the same from a plugin that runs under any reqflow version with this API.
 */
import { authSettings } from './auth-helpers.js';
import { ExitCode, ReqflowError, type ExitCodeValue } from './errors/index.js';
import { MASK } from './mask.js';
import type { RequestContext } from '../pipeline/context.js';
import { requestedAuth } from './registry.js';

/**
 * The value of a variable (`-e`, then session, then profile), or exit 3 naming it and where
 * it could be set.
 *
 * @example
 * ```
 * const key = await readVariable(ctx, 'awsAccessKeyId');
 * ```
 */
export function readVariable(ctx: RequestContext, name: string): Promise<string> {
  return ctx.variables.get(name);
}

/** Like {@link readVariable}, but undefined when nothing defines the variable (for optional settings). */
export async function readOptionalVariable(ctx: RequestContext, name: string): Promise<string | undefined> {
  return ctx.variables.has(name) ? ctx.variables.get(name) : undefined;
}

/** A plain session value of the active profile (kept between runs), or undefined. */
export function readSession(ctx: RequestContext, name: string): string | undefined {
  return ctx.session.get(name);
}

/**
 * Stores a plain session value (`{{name}}` in later requests and runs). Saved by the core after
 * the request, atomically, in a file only the user can read.
 */
export function writeSession(ctx: RequestContext, name: string, value: string): void {
  ctx.session.set(name, value);
}

/**
 * Stops the request with a one-line message, an optional hint and an exit code (default 2,
 * a usage or configuration error). reqflow prints `reqflow: <message>` and `hint: <hint>`
 * with secrets masked, and no stack trace.
 *
 * @example
 * ```
 * if (!secret) fail('hmac: the profile sets no "secret"', { hint: 'add "secret": "{{hmacSecret}}" to the profile auth' });
 * ```
 */
export function fail(message: string, options: { exitCode?: ExitCodeValue; hint?: string; cause?: unknown } = {}): never {
  throw new ReqflowError(message, { exitCode: options.exitCode ?? ExitCode.usage, ...(options.hint !== undefined ? { hint: options.hint } : {}), ...(options.cause !== undefined ? { cause: options.cause } : {}) });
}

/**
 * Treats `value` as secret for the rest of the run (shown as `•••` in warnings, errors and
 * `-v` output) and returns the mask, for messages of your own.
 *
 * @example
 * ```
 * ctx.warn(`signing with key ${maskSecret(ctx, key)}`); // "signing with key •••"
 * ```
 */
export function maskSecret(ctx: RequestContext, value: string): typeof MASK {
  ctx.addSecret?.(value);
  return MASK;
}

/**
 * The settings of auth method `authName` for this request, with `{{...}}` resolved in every
 * string value: `defaults`, overridden by the profile's settings for the method (its `auth`
 * object when `type` is `authName`, else its `auth.<authName>` object, the same rule as the
 * built-in methods), overridden key by key by the request's `# @<authName>.<key> value`
 * annotations. Each value is expanded once, so a default like `'{{hmacSecret}}'` reads a
 * variable.
 *
 * @example
 * ```
 * // profile: "auth": { "type": "hmac", "secret": "{{hmacSecret}}" }, request: # @hmac.header X-Sig
 * await readAuthSettings(ctx, 'hmac', { header: 'X-Signature', algorithm: 'sha256' });
 * // → { header: 'X-Sig', algorithm: 'sha256', type: 'hmac', secret: 's3cr3t' }
 * ```
 */
export async function readAuthSettings(ctx: RequestContext, authName: string, defaults: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const settings: Record<string, unknown> = { ...defaults, ...authSettings(ctx, authName).values };
  const prefix = `${authName}.`;
  // Defined, not assigned: `# @hmac.__proto__ x` is a setting like any other, not the object's prototype (dropped).
  for (const [key, value] of Object.entries(ctx.spec.annotations)) if (key.startsWith(prefix)) Object.defineProperty(settings, key.slice(prefix.length), { value, writable: true, enumerable: true, configurable: true });
  for (const [key, value] of Object.entries(settings)) if (typeof value === 'string') settings[key] = await ctx.variables.expand(value);
  return settings;
}

/** The auth method the request asks for (`# @auth NAME`, else the profile's `auth.type`), or undefined. */
export { requestedAuth };
