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

/**
 * What the session keeps of them, in characters of names and values: a script may set more (the run
 * uses it), but a session file read by every later run of the project stays small (600 values of
 * 1 MB once made it 1.4 GB and unsavable).
 */
const STORED_GLOBALS_MAX_CHARS = 8 * 1024 * 1024;

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
    private readonly warn: (message: string) => void = () => {},
  ) {}

  /** Names set in this run that the session does not keep (over STORED_GLOBALS_MAX_CHARS in all). */
  private readonly unsaved = new Set<string>();

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
    this.unsaved.delete(name);
    if (this.storedChars() > STORED_GLOBALS_MAX_CHARS) {
      this.unsaved.add(name);
      this.warn(`the script global "${name}" (${value.length.toLocaleString('en-US')} characters) is used in this run but not kept in the session: a project's globals are kept up to ${STORED_GLOBALS_MAX_CHARS / 1024 / 1024} MiB in all`);
    }
    this.write();
  }
  delete(name: string): void {
    this.unsaved.delete(name);
    if (this.values.delete(name)) this.write();
  }
  clear(): void {
    this.unsaved.clear();
    if (this.values.size === 0 && this.session.getData(SCRIPT_GLOBALS) === undefined) return;
    this.values.clear();
    this.write();
  }
  private storedChars(): number {
    let chars = 0;
    for (const [name, value] of this.values) if (!this.unsaved.has(name)) chars += name.length + value.length;
    return chars;
  }
  private write(): void {
    const kept = [...this.values].filter(([name]) => !this.unsaved.has(name));
    this.session.setData(SCRIPT_GLOBALS, kept.length === 0 ? undefined : Object.fromEntries(kept));
  }
}

/**
 * The globals of a run over one file: those the invocation's earlier files left for this
 * project and profile, else the session's; each credential-looking one registered as a secret.
 */
export function openScriptGlobals(session: Session, project: string, secrets: SecretRegistry, invocation: InvocationGlobals = new Map(), warn?: (message: string) => void): ScriptGlobals {
  const key = `${project}\u0000${session.profile}`;
  let values = invocation.get(key);
  if (values === undefined) {
    values = new Map(Object.entries(storedGlobals(session)));
    invocation.set(key, values);
  }
  for (const [name, value] of values) register(secrets, name, value);
  return new ScriptGlobals(session, values, secrets, warn);
}
