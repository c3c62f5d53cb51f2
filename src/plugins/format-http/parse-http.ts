import { placeName } from '../../core/place-name.js';
import { ParseError } from '../../core/errors/index.js';
import { appendHeader, deleteHeader, getHeader, hasHeader, setHeader, singleFieldRule, unheldNameRule, type RequestHeaders } from '../../core/headers.js';
import type { ChainSpec, RequestSpec, ScriptSpec, SourceLocation } from '../../core/model.js';
import { parseEscapes } from '../../core/escapes.js';
import { hasKeys } from '../../core/has-keys.js';
import { parseBody } from './body.js';
import { chainAnnotation, isChainAnnotation } from './chain-annotations.js';
import { joinTarget, originFormUrl, parseRequestLine, ProtocolLineError } from './request-line.js';
import { readScriptBlock } from './script-block.js';
import { ANNOTATION, blockCommentEnd, COMMENT, FILE_VARIABLE, PRE_REQUEST_SCRIPT, readHttpyacScript, requestAnnotation, scriptPhase } from './line-forms.js';
import { type Block, blockLines, separatorNameAbove, splitBlocks } from './blocks.js';
import { Int32List } from '../../core/int32-list.js';
import { webSocketScript } from '../websocket/script.js';

export const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

/** What the index keeps of each request, in one Int32List: `PLACE` numbers a request. */
const PLACE = 5;
const [START, END, FIRST_LINE, SCOPE, NAMED] = [0, 1, 2, 3, 4];

/**
 * Parses the HTTP text format — `### name`, `# @key value` annotations, the request line,
 * headers, a blank line, the body up to the next `###` — every request of the text, in order,
 * handing each to `visit` and keeping none: what is kept is where each request's block is and
 * the file scope before it (shared, replaced only when it changes), so that `parse(index)` builds
 * request `index` again, the same, when its turn comes. A syntax error anywhere is thrown here,
 * before anything is sent, naming file, line and column; a header line's is a `HeaderLineError`,
 * worded whole by header-line-hint.ts (`parseHttpText` in parse-http-text.ts, and the format's
 * parse stage, do that).
 */
export function indexHttpText(text: string, file: string, visit: (spec: RequestSpec) => void, warn?: (message: string) => void): (index: number) => RequestSpec {
  if (text.includes('\u0000')) throw new ParseError(file, 1, 1, 'not a text file (it contains NUL bytes)', { hint: 'request files are UTF-8 text' });
  const body = text.replace(/^\uFEFF/, '');
  // Per request, 20 bytes off the heap (a 100,000-request file: issue 23): the block's place, its
  // first line, its scope (a position in `scopes`, the distinct ones) and whether a `###` line
  // names it — the name itself is read again from that line (`separatorNameAbove`).
  const places = new Int32List(PLACE * 64);
  const scopes: FileScope[] = [];
  const scope: FileScope = { variables: {}, scripts: [], globals: globalScripts(body, file) };
  let count = 0;
  splitBlocks(body, (block) => {
    const before = scopes.at(-1);
    const { variables, scripts, auth, settings, imports, refs } = scope; // as the block starts: rebuilding it sets its own again
    const spec = parseBlock(block, file, count + 1, scope);
    if (spec === PASTED_JSON) {
      warn?.(`${file}:${pastedLine(block)}: a block of JSON with no request line is skipped (a pasted response?)`);
      return;
    }
    if (spec instanceof DisabledRequest) {
      warn?.(`${file}:${spec.line}: request "${spec.name}" is disabled (# @disabled): not sent`);
      return;
    }
    if (!spec) return;
    const same = before?.variables === variables && before.scripts === scripts && before.auth === auth && before.settings === settings && before.imports === imports && before.refs === refs;
    if (!same) scopes.push({ variables, scripts, globals: scope.globals, ...(auth !== undefined ? { auth } : {}), ...(settings !== undefined ? { settings } : {}), ...(imports !== undefined ? { imports } : {}), ...(refs !== undefined ? { refs } : {}) });
    places.push(block.start);
    places.push(block.end);
    places.push(block.firstLine);
    places.push(scopes.length - 1);
    places.push(block.name === undefined ? 0 : 1);
    count++;
    visit(spec);
  });
  return (index) => {
    const at = index * PLACE;
    const start = places.at(at + START);
    const end = places.at(at + END);
    const name = places.at(at + NAMED) === 1 ? separatorNameAbove(body, start) : undefined;
    // A copy: parseBlock adds the block's own file variables and `# @auth file` to the scope it is given.
    return parseBlock({ name, firstLine: places.at(at + FIRST_LINE), lines: blockLines(body, start, end), start, end }, file, index + 1, { ...(scopes[places.at(at + SCOPE)] as FileScope) }) as RequestSpec;
  };
}

