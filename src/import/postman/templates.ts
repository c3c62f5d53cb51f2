/**
 * Which `{{…}}` of a Postman document stay templates. Postman reads every `{{name}}` (any text
 * without braces) as a variable, from any of its scopes — the collection, an environment that may
 * not be imported, globals, data, a script — and sends one it has no value for literally. So a
 * name stays a template (`{{token}}`, `{{api.host}}`), and so does Postman's own `{{$dynamic}}`
 * (mapped or warned about by request.ts). What reqflow would resolve from somewhere Postman never
 * reads — `{{env.NAME}}`, `{{$processEnv NAME}}`, `{{$dotenv NAME}}`, `{{$uuid}}`,
 * `{{login.response.body.id}}`, helpers, JavaScript — is written to be sent as the literal text
 * it is, and reported to `literal` (the import names it in one warning).
 */
import dynamicVariables from 'postman-collection/lib/superstring/dynamic-variables.js';
import { JS_LITERAL, NAME_OR_PATH } from '../../core/variables.js';
import { literalText } from '../http-text.js';

const TEMPLATE = /(\{\{[^{}]*\}\})/;

/** Reports a template written literally: `{{$processEnv HOME}}`. */
export type LiteralTemplate = (template: string) => void;

/**
 * A name that reqflow reads as that variable and nothing else: no space (a helper's argument),
 * operator or call (JavaScript), `$` or `%` (its system variables), quote or bracket (a path).
 */
const PLAIN_NAME = /^[^$'"[\]\\]+$/;

/** Dotted names reqflow reads elsewhere: the process environment, JavaScript's `this`, another request's response. */
const ELSEWHERE = /^(?:env|process\.env|this)\.|^[^.]+\.response(?:\.|$)/i;

/** `{{inner}}` is a Postman variable reference that reqflow resolves as one. */
function isPostmanReference(template: string): boolean {
  const inner = template.slice(2, -2);
  if (/^\$[A-Za-z]+$/.test(inner)) return Object.hasOwn(dynamicVariables, inner);
  return NAME_OR_PATH.test(inner) && PLAIN_NAME.test(inner) && !JS_LITERAL.test(inner) && !ELSEWHERE.test(inner);
}

/** Whether a template stays one; one that does not is reported to `literal`. */
export function keptReference(literal: LiteralTemplate): (template: string) => boolean {
  return (template) => {
    const kept = isPostmanReference(template);
    if (!kept) literal(template);
    return kept;
  };
}

/** Postman text as `.http` text: its variable references kept, every other `{{` literal. */
export function postmanText(text: string, literal: LiteralTemplate): string {
  if (!text.includes('{{')) return text;
  const keep = keptReference(literal);
  return text
    .split(TEMPLATE)
    .map((part, i) => (i % 2 === 1 && keep(part) ? part : literalText(part)))
    .join('');
}

/** The templates an import wrote literally, by where they are: named in one warning, not one per template. */
export class LiteralTemplates {
  /** Where (`request "a"`, `variable "b"`) → its first template written literally. */
  private readonly places = new Map<string, string>();
  private count = 0;

  at(where: string): LiteralTemplate {
    return (template) => {
      this.count++;
      if (!this.places.has(where)) this.places.set(where, template.length > 60 ? `${template.slice(0, 57)}…}}` : template);
    };
  }

  /** The warning naming them, or undefined when there are none. */
  warning(source: string): string | undefined {
    if (this.count === 0) return undefined;
    const shown = [...this.places].slice(0, 3).map(([where, template]) => `${template.replace(/\s+/g, ' ')} in ${where}`);
    const more = this.count - shown.length;
    return `${source}: ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''} written to be sent literally: Postman reads them as variables it has no value for, reqflow would read them from elsewhere (the process environment, a system variable, a response, JavaScript)`;
  }
}
