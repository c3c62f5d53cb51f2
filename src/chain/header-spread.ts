/**
 * httpyac's header spread: a line `...defaultHeaders` among a request's headers puts the entries
 * of an object variable into them (httpyac's `parseDefaultHeadersFactory` in `parserUtils.ts`,
 * `Object.assign` over the headers when the request runs). Typically the object is one a `{{ }}`
 * script exports (`exports.defaultHeaders = { Authorization: … }`), which reqflow knows as an
 * object (its kind, `GlobalKind`). Run in the chain's `substitute`, after the request's scripts.
 *
 * What httpyac 6.16.7 sends (recorded against the same server): an entry replaces a header line of
 * the same name, whichever comes first in the file and whatever the case of the names, and a later
 * spread's entry an earlier one's; the sent spelling is the one assigned last. Everything reqflow
 * cannot send the same way is refused naming the line, and nothing of that request is sent: a name
 * nothing defines (httpyac fails with a ReferenceError, or, for `undefined`, spreads nothing), a
 * value that is not an object a script made (httpyac would spread a text's characters as headers
 * named `0`, `1`, …), an entry that is not text or a number, a value no header may hold, a value
 * with a template (httpyac resolves it; reqflow takes values a script made literally, as they may
 * come from a response), and a spread over a header the file writes on several lines (httpyac's
 * result depends on the names' spelling there).
 */
import { UsageError, VariableError } from '../core/errors/index.js';
import { deleteHeader, fieldLines, NON_ASCII_HINT, NOT_IN_HEADER_VALUE, setHeader, unheldNameRule, type RequestHeaders } from '../core/headers.js';
import type { RequestContext } from '../pipeline/context.js';
import type { RunChain } from './chain.js';

/** A header name (RFC 9110 §5.1: a token). */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

const HINT = 'httpyac spreads an object a {{ }} script exports, e.g. exports.defaultHeaders = { "X-Api-Key": "…" }; nothing was sent';

/** The object `name` holds for this request, or why it holds none (the error to throw). */
function objectOf(name: string, ctx: RequestContext, chain: RunChain, at: string): Record<string, unknown> {
  const text = (what: string): UsageError => new UsageError(`${at}: ${name} is ${what}, not an object of headers`, { hint: HINT });
  if (Object.hasOwn(ctx.options.cliVariables, name)) throw text('text (-e)');
  if (ctx.requestVariables?.has(name) === true) throw text('text (request.variables.set)');
  const value = chain.variables.get(name);
  if (value === undefined) {
    if (ctx.variables.has(name)) throw text('text (a file, environment or profile value)');
    throw new VariableError(`${at}: ${name} is not defined`, { hint: HINT });
  }
  const kind = chain.globalKinds.get(name);
  if (kind !== 'object') throw text(kind === 'null' ? 'null' : kind === 'number' || kind === 'boolean' ? `a ${kind}` : 'text (or an array) a script set');
  return JSON.parse(value) as Record<string, unknown>;
}

/** The lines one spread adds, checked as any header line is; an entry reqflow cannot send as httpyac does is exit 2 naming it. */
function entriesOf(object: Record<string, unknown>, at: string): Array<[string, string]> {
  const entries: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(object)) {
    const entry = `${at}: entry ${JSON.stringify(key.slice(0, 60))}`;
    if (!HEADER_NAME.test(key)) throw new UsageError(`${entry} is no header name (letters, digits and !#$%&'*+.^_\`|~-)`, { hint: HINT });
    const unheld = unheldNameRule(key);
    if (unheld !== undefined) throw new UsageError(`${entry}: ${unheld}`);
    if (typeof value !== 'string' && typeof value !== 'number') throw new UsageError(`${entry} is ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a${typeof value === 'object' ? 'n' : ''} ${typeof value}`}: a spread header's value is text or a number`, { hint: HINT });
    const line = String(value);
    const bad = NOT_IN_HEADER_VALUE.exec(line)?.[0];
    if (bad !== undefined) {
      const what = bad >= '\u0080' ? 'a character past ASCII' : `a control character (U+${bad.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')})`;
      throw new UsageError(`${entry}: its value holds ${what}, which no header value may`, { hint: bad >= '\u0080' ? NON_ASCII_HINT : 'remove it from the value the script sets' });
    }
    if (line.includes('{{')) throw new UsageError(`${entry}: its value holds a template ({{…}}), which reqflow does not resolve in a value a script made (httpyac does)`, { hint: 'build the value in the script (`Bearer ${token}`)' });
    entries.push([key, line]);
  }
  return entries;
}

/**
 * The request's spreads, in order, applied to its headers as httpyac's `Object.assign` over them
 * leaves them: for each name a spread sets, of every spelling assigned (the file's first, then the
 * spreads' in order), the last one goes out with the value last assigned to it.
 */
export function spreadHeaders(ctx: RequestContext, chain: RunChain): void {
  const spreads = ctx.spec.chain?.spreads;
  if (!spreads) return;
  const headers: RequestHeaders = ctx.spec.headers;
  const order = Object.keys(headers);
  const assigned = new Map<string, string>();
  const touched = new Map<string, string>(); // lower-case name → the spread line that sets it first
  for (const { name, line } of spreads) {
    const at = `${ctx.spec.source.file}:${line}: ...${name} in request "${ctx.spec.name}"`;
    for (const [key, value] of entriesOf(objectOf(name, ctx, chain, at), at)) {
      const lower = key.toLowerCase();
      if (!touched.has(lower)) {
        const written = order.find((other) => other.toLowerCase() === lower);
        if (written !== undefined && fieldLines(headers[written] as string | string[]).length > 1) {
          throw new UsageError(`${at}: it sets ${key}, which the request writes on several lines`, { hint: 'write that header once, or leave it out of the spread object' });
        }
        touched.set(lower, at);
      }
      if (!Object.hasOwn(headers, key) && !assigned.has(key)) order.push(key);
      assigned.set(key, value);
    }
  }
  for (const lower of touched.keys()) {
    const spelling = order.filter((key) => key.toLowerCase() === lower).at(-1) as string;
    const value = assigned.get(spelling) ?? (headers[spelling] as string);
    deleteHeader(headers, lower);
    setHeader(headers, spelling, value);
  }
}