/**
 * What httpyac's `# @import` of this file gives the file importing it, requests or none: its file
 * variables as they stand at its end, its global scripts (httpyac runs the global regions of an
 * imported file, `importHttpFileInContext` → `executeGlobalScripts`, and merges their request hooks),
 * and the files it imports itself. A file of `@variables` and `{{ }}` helpers only is what such an
 * import is usually for.
 */
export function importedHttpScope(text: string, file: string): { variables: Readonly<Record<string, string>>; globals: readonly ScriptSpec[]; imports: ReadonlyArray<{ path: string; line: number }> } {
  if (text.includes('\u0000')) throw new ParseError(file, 1, 1, 'not a text file (it contains NUL bytes)', { hint: 'request files are UTF-8 text' });
  const body = text.replace(/^\uFEFF/, '');
  const scope: FileScope = { variables: {}, scripts: [], globals: globalScripts(body, file) };
  splitBlocks(body, (block) => void parseBlock(block, file, 1, scope));
  return { variables: scope.variables, globals: scope.globals, imports: scope.imports ?? [] };
}

interface FileScope {
  /** File variables defined so far; a block adds to a copy of its own (never to one a spec holds), so specs can share it. */
  variables: Readonly<Record<string, string>>;
  /** httpyac scripts of named blocks without a request: they run before each request below them. */
  scripts: readonly ScriptSpec[];
  /** resterm's `# @auth file …` (`LINE text`): for the requests below it. */
  auth?: string;
  /** httpyac's scripts of global blocks (`{{ }}`, `{{@request`, `{{@response`) and its file hooks (`{{+…`): for every request of the file, wherever they stand. */
  globals: readonly ScriptSpec[];
  /** `# @name`s of blocks without a request above (httpyac: variables a `# @ref` to them defines). */
  settings?: readonly string[];
  /** httpyac's `# @import` in a block without a request (the file's top, usually): for the requests below it. */
  imports?: ReadonlyArray<{ path: string; line: number }>;
  /** httpyac's `# @ref`/`# @forceRef` in such a block: the requests below it refer to those too. */
  refs?: NonNullable<ChainSpec['refs']>;
}

