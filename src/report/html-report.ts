/**
 * `--report html=PATH`: one static page (`PATH`, or `PATH/index.html` for a folder: see
 * src/test-run/reports.ts), to look at rather than read — the
 * summary, a section per file, a row per request with a timing bar (phases where known, scaled
 * to the slowest request of the run), each check, and for every request that did not pass the
 * request and the response. Built as a tree with hastscript and serialised by
 * hast-util-to-html, which escapes all text: nothing from a response can become markup.
 */
import { writeOutputFile } from '../core/atomic-write.js';
import type { TestResult } from '../core/model.js';
import { type FileResult, type RequestResult, type RunResult, type Timings, totalsOf } from './test-results.js';
import { TERMINAL_ACTING_RANGES, visible } from './render/visible.js';

type H = typeof import('hastscript').h;
type Element = ReturnType<H>;

const STYLE = `
:root { --pass: #1a7f37; --fail: #cf222e; --error: #9a6700; --muted: #57606a; --line: #d0d7de; --bg: #f6f8fa; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; max-width: 1100px; padding: 24px; color: #1f2328; }
h1 { font-size: 22px; margin: 0 0 4px; }
.when { color: var(--muted); margin: 0 0 16px; }
.summary { display: flex; gap: 12px; flex-wrap: wrap; margin-bottom: 24px; }
.tile { border: 1px solid var(--line); border-radius: 8px; padding: 10px 16px; min-width: 130px; background: var(--bg); }
.tile b { display: block; font-size: 24px; }
.tile.fail b { color: var(--fail); } .tile.pass b { color: var(--pass); } .tile.error b { color: var(--error); }
section { margin-bottom: 28px; }
h2 { font-size: 17px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
table { width: 100%; border-collapse: collapse; }
th { text-align: left; font-weight: 600; color: var(--muted); font-size: 13px; }
td, th { padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
td.mark { width: 96px; font-weight: 700; white-space: nowrap; }
.PASS { color: var(--pass); } .FAIL { color: var(--fail); } .ERROR { color: var(--error); }
tr.row-FAIL td, tr.row-ERROR td { background: #fff5f5; }
.method { font-family: ui-monospace, monospace; font-size: 13px; }
.url { font-family: ui-monospace, monospace; font-size: 13px; color: var(--muted); word-break: break-all; }
.bar { display: flex; height: 12px; min-width: 2px; border-radius: 3px; overflow: hidden; background: #eaeef2; }
.seg { height: 100%; }
.seg.dns { background: #8250df; } .seg.connect { background: #bf8700; } .seg.tls { background: #cf222e; }
.seg.firstByte { background: #0969da; } .seg.download { background: #1a7f37; } .seg.afterBody { background: #bf3989; } .seg.total { background: #6e7781; }
.legend span { display: inline-flex; align-items: center; gap: 4px; margin-right: 12px; font-size: 12px; color: var(--muted); }
.legend i { width: 10px; height: 10px; border-radius: 2px; display: inline-block; }
ul.checks { list-style: none; margin: 4px 0 0; padding: 0; font-size: 13px; }
ul.checks li { margin: 2px 0; }
.where { color: var(--muted); font-family: ui-monospace, monospace; font-size: 12px; }
.message { display: block; margin-left: 18px; color: var(--fail); font-family: ui-monospace, monospace; white-space: pre-wrap; }
details { margin-top: 6px; }
summary { cursor: pointer; color: var(--muted); font-size: 13px; }
pre { background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 8px; overflow-x: auto; font-size: 12px; max-height: 320px; white-space: pre-wrap; word-break: break-all; }
`;

const PHASES: ReadonlyArray<keyof Omit<Timings, 'total'>> = ['dns', 'connect', 'tls', 'firstByte', 'download', 'afterBody'];
/** What each phase is (src/test-run/results.ts): scripts and checks run after the body, and are not downloading. */
const PHASE_NAMES: Record<string, string> = { dns: 'DNS', connect: 'connect', tls: 'TLS', firstByte: 'first byte', download: 'download', afterBody: 'scripts and checks', total: 'total' };

const ms = (value: number): string => (value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`);

function outcomeOf(request: RequestResult): 'PASS' | 'FAIL' | 'ERROR' {
  return request.error ? 'ERROR' : request.exitCode === 0 ? 'PASS' : 'FAIL';
}

/** The measured phases of a request, else one `total` part. */
function phasesOf(timings: Timings): Array<readonly [string, number]> {
  const known = PHASES.filter((phase) => (timings[phase] ?? 0) > 0);
  return known.length > 0 ? known.map((phase) => [phase, timings[phase] ?? 0] as const) : [['total', timings.total] as const];
}

function timingBar(h: H, timings: Timings, slowest: number): Element {
  const parts = phasesOf(timings);
  const width = slowest > 0 ? Math.max(1, (timings.total / slowest) * 100) : 100;
  const title = parts.map(([phase, value]) => `${PHASE_NAMES[phase]} ${ms(value)}`).join(', ');
  // Scaled to the total: time no phase measured stays the bar's background, never another phase's colour.
  const whole = Math.max(timings.total, parts.reduce((sum, [, value]) => sum + value, 0)) || 1;
  return h('div.bar', { style: `width: ${width.toFixed(1)}%`, title, role: 'img', 'aria-label': title }, parts.map(([phase, value]) => h(`div.seg.${phase}`, { style: `width: ${((value / whole) * 100).toFixed(1)}%` })));
}

function checkItem(h: H, test: TestResult): Element {
  return h('li', [h('span', { class: test.passed ? 'PASS' : 'FAIL' }, test.passed ? '✓ ' : '✗ '), h('span', { class: test.passed ? undefined : 'FAIL' }, test.name), ' ', h('span.where', `${test.file}:${test.line}`), ...(test.passed ? [] : [h('span.message', test.message ?? 'failed')])]);
}

function headersText(headers: Record<string, string | string[]>): string {
  return Object.entries(headers).map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(', ') : value}`).join('\n');
}

