/**
 * Script globals: what request-file scripts set with `client.global.set` (JetBrains) or put in
 * httpyac's `$global`, kept beyond the file that set them — for the files run after it in the
 * same invocation (as `ijhttp` does) and, in the session of the project and profile, for later
 * runs of any of the project's files (as the JetBrains IDE keeps them until it restarts).
 * Loaded only by a run whose session holds some, or whose file runs scripts.
 */
import { isSecretName, type SecretRegistry } from './mask.js';
import type { Session } from './model.js';
import { SCRIPT_GLOBALS } from './variables.js';

/** The globals of one invocation, per session (`project` and `profile`): files of two projects never share them. */
export type InvocationGlobals = Map<string, Map<string, string>>;

/** A value that is a credential whatever its name: an auth scheme and its credentials, or a JWT. */
const CREDENTIAL_VALUE = /^(?:bearer|basic|token|digest|negotiate)\s+\S{4,}$|^eyJ[\w-]{4,}\.[\w-]{4,}\./i;

/** Does a global hold a credential (by its name, as `isSecretName` says, or by the form of its value)? */
function isCredentialGlobal(name: string, value: string): boolean {
  return isSecretName(name) || CREDENTIAL_VALUE.test(value.trim());
}

/** The globals a session holds (its data entry; anything but text values is ignored). */
function storedGlobals(session: Session): Record<string, string> {
  const data = session.getData<unknown>(SCRIPT_GLOBALS);
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return {};
  return Object.fromEntries(Object.entries(data).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** Registers a credential-looking global as a secret: masked in output, errors, history and reports. */
function register(secrets: SecretRegistry, name: string, value: string): void {
  if (!isCredentialGlobal(name, value)) return;
  // `Bearer abc` is also masked as `abc`, as an Authorization header's value is.
  secrets.addHeaderValue('authorization', value);
  secrets.add(value);
}

/**
 * The run's view of the globals of its project and profile: read by the resolver (below the
 * environment, the file and the profile: `src/core/variables.ts`) and by scripts; a script's
 * change is kept in the invocation and in the session (saved after the request, with it).
 */
export class ScriptGlobals {
  constructor(
    private readonly session: Session,
    private readonly values: Map<string, string>,
    private readonly secrets: SecretRegistry,
  ) {}

  get(name: string): string | undefined {
    return this.values.get(name);
  }
  get size(): number {
    return this.values.size;
  }
  entries(): Array<[string, string]> {
    return [...this.values];
  }
  set(name: string, value: string): void {
    register(this.secrets, name, value);
    if (this.values.get(name) === value) return;
    this.values.set(name, value);
    this.write();
  }
  delete(name: string): void {
    if (this.values.delete(name)) this.write();
  }
  clear(): void {
    if (this.values.size === 0 && this.session.getData(SCRIPT_GLOBALS) === undefined) return;
    this.values.clear();
    this.write();
  }
  private write(): void {
    this.session.setData(SCRIPT_GLOBALS, this.values.size === 0 ? undefined : Object.fromEntries(this.values));
  }
}

/**
 * The globals of a run over one file: those the invocation's earlier files left for this
 * project and profile, else the session's; each credential-looking one registered as a secret.
 */
export function openScriptGlobals(session: Session, project: string, secrets: SecretRegistry, invocation: InvocationGlobals = new Map()): ScriptGlobals {
  const key = `${project}\u0000${session.profile}`;
  let values = invocation.get(key);
  if (values === undefined) {
    values = new Map(Object.entries(storedGlobals(session)));
    invocation.set(key, values);
  }
  for (const [name, value] of values) register(secrets, name, value);
  return new ScriptGlobals(session, values, secrets);
}
