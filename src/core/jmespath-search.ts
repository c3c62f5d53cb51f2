/**
 * JMESPath over a parsed JSON document — `--filter`, restcli's `extract`, a `jmespath:` capture,
 * the UI's query box — with numbers as written, a document nested too deep refused, and every
 * search bounded in time and in what it makes (core/jmespath-interpreter.ts).
 */
import { ExitCode, ReqflowError } from './errors/index.js';
import { RunTimedOut, type BoundedRunner } from './bounded-run.js';
import { firstLine } from './first-line.js';
import { compileFilter, type ExpressionNode } from './jmespath-compile.js';
import { Meter, meteredInterpreter, sizeOf } from './jmespath-interpreter.js';
import { loadJmesPath, type JMESPath } from './jmespath-library.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from './json-depth.js';
import { plainNumbers, type PlainNumbers } from './json-exact.js';

/**
 * The size ({@link sizeOf}) up to which a document is searched on the meter alone. Past it the
 * search also runs inside `bounded`'s `node:vm` limit: one step of the library's over a large
 * document can run long with no step between to look at the clock (`sort` compares strings by
 * building arrays of their code points), and V8's watchdog interrupts it. Over a document this
 * small no step can — the meter's limits bound its arguments — and the watchdog's thread would
 * cost more than the search (0.05–0.5 ms).
 */
const DIRECT_SIZE = 4096;

/** The expressions a {@link JsonSearch} keeps compiled (a run's filters are a few; the query box compiles each keystroke). */
const KEPT_EXPRESSIONS = 64;

/**
 * A search that compiled but failed on its document — a type error (`abs(name)` on a string), past
 * the time limit: the filter could not be applied to the response (exit 1, docs/output.md), not a
 * usage error — the request was sent. A capture words it as its own error (src/chain/captures.ts).
 */
export class SearchFailed extends ReqflowError {
  constructor(expression: string, why: string) {
    super(`JMESPath filter ${JSON.stringify(expression)} failed: ${why}`, { exitCode: ExitCode.httpFailure });
  }
}

/** JMESPath `expression` over `document`, once (a capture): {@link JsonSearch}. */
export async function searchJson(expression: string, document: unknown, bounded: BoundedRunner): Promise<unknown> {
  return new JsonSearch(await loadJmesPath(), bounded).search(expression, document);
}

/**
 * The JMESPath searches of a run's filters, or of a query box: an interpreter of their own (made
 * once: tens of µs), their expressions compiled once, each search under `bounded`'s time limit.
 */
export class JsonSearch {
  private readonly meter = new Meter();
  private readonly interpreter: JMESPath['TreeInterpreter'];
  private readonly compiled = new Map<string, ExpressionNode>();

  constructor(
    private readonly jmespath: JMESPath,
    private readonly bounded: BoundedRunner,
  ) {
    this.interpreter = meteredInterpreter(jmespath, this.meter);
  }

  /** `expression` over `document`; an expression that fails on it is {@link SearchFailed}. */
  search(expression: string, document: unknown): unknown {
    if (nestedDeeperThan(document, MAX_JSON_DEPTH)) {
      // JMESPath and the output recurse through the value: refused here rather than a stack overflow later.
      throw new ReqflowError(`JMESPath filter ${JSON.stringify(expression)} cannot apply: the JSON is nested more than ${MAX_JSON_DEPTH} levels deep`, { exitCode: ExitCode.httpFailure, hint: 'see the body without a filter (-o json writes it as received)' });
    }
    const node = this.compile(expression);
    // Numbers kept as text (lossless-json objects) are numbers to JMESPath; what passes through is written as received.
    const exact = plainNumbers(document);
    const size = sizeOf(document, undefined, DIRECT_SIZE);
    const work = (): { result: unknown; asWritten?: unknown } => this.searchBoth(node, document, exact);
    let found: ReturnType<typeof work>;
    this.meter.start(document, this.bounded.limitMs, size <= DIRECT_SIZE ? size : undefined);
    try {
      found = size <= DIRECT_SIZE ? work() : this.bounded.run(work);
      // `[@]|[@]|…` nests deeper at each `|`: the output, like the search, recurses through its result.
      if (nestedDeeperThan(found.result, MAX_JSON_DEPTH)) throw new Error(`its result is nested more than ${MAX_JSON_DEPTH} levels deep`);
    } catch (error) {
      // The meter's clock or the runner's: the guess is a search's, not a pattern's.
      throw new SearchFailed(expression, firstLine(error instanceof RunTimedOut ? new RunTimedOut(error.limitMs, 'a search that goes over the body again and again?') : error));
    } finally {
      this.meter.stop();
    }
    return exact ? exact.restore(found.result, found.asWritten) : found.result;
  }

  /** The compiled `expression`; one that is not JMESPath (a capture's, the box's: filters were checked before the run) is exit 2. */
  private compile(expression: string): ExpressionNode {
    let node = this.compiled.get(expression);
    if (node) return node;
    node = compileFilter(this.jmespath, expression, '');
    if (this.compiled.size >= KEPT_EXPRESSIONS) this.compiled.clear();
    this.compiled.set(expression, node);
    return node;
  }

  /** The search; where the document keeps numbers as text (`exact`), over its plain numbers, and as written too. */
  private searchBoth(node: ExpressionNode, document: unknown, exact: PlainNumbers | undefined): { result: unknown; asWritten?: unknown } {
    type Json = Parameters<JMESPath['TreeInterpreter']['search']>[1];
    if (!exact) return { result: this.interpreter.search(node, document as Json) };
    const result = this.interpreter.search(node, exact.value as Json);
    try {
      return { result, asWritten: this.interpreter.search(node, document as Json) };
    } catch {
      // A computation on numbers (sum, sort_by): only its result's numbers count.
      return { result };
    }
  }
}