/** A line opening an httpyac script (`{{`, `{{@request`, …): only a file with one needs its global scripts looked for first. */
const SCRIPT_LINE = /^[ \t]*\{\{(?:@js\s+)?[+@]?(?:request|streaming|response|after|responseLogging)?[ \t]*\r?$/im;

/**
 * The httpyac scripts of the file's global blocks (no request line, no `# @name`), and its file hooks
 * (`{{+`, `{{+request`, `{{+response` in any block, which httpyac registers on the file), in file order.
 * httpyac runs them for every request of the file, the ones above them too: before each request it
 * executes every global region (`executeGlobalScripts` over `httpFile.globalHttpRegions`) and merges
 * their `onRequest` hooks before the request's own (`httpRegionUtils.ts`, `addHttpFileRequestClientHooks`).
 * Read before the requests, so a global block below a request applies to it.
 */
function globalScripts(text: string, file: string): readonly ScriptSpec[] {
  if (!SCRIPT_LINE.test(text)) return [];
  const found: ScriptSpec[] = [];
  splitBlocks(text, (block) => {
    if (!block.lines.some((line) => SCRIPT_LINE.test(line))) return;
    parseBlock(block, file, 1, { variables: {}, scripts: [], globals: [] }, (script) => found.push(script));
  });
  return found;
}

/** Where the headers end without a blank line: an httpyac assertion or a response handler. */
const CHECKS_START = /^(\?\?\s|>\s*(\{%|\S))/;
/**
 * Where the body starts without a blank line (httpyac ends the headers at the first line that
 * is not one): JSON, XML, an included file or a GraphQL operation (`query Me {`) — never a header.
 */
const BODY_START = /^\s*(?:[{[]|<[?!A-Za-z@>\s]|(?:query|mutation|subscription|fragment)[\s\w]*[{(])/;
/**
 * httpyac's header spread, `...name`. Anything else after `...` is refused: httpyac evaluates it as
 * JavaScript (`...name,` with a comma, which its pattern seems to allow, is a SyntaxError there).
 */
const SPREAD = /^\s*\.{3}([A-Za-z_$][\w$]*)\s*$/;
/** `{{name}}: value`, `{{prefix}}-Id: 1`: a header line whose name holds a template (refused below: a header name is written as it is sent). */
const TEMPLATED_HEADER = /^\{\{[^{}]*\}\}[A-Za-z0-9!#$%&'*+.^_`|~-]*\s*:/;

/**
 * A line among the headers that is not `Name: value`, or whose name is none. What exactly is wrong
 * with it, and what it should be, is worded by header-line-hint.ts, loaded when the parse stage
 * reports it (format-http's index.ts): only a file with such a line pays for those words.
 */
export class HeaderLineError extends ParseError {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly written: string,
  ) {
    super(file, line, 1, `header line has no "Name: value" form: ${clip(written)}`);
  }
}

/** What parseBlock answers for httpyac's `# @disabled` request: skipped, the user told (its name and line). */
class DisabledRequest {
  constructor(readonly name: string, readonly line: number) {}
}

/**
 * httpyac's camelCase spellings of the annotations reqflow reads in kebab case: httpyac turns
 * `-x` into `X` in every key (`metaDataHttpRegionParser`), so `# @noCookieJar` is its `# @no-cookie-jar`.
 */
const HTTPYAC_SPELLINGS: Readonly<Record<string, string>> = { noRedirect: 'no-redirect', noCookieJar: 'no-cookie-jar', noLog: 'no-log', noProxy: 'no-proxy', keepStreaming: 'keep-streaming' };

/** What parseBlock answers for a block of JSON with no request line (skipped, the user warned). */
const PASTED_JSON = null;
/** A JSON object or array opening the block where its request line would be (`{{` opens an httpyac script, read before). */
const PASTED_JSON_START = /^\s*(?:\{(?!\{)|\[)/;

/** The line of a block's JSON (for the warning; the error path only reads it). */
function pastedLine(block: Block): number {
  return block.firstLine + block.lines.findIndex((line) => PASTED_JSON_START.test(line));
}

function parseBlock(block: Block, file: string, index: number, scope: FileScope, onGlobalScript?: (script: ScriptSpec) => void): RequestSpec | undefined | typeof PASTED_JSON | DisabledRequest {
  // No prototype: `# @__proto__` is kept (and said to be unknown) like any other name, never dropped.
  const annotations: Record<string, string> = Object.create(null);
  const annotationLines: Record<string, number> = Object.create(null);
  const prompts: Array<{ name: string; description?: string }> = [];
  const chain: ChainSpec = {};
  const scripts: ScriptSpec[] = [];
  let auth: string | undefined;
  // The block's own copy of the file variables, made at its first `@name = value` (a copy per
  // variable made 4,000 of them quadratic); it is shared once a request takes it, then copied again.
  let ownVariables: Record<string, string> | undefined;
  const defineVariable = (name: string, value: string): void => {
    ownVariables ??= { ...scope.variables };
    // Defined, not assigned: `@__proto__ = x` is a variable like any other, not the object's prototype.
    Object.defineProperty(ownVariables, name, { value, writable: true, enumerable: true, configurable: true });
    scope.variables = ownVariables;
  };
  const annotate = (writtenKey: string, written: string, line: number): void => {
    const key = Object.hasOwn(HTTPYAC_SPELLINGS, writtenKey) ? (HTTPYAC_SPELLINGS[writtenKey] as string) : writtenKey;
    // resterm's `# @auth` has arguments (reqflow's is one word): src/plugins/auth-resterm reads it.
    if (key === 'auth' && /\S\s+\S/.test(written)) {
      if (/^\s*(file|global)\s/i.test(written)) scope.auth = `${line} ${written}`;
      else auth = `${line} ${written}`;
      return;
    }
    if (isChainAnnotation(key)) {
      // Lists (a request may capture or reference several): kept in order, not as one annotation value.
      chainAnnotation(chain, key, written, file, line);
      return;
    }
    const value = written || 'true'; // bare `# @flag` (even with trailing spaces) means true
    // kulala's `# @secret name text`: a `# @prompt` whose answer is hidden (kulala's basic usage, "METADATA").
    if (key === 'prompt' || key === 'secret') {
      const [name = '', ...description] = value.split(/\s+/);
      prompts.push({ name, ...(description.length > 0 ? { description: description.join(' ') } : {}), ...(key === 'secret' ? { secret: true } : {}) });
    }
    annotations[key] = value;
    annotationLines[key] = line;
  };
  let i = 0;
  // Annotations, comments, file variables and blank lines come before the request line.
  for (; i < block.lines.length; i++) {
    const line = block.lines[i] as string;
    const variable = FILE_VARIABLE.exec(line);
    if (variable) {
      defineVariable(variable[1] as string, variable[2] ?? '');
      continue;
    }
    const annotation = ANNOTATION.exec(line);
    if (annotation) {
      annotate(annotation[1] as string, annotation[2] ?? '', block.firstLine + i);
      continue;
    }
    if (PRE_REQUEST_SCRIPT.test(line)) {
      const script = readScriptBlock(block.lines, i, block.firstLine, file, '<');
      scripts.push({ phase: 'pre', ...script.script });
      i = script.lastIndex;
      continue;
    }
    if (line.trim() === '' || COMMENT.test(line)) continue;
    const commentEnd = blockCommentEnd(block.lines, i, block.firstLine, file);
    if (commentEnd !== undefined) {
      i = commentEnd;
      continue;
    }
    const httpyac = readHttpyacScript(block.lines, i, block.firstLine, file);
    if (httpyac) {
      const script: ScriptSpec = { phase: scriptPhase(httpyac), ...httpyac.script };
      // A file hook (`{{+…`) is every request's wherever it stands: the file's globals hold it (read first, globalScripts).
      if (httpyac.fileWide) onGlobalScript?.(script);
      else scripts.push(script);
      i = httpyac.lastIndex;
      continue;
    }
    break;
  }
  // A block without a request (a banner, comments, variables, a trailing ###) is skipped; its
  // httpyac scripts run before each request below it (httpyac's global scripts).
  if (i >= block.lines.length) {
    // A global block's httpyac scripts are every request's, those above it too: `scope.globals` holds
    // them all, read first (globalScripts). A block with `# @name` is no global block: its `{{@request`
    // hook never runs (it has no request), its other scripts run before the requests below it.
    const named = annotations.name !== undefined;
    const httpyac = scripts.filter((script) => script.dialect === 'httpyac');
    if (!named) for (const script of httpyac) onGlobalScript?.(script);
    const kept = named ? httpyac.filter((script) => script.phase !== 'request') : [];
    if (kept.length > 0) scope.scripts = [...scope.scripts, ...kept];
    if (named) scope.settings = [...(scope.settings ?? []), annotations.name as string];
    // httpyac runs a global block's `# @import` and `# @ref` before each request: they are every request's below it.
    else {
      if (chain.imports) scope.imports = [...(scope.imports ?? []), ...chain.imports];
      if (chain.refs) scope.refs = [...(scope.refs ?? []), ...chain.refs];
    }
    return undefined;
  }
  // JSON where the request line should be, with `###` above it: a pasted response body (no tool sends it; httpyac fails that block alone).
  if (PASTED_JSON_START.test(block.lines[i] as string)) return PASTED_JSON;
  const lineNo = block.firstLine + i;
  // The target may go on over lines that start with ? or & (indented or not), and over indented ones.
  const { text: requestLine, last: targetEnd } = joinTarget(block.lines, i);
  i = targetEnd;
  const { method, url, methodWritten, originForm, graphql, websocket, sse, httpVersion, asteriskForm } = parseRequestLine(requestLine, file, lineNo);
  const headers: RequestHeaders = {};
  i++;
  let bodyStart: number | undefined;
  for (; i < block.lines.length; i++) {
    const line = block.lines[i] as string;
    if (line.trim() === '') break;
    // `{{name}}: value` among the headers is a header whose name is a template (VS Code and httpyac send it so), not a body starting with `{`.
    if (CHECKS_START.test(line) || (BODY_START.test(line) && !TEMPLATED_HEADER.test(line))) {
      // No blank line: the checks follow the headers directly, or (httpyac) the body does.
      bodyStart = i;
      break;
    }
    if (COMMENT.test(line)) {
      const annotation = requestAnnotation(line);
      if (annotation) annotate(annotation.key, annotation.value, block.firstLine + i);
      continue;
    }
    const commentEnd = blockCommentEnd(block.lines, i, block.firstLine, file);
    if (commentEnd !== undefined) {
      i = commentEnd;
      continue;
    }
    const colon = line.indexOf(':');
    const headerLine = block.firstLine + i;
    if (colon <= 0) {
      // httpyac's `...name`: the entries of an object variable, spread when the request runs (src/chain/header-spread.ts).
      const spread = SPREAD.exec(line);
      if (spread) {
        (chain.spreads ??= []).push({ name: spread[1] as string, line: headerLine });
        continue;
      }
      throw new HeaderLineError(file, headerLine, line);
    }
    const name = line.slice(0, colon).trim();
    if (!HEADER_NAME.test(name)) throw new HeaderLineError(file, headerLine, line);
    const once = hasHeader(headers, name) ? singleFieldRule(name) : undefined;
    if (once !== undefined) throw new ParseError(file, headerLine, 1, `${name} is written twice: ${once}`);
    const unheld = unheldNameRule(name);
    if (unheld !== undefined) throw new ParseError(file, headerLine, 1, unheld);
    // Written twice (two Accept lines): sent as two lines, as written.
    appendHeader(headers, name, line.slice(colon + 1).trim());
  }
  bodyStart ??= i + 1;
  // Most requests have no body: blank lines alone after the headers are none (parseBody would say so too, at a cost per request).
  const parsed = onlyBlank(block.lines, bodyStart) ? undefined : parseBody({ lines: block.lines.slice(bodyStart), firstLine: block.firstLine + bodyStart }, headers, file);
  if (parsed?.annotations) for (const { key, value, line } of parsed.annotations) annotate(key, value, line);
  if (parsed?.fileScripts) for (const script of parsed.fileScripts) onGlobalScript?.(script);
  // resterm's auth: the request's own, else the file's (not beside `# @auth none` or reqflow's `# @auth bearer`).
  const resterm = auth ?? (annotations.auth === undefined ? scope.auth : undefined);
  if (resterm !== undefined) annotations['resterm-auth'] = resterm;
  const host = getHeader(headers, 'host');
  // kulala's `Host: https://host:port`: the origin goes before the path, the Host line sends the authority.
  if (originForm && host !== undefined && /^\s*https?:\/\//i.test(host)) setHeader(headers, 'Host', host.trim().replace(/^\w+:\/\/|\/.*$/g, ''));
  const spec: RequestSpec = {
    name: annotations.name ?? block.name ?? placeName(index),
    method,
    url: originForm ? originFormUrl(url, host) : url,
    headers,
    annotations,
    source: { file, line: lineNo },
  };
  if (hasKeys(annotationLines)) spec.source.annotationLines = annotationLines;
  if (methodWritten === false) spec.methodWritten = false;
  if (httpVersion) spec.httpVersion = httpVersion;
  if (asteriskForm) spec.asteriskForm = true;
  if (graphql) annotations.protocol ??= 'graphql';
  if (websocket) annotations.protocol = 'websocket';
  // httpyac's `SSE url`: its EventSource sends a GET without a body; an `Event:` line names the events it shows, never sent.
  if (sse) {
    const refused = parsed?.body !== undefined || parsed?.bodyParts !== undefined ? 'body' : hasHeader(headers, 'event') ? 'Event' : undefined;
    if (refused) throw new ProtocolLineError(file, lineNo, refused);
    annotations.streaming = 'true';
  }
  if (hasKeys(scope.variables)) spec.fileVariables = scope.variables;
  ownVariables = undefined;
  if (parsed?.lineNumbers) bodyPlaces(spec.source, parsed.lineNumbers);
  if (parsed?.bodyLineEnding !== undefined) spec.bodyLineEnding = parsed.bodyLineEnding;
  if (parsed?.body !== undefined) spec.body = parsed.body;
  if (parsed?.bodyParts !== undefined) spec.bodyParts = parsed.bodyParts;
  if (prompts.length > 0) spec.prompts = prompts;
  // `@name = value` below the body: for the requests below it.
  if (parsed?.variables) for (const [name, value] of parsed.variables) defineVariable(name, value);
  if (parsed?.assertions) chain.assertions = parsed.assertions;
  // httpyac's `# @ref settings` to a named block of variables above: running it defines them, which the file
  // scope already does here (its variables are visible below it). Refs to one below still fail, naming the line.
  if (scope.imports) chain.imports = [...scope.imports, ...(chain.imports ?? [])];
  if (scope.refs) chain.refs = [...scope.refs, ...(chain.refs ?? [])];
  const { settings } = scope;
  if (chain.refs && settings) chain.refs = chain.refs.filter((ref) => !settings.includes(ref.name));
  if (chain.refs?.length === 0) delete chain.refs;
  const handlers = parsed?.scripts;
  if (scope.globals.length + scope.scripts.length + scripts.length + (handlers?.length ?? 0) > 0) chain.scripts = [...scope.globals, ...scope.scripts, ...scripts, ...(handlers ?? [])];
  // rest.nvim's `# @lang=lua` above a script: the request's own scripts are Lua (src/chain/plugin.ts
  // decides, off the plain path); another language is refused, never run as JavaScript.
  const lang = annotations.lang;
  if (lang !== undefined && !/^(javascript|js|true|lua)$/i.test(lang) && scripts.length + (handlers?.length ?? 0) > 0) {
    throw new ParseError(file, annotationLines.lang ?? lineNo, 1, `# @lang ${clip(lang)}: reqflow runs request scripts in JavaScript or Lua`, { hint: 'write it in one of them (or remove it)' });
  }
  if (hasKeys(chain)) spec.chain = chain;
  if (annotations.loop !== undefined) spec.loop = loopOf(annotations.loop, file, annotationLines.loop ?? lineNo);
  markGraphql(spec, graphql === true);
  // JetBrains WEBSOCKET: the body is the messages. Split here, where `===` can only be a line
  // of the file itself (never of an included file); each is resolved as it is sent.
  if (websocket) spec.webSocket = { steps: webSocketScript(spec.bodyParts ?? (typeof spec.body === 'string' ? spec.body : undefined)) };
  if (annotations.parsing === 'true' && typeof spec.body === 'string') spec.body = parseEscapes(spec.body); // restcli
  const tls = tlsFromAnnotations(annotations, file, annotationLines['tls.insecureSkipVerify'] ?? lineNo);
  if (tls) spec.tls = tls;
  // httpyac's `# @sleep 500` (milliseconds; it evaluates the value, and waits only for a whole number): checked
  // here, before anything is sent. Past 2^31 - 1 ms a timer fires at once (Node), so that is the most.
  const sleep = annotations.sleep;
  if (sleep !== undefined && !(/^\d+$/.test(sleep) && Number(sleep) <= 2 ** 31 - 1)) {
    throw new ParseError(file, annotationLines.sleep ?? lineNo, 1, `# @sleep ${clip(sleep)}: expects a whole number of milliseconds (at most 2147483647)`, { hint: 'write # @sleep 500' });
  }
  const disabled = annotations.disabled;
  if (disabled !== undefined) {
    const line = annotationLines.disabled ?? lineNo;
    // httpyac: bare, the request is never sent nor found by a reference; with a value, that JavaScript decides each time.
    if (disabled === 'true') return new DisabledRequest(spec.name, line);
    if (disabled !== 'false') throw new ParseError(file, line, 1, `# @disabled ${clip(disabled)}: reqflow does not evaluate a condition here`, { hint: 'write # @disabled alone to skip the request, or remove the line' });
  }
  return spec;
}

/**
 * httpyac: a body that starts with a GraphQL keyword is a GraphQL operation — a keyword, then a
 * name, `{` or `(`: `query=a&b=1` is a form. Only where the content type leaves it open (none, or
 * JSON): a form, or `application/graphql` (the query as the body, as written), decides otherwise.
 */
const GRAPHQL_BODY = /^\s*(query|mutation|subscription|fragment)(\s|\{|\(|$)/;

/**
 * The GraphQL forms of the other tools go through the GraphQL plugin: JetBrains' `GRAPHQL`
 * method, VS Code's `X-Request-Type: GraphQL` header (a marker, not sent) and httpyac's bare
 * `query …` bodies; in all three, a JSON object after a blank line holds the variables.
 */
function markGraphql(spec: RequestSpec, graphqlMethod: boolean): void {
  const marked = getHeader(spec.headers, 'x-request-type')?.toLowerCase() === 'graphql';
  const body = typeof spec.body === 'string' ? spec.body : undefined;
  const type = getHeader(spec.headers, 'content-type')?.toLowerCase();
  const bare = spec.annotations.protocol === undefined && body !== undefined && GRAPHQL_BODY.test(body) && (type === undefined || /^application\/json\b/.test(type));
  if (!graphqlMethod && !marked && !bare) return;
  if (marked) deleteHeader(spec.headers, 'x-request-type');
  spec.annotations.protocol ??= 'graphql';
  if (body === undefined || spec.annotations.variables !== undefined) return;
  const split = graphqlVariables(body);
  if (!split) return;
  spec.body = body.slice(0, split.queryEnd);
  spec.annotations.variables = body.slice(split.start, split.end);
}

/**
 * The variables of a GraphQL body: a last paragraph that is a JSON object (templates allowed
 * inside) — the first `{` after a blank line, or (kulala) right after a line break when it opens
 * `{"` or `{}` (no selection set starts so), the body ending with its `}`. The query ends at the
 * line break before it. A scan, each character visited a bounded number of times: a pattern
 * tried every line break of a long run of blank lines against the rest of the body (quadratic).
 */
function graphqlVariables(body: string): { queryEnd: number; start: number; end: number } | undefined {
  const end = body.trimEnd().length;
  if (body[end - 1] !== '}') return undefined;
  const opensObject = /\{\s*["}]/y;
  for (let brace = body.indexOf('{'); brace >= 0 && brace < end - 1; brace = body.indexOf('{', brace + 1)) {
    let run = brace; // where the spaces before this `{` start
    while (run > 0 && /\s/.test(body[run - 1] as string)) run--;
    // A blank line among them: the query ends at the first of its two line breaks.
    let lineBreak = -1;
    for (let i = run; i < brace; i++) {
      if (body[i] !== '\n') continue;
      if (lineBreak >= 0 && /^[ \t]*$/.test(body.slice(lineBreak + 1, i))) return { queryEnd: lineBreak, start: brace, end };
      lineBreak = i;
    }
    opensObject.lastIndex = brace;
    if (body[brace - 1] === '\n' && opensObject.test(body)) return { queryEnd: brace - 1, start: brace, end };
  }
  return undefined;
}

/** httpyac's `# @loop`: `for N` and `for NAME of VALUES` (run by src/pipeline/loop-passes.ts); any other form is refused, never sent once. */
function loopOf(loop: string, file: string, line: number): RequestSpec['loop'] {
  const form = /^\s*for\s+(?:(\d+)|([A-Za-z_$][\w$]*)\s+of\s+(\S.*))$/.exec(loop);
  if (!form) throw new ParseError(file, line, 1, `# @loop ${clip(loop)}: reqflow runs "for N" and "for NAME of VALUES"`);
  return { line, count: form[1], item: form[2], values: form[3] };
}

/** Are `lines` from `from` on blank (or none)? Then the request has no body, checks or handlers below it. */
function onlyBlank(lines: readonly string[], from: number): boolean {
  for (let i = from; i < lines.length; i++) if ((lines[i] as string).trim() !== '') return false;
  return true;
}

export function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The annotation of each `tls` field: names made once, not per request (each request is parsed twice). */
const TLS_ANNOTATIONS = (['certFile', 'keyFile', 'caFile', 'pfxFile', 'passphrase'] as const).map((key) => [key, `tls.${key}`] as const);

/** `# @tls.certFile path` and friends become the request's `tls` object. `skipLine`: where `# @tls.insecureSkipVerify` is, for its error. */
function tlsFromAnnotations(annotations: Record<string, string>, file: string, skipLine: number): RequestSpec['tls'] | undefined {
  let tls: NonNullable<RequestSpec['tls']> | undefined; // made only for a request with such an annotation
  for (let i = 0; i < TLS_ANNOTATIONS.length; i++) {
    const names = TLS_ANNOTATIONS[i] as (typeof TLS_ANNOTATIONS)[number];
    const value = annotations[names[1]];
    if (value !== undefined) (tls ??= {})[names[0]] = value;
  }
  const skip = annotations['tls.insecureSkipVerify'];
  if (skip !== undefined) {
    // Only an explicit yes turns verification off: `0`, `no` or a typo must not.
    if (skip !== 'true' && skip !== 'false') throw new ParseError(file, skipLine, 1, `# @tls.insecureSkipVerify expects true or false, got ${JSON.stringify(clip(skip))}`, { hint: 'write: # @tls.insecureSkipVerify true (or false)' });
    (tls ??= {}).insecureSkipVerify = skip === 'true';
  }
  return tls;
}

/** Where the body's lines are in the file: its first line, and each line's when some line among them was not body text. */
function bodyPlaces(source: SourceLocation, lineNumbers: readonly number[]): void {
  const first = lineNumbers[0] as number;
  source.bodyLine = first;
  if (lineNumbers.some((line, i) => line !== first + i)) source.bodyLines = lineNumbers;
}
