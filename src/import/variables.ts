import { isSecretName } from '../core/mask.js';

/** A name a `{{…}}` can hold: letters, digits, `_` and `-` (a space would make it a helper call). */
function variableName(text: string): string {
  const name = text.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|(?<!_)_+$/g, '');
  return name === '' ? 'value' : name;
}

/** `X-API-Key` → `xApiKey`, `api_key` → `apiKey`, `apiKeyQuery` stays. */
export function camelName(text: string): string {
  const words = text.split(/[^A-Za-z0-9]+/).filter(Boolean).map((word) => (word === word.toUpperCase() ? word.toLowerCase() : word));
  const name = words.map((word, i) => (i === 0 ? word.charAt(0).toLowerCase() + word.slice(1) : word.charAt(0).toUpperCase() + word.slice(1))).join('');
  return name === '' ? 'value' : /^\d/.test(name) ? `_${name}` : name;
}

/**
 * The variables of an import, for `http-client.env.json` (public) and
 * `http-client.private.env.json` (secrets: credentials, and every name that looks like one).
 * Values are `.http` text, as an environment file's are (their `{{…}}` resolved): an importer
 * writes a source's literal braces with `literalText` before they come here.
 */
export class ImportVariables {
  private readonly values = new Map<string, { value: string; secret: boolean }>();

  /**
   * A parameter: one variable per name, the first value (an example, a default) kept. Returns
   * the name to write as `{{name}}`.
   */
  parameter(name: string, value: string, options: { secret?: boolean } = {}): string {
    const key = variableName(name);
    if (!this.values.has(key)) this.values.set(key, { value, secret: options.secret === true || isSecretName(key) });
    return key;
  }

  /**
   * A value taken out of a request (a password, a token, a cookie): the same value keeps its
   * variable; another value under a taken name gets a numbered one (`token2`).
   */
  secret(base: string, value: string): string {
    const stem = variableName(base);
    for (let n = 1; ; n++) {
      const key = n === 1 ? stem : `${stem}${n}`;
      const existing = this.values.get(key);
      if (existing === undefined) {
        this.values.set(key, { value, secret: true });
        return key;
      }
      if (existing.value === value) return key;
    }
  }

  /**
   * A variable the source names itself (Postman's): its name kept as written, since the requests
   * say `{{name}}`; a later definition wins (an environment over the collection).
   */
  define(name: string, value: string, secret: boolean): void {
    this.values.set(name, { value, secret: secret || isSecretName(name) });
  }

  /** Whether the import defines a variable of that name (Postman's own). */
  has(name: string): boolean {
    return this.values.has(name);
  }

  /** The public and the private values, each `name → value`, in the order they were defined. */
  split(): { public: Record<string, string>; secret: Record<string, string> } {
    // Without a prototype: a variable a document names `__proto__` is a key like any other, not dropped.
    const result = { public: Object.create(null) as Record<string, string>, secret: Object.create(null) as Record<string, string> };
    for (const [name, { value, secret }] of this.values) (secret ? result.secret : result.public)[name] = value;
    return result;
  }
}