function exchangeDetails(h: H, request: RequestResult): Element | undefined {
  const exchange = request.exchange;
  if (!exchange) return undefined;
  const sent = `${request.method} ${request.url}\n${headersText(exchange.request.headers)}${exchange.request.body !== undefined ? `\n\n${exchange.request.body}` : ''}`;
  const received = exchange.response ? `${request.status ?? ''}\n${headersText(exchange.response.headers)}${exchange.response.body !== undefined ? `\n\n${exchange.response.body}` : ''}` : undefined;
  return h('details', { open: true }, [h('summary', 'request and response'), h('pre', sent), ...(received !== undefined ? [h('pre', received)] : [])]);
}

function requestRow(h: H, request: RequestResult, slowest: number): Element {
  const outcome = outcomeOf(request);
  const detail: Element[] = [];
  if (request.tests.length > 0) detail.push(h('ul.checks', request.tests.map((test) => checkItem(h, test))));
  if (request.error) detail.push(h('span.message', `${request.error.message}${request.error.hint ? `\n${request.error.hint}` : ''}`));
  const exchange = exchangeDetails(h, request);
  if (exchange) detail.push(exchange);
  return h(`tr.row-${outcome}`, [
    h(`td.mark.${outcome}`, outcome === 'PASS' ? '✓ PASS' : outcome === 'FAIL' ? '✗ FAIL' : '! ERROR'),
    h('td', [h('div', [h('span.method', request.method), ' ', h('strong', request.name)]), h('div.url', request.url), ...detail]),
    h('td', request.status !== undefined ? String(request.status) : '—'),
    h('td', { style: 'width: 30%' }, [timingBar(h, request.timings, slowest), h('div.where', ms(request.timings.total))]),
  ]);
}

function fileSection(h: H, file: FileResult, slowest: number): Element {
  const rows = file.requests.map((request) => requestRow(h, request, slowest));
  return h('section', [
    h('h2', [file.file, ' ', h('span.where', ms(file.durationMs))]),
    ...(file.error ? [h('p', [h('span.ERROR', '! ERROR '), h('span.message', file.error.message)])] : []),
    ...(rows.length > 0 ? [h('table', [h('thead', h('tr', [h('th', ''), h('th', 'request'), h('th', 'status'), h('th', 'time')])), h('tbody', rows)])] : []),
  ]);
}

/** The legend: the phases some bar of the run shows, in bar order. */
function legendPhases(run: RunResult): string[] {
  const shown = new Set(run.files.flatMap((file) => file.requests.flatMap((request) => phasesOf(request.timings).map(([phase]) => phase))));
  return [...PHASES, 'total'].filter((phase) => shown.has(phase));
}

/** Controls (NUL and ESC, C1) and bidirectional overrides: never in the page's own markup, so they can only be a request's or a server's text. */
const ACTING = new RegExp(`[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f${TERMINAL_ACTING_RANGES}]`, 'g');

/** The page with {@link ACTING} characters made visible (`␀`, `&lt;U+202E&gt;`): a NUL is a parse error, an override reorders what the page says. */
function visibleInHtml(html: string): string {
  return html.replace(ACTING, (char) => visible(char).replace(/</g, '&lt;').replace(/>/g, '&gt;'));
}

/** Writes the page to `path` (atomically; missing folders are made). */
export async function writeHtmlReport(run: RunResult, path: string): Promise<void> {
  const [{ h }, { toHtml }] = await Promise.all([import('hastscript'), import('hast-util-to-html')]);
  const totals = totalsOf(run);
  const slowest = Math.max(0, ...run.files.flatMap((file) => file.requests.map((request) => request.timings.total)));
  const tile = (kind: string, value: number, label: string): Element => h(`div.tile.${kind}`, [h('b', String(value)), label]);
  const tree = h(null, [
    { type: 'doctype' },
    h('html', { lang: 'en' }, [
      h('head', [h('meta', { charset: 'utf-8' }), h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }), h('title', `reqflow test — ${totals.failed + totals.errors > 0 ? 'failed' : 'passed'}`), h('style', STYLE)]),
      h('body', [
        h('h1', `reqflow test: ${totals.failed + totals.errors > 0 ? `${totals.failed + totals.errors} of ${totals.requests} requests did not pass` : `all ${totals.requests} requests passed`}`),
        h('p.when', `${run.startedAt} · ${ms(run.durationMs)} · ${run.files.length} ${run.files.length === 1 ? 'file' : 'files'}`),
        h('div.summary', [
          tile('pass', totals.passed, 'passed'),
          tile(totals.failed > 0 ? 'fail' : 'pass', totals.failed, 'failed'),
          tile(totals.errors > 0 ? 'error' : 'pass', totals.errors, 'errors'),
          tile(totals.testsFailed > 0 ? 'fail' : 'pass', totals.tests - totals.testsFailed, `of ${totals.tests} checks passed`),
        ]),
        h('p.legend', legendPhases(run).map((phase) => h('span', [h(`i.seg.${phase}`), phase === 'total' ? 'total (phases unknown)' : (PHASE_NAMES[phase] ?? phase)]))),
        ...run.files.map((file) => fileSection(h, file, slowest)),
      ]),
    ]),
  ]);
  await writeOutputFile(path, visibleInHtml(toHtml(tree)), { mode: 0o644, dirMode: 0o755 });
}
