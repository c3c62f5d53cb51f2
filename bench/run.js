/**
 * `npm run bench`: reqflow against curl, httpie and httpyac on this machine, side by side in one
 * run, against a small server on 127.0.0.1. Prints medians and ratios as tables, checks the
 * targets of issue 8, and writes the figures to bench/results.json.
 *
 *   node bench/run.js [--quick] [--strict] [--runs N] [--baseline REV|DIR] [--only startup,batch,test,memory,http2,proxy,large,sse,parse,history,plugins,tui,tui-startup,stress]
 *
 * Needs `npm run build` first (the npm script does it). Stops by itself: every command has a
 * time-out and the whole run a deadline.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFixtures } from './lib/fixtures.js';
import { prepareBaseline } from './lib/baseline.js';
import { HISTORY_ENTRIES, writeHistoryFixture } from './lib/history-fixture.js';
import { command, compare, runChecked, summarize } from './lib/measure.js';
import { largeResponseCase, manyRequestsMemoryCase } from './lib/memory-cases.js';
import { formatSection, formatTargets, ms, mb, ratio } from './lib/report.js';
import { startServer } from './lib/server-process.js';
import { eventLatencies } from './lib/sse.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'run.cjs');
const HTTPYAC = join(ROOT, 'node_modules', '.bin', 'httpyac');
const DEADLINE_MS = 15 * 60_000; // the memory case alone sends 100,000 requests (minutes on a busy machine)
/** Issue 23: the JavaScript a plain GET reads (dist/bundle/fast-run.cjs; test/plain-path-budget.test.ts holds the current size). */
const PLAIN_PATH_GOAL_BYTES = 200_000;
const BARE_LOOP = fileURLToPath(new URL('./lib/bare-loop.js', import.meta.url));
const BARE_GET = fileURLToPath(new URL('./lib/bare-get.cjs', import.meta.url));

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
// --strict: exit 1 when a target is missed (for CI gating); otherwise the table says so.
const strict = argv.includes('--strict');
const runsArg = argv.indexOf('--runs');
const RUNS = runsArg >= 0 ? Number(argv[runsArg + 1]) : quick ? 5 : 10;
const onlyArg = argv.indexOf('--only');
const ONLY = onlyArg >= 0 ? new Set(argv[onlyArg + 1].split(',')) : undefined;
const wanted = (name) => !ONLY || ONLY.has(name);
// --baseline REV|DIR: the same cases for another build, interleaved (bench/lib/baseline.js).
const baselineArg = argv.indexOf('--baseline');
const BASELINE = baselineArg >= 0 ? argv[baselineArg + 1] : undefined;

function available(file, args = ['--version']) {
  const probe = spawnSync(file, args, { stdio: 'ignore', timeout: 20_000 });
  return probe.status === 0;
}

async function main() {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'fast-run.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm run bench does)');
  const tools = {
    curl: available('curl'),
    httpie: available('http', ['--version']),
    httpyac: existsSync(HTTPYAC),
    time: existsSync('/usr/bin/time'),
  };
  const tmp = mkdtempSync(join(tmpdir(), 'reqflow-bench-'));
  const home = join(tmp, 'home');
  mkdirSync(home);
  const baseline = BASELINE === undefined ? undefined : prepareBaseline(BASELINE, ROOT);
  const server = await startServer();
  const deadline = setTimeout(() => {
    console.error(`bench: stopped after ${DEADLINE_MS / 60_000} minutes (deadline)`);
    server.stop();
    baseline?.cleanup();
    rmSync(tmp, { recursive: true, force: true });
    process.exit(1);
  }, DEADLINE_MS);
  deadline.unref();
  const results = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version, platform: `${process.platform}-${process.arch}` },
    runs: RUNS,
    loadAverage: loadavg(),
    baseline: baseline?.label,
    tools,
    cases: {},
    targets: [],
  };
  try {
    const files = writeFixtures(tmp, server.base, server.h2cBase);
    // A clean environment: no user config, state or installed plugins (measured separately below).
    const env = { PATH: process.env.PATH, HOME: home, NO_COLOR: '1', REQFLOW_STATE_DIR: join(tmp, 'state'), REQFLOW_DATA_DIR: join(tmp, 'data'), LANG: 'C.UTF-8' };
    const opts = { env, cwd: tmp };
    const node = (label, ...args) => command(label, process.execPath, args);
    const reqflow = (label, ...args) => command(label, process.execPath, [BIN, ...args]);
    // The same command for the baseline build: none without --baseline.
    const before = (label, ...args) => (baseline ? [command(`${label}, ${baseline.label}`, process.execPath, [baseline.bin, ...args])] : []);
    const httpyac = (label, ...args) => command(label, HTTPYAC, args);
    const peers = [];
    if (tools.curl) peers.push(command('curl', 'curl', ['-sS', `${server.base}/get`]));
    if (tools.httpie) peers.push(command('httpie', 'http', ['--ignore-stdin', 'GET', `${server.base}/get`]));
    if (tools.httpyac) peers.push(httpyac('httpyac send', 'send', files.one, '--all', '-o', 'body'));
    for (const [tool, hint] of [['httpie', 'apt-get install -y httpie'], ['httpyac', 'npm ci']]) if (!tools[tool]) console.error(`bench: ${tool} is not installed (${hint}): its rows are skipped`);
    // pass: null when the comparison could not be made (a peer is missing).
    const check = (name, target, value, pass, detail) => results.targets.push({ name, target, value: Number.isFinite(value) ? Number(value.toFixed(3)) : null, pass: Number.isFinite(value) ? pass : null, detail });

    if (wanted('startup')) {
      console.error('bench: start-up ...');
      const floor = node('bare node:http GET (floor)', BARE_GET, `${server.base}/get`);
      const s = await compare(
        [node('node -e 0', '-e', '0'), floor, reqflow('reqflow --version', '--version'), reqflow('reqflow run (one GET)', 'run', files.one), ...before('reqflow run (one GET)', 'run', files.one), reqflow('reqflow send (one GET)', 'send', `${server.base}/get`), ...peers],
        { warmup: 2, runs: RUNS, ...opts },
      );
      results.cases.startup = s;
      const base = s['node -e 0'].median;
      const baseCpu = s['node -e 0'].cpuMean;
      const get = s['reqflow run (one GET)'].median;
      console.log(
        formatSection(
          `Start-up: one GET (wall time, median; CPU time, mean; load average ${loadavg()[0].toFixed(1)})`,
          ['command', 'median', 'min', 'ratio to node -e 0', 'CPU', 'CPU ratio'],
          Object.entries(s).map(([label, v]) => [label, ms(v.median), ms(v.min), ratio(v.median / base), ms(v.cpuMean), ratio(v.cpuMean / baseCpu)]),
        ),
      );
      check('one GET, ratio to node -e 0', '≤ 2.0 ×', get / base, get / base <= 2.0, `${ms(get)} vs ${ms(base)}`);
      check('one GET, ratio to node -e 0 (issue 23 goal)', '≤ 1.2 ×', get / base, get / base <= 1.2, `${ms(get)} vs ${ms(base)}; the bare node:http GET: ${ratio(s[floor.label].median / base)}`);
      // The same goal in CPU time (where measured): under load, wall-time medians can pass on noise.
      const getCpu = s['reqflow run (one GET)'].cpuMean;
      check('one GET, CPU time, ratio to node -e 0 (issue 23 goal)', '≤ 1.2 ×', getCpu / baseCpu, getCpu / baseCpu <= 1.2, `${ms(getCpu)} vs ${ms(baseCpu)}; the bare node:http GET: ${ratio(s[floor.label].cpuMean / baseCpu)}`);
      // Issue 23's ≤ 1.2 × cannot hold on Node 20: the bare node:http GET alone is ~1.5–1.6 ×
      // node -e 0. The goal restated against that floor (docs/performance.md): what reqflow
      // adds to the cheapest possible GET is at most half of it.
      const floorCpu = s[floor.label].cpuMean;
      check('one GET, CPU time, ratio to the bare node:http GET (issue 23, restated)', '≤ 1.5 ×', getCpu / floorCpu, getCpu / floorCpu <= 1.5, `${ms(getCpu)} vs ${ms(floorCpu)}`);
      const bytes = statSync(join(ROOT, 'dist', 'bundle', 'fast-run.cjs')).size;
      check('JavaScript a plain GET reads: dist/bundle/fast-run.cjs (kB)', `≤ ${PLAIN_PATH_GOAL_BYTES / 1000} kB`, bytes / 1000, bytes <= PLAIN_PATH_GOAL_BYTES, `${bytes} bytes`);
      // Issue 24: the same request from the command line costs what it costs from a file.
      const send = s['reqflow send (one GET)'].median;
      check('send of one GET, ratio to run of it', '≤ 1.05 ×', send / get, send / get <= 1.05, `${ms(send)} vs ${ms(get)}`);
      if (s.httpie) check('one GET, ratio to httpie', 'faster (< 1.0 ×)', get / s.httpie.median, get < s.httpie.median, `${ms(get)} vs ${ms(s.httpie.median)}`);
      else check('one GET, ratio to httpie', 'faster (< 1.0 ×)', NaN, null, 'httpie is not installed');
      if (s['httpyac send']) check('one GET, ratio to httpyac', 'faster (< 1.0 ×)', get / s['httpyac send'].median, get < s['httpyac send'].median, `${ms(get)} vs ${ms(s['httpyac send'].median)}`);
    }

    if (wanted('batch')) {
      const batch = {};
      for (const [kind, one, many] of [
        ['GET', files.one, files.batchGet],
        ['GraphQL POST', files.oneGraphql, files.batchGraphql],
      ]) {
        console.error(`bench: batch of 1,000 ${kind}s ...`);
        // The yardstick (GETs only): a bare node:http keep-alive loop doing the same requests, interleaved.
        const bare = kind === 'GET' ? [node('bare 1', BARE_LOOP, `${server.base}/get`, '1'), node('bare 1,000', BARE_LOOP, `${server.base}/get`, '1000')] : [];
        const r = await compare([reqflow('1 request', 'run', one), reqflow('1,000 requests', 'run', many), ...before('1 request', 'run', one), ...before('1,000 requests', 'run', many), ...bare], { warmup: 1, runs: Math.max(3, RUNS), ...opts });
        const row = { reqflow: { one: r['1 request'].median, many: r['1,000 requests'].median, marginal: (r['1,000 requests'].median - r['1 request'].median) / 999 } };
        if (baseline) {
          const [b1, bMany] = [r[`1 request, ${baseline.label}`].median, r[`1,000 requests, ${baseline.label}`].median];
          row[baseline.label] = { one: b1, many: bMany, marginal: (bMany - b1) / 999 };
        }
        if (bare.length > 0) row['node:http loop'] = { one: r['bare 1'].median, many: r['bare 1,000'].median, marginal: (r['bare 1,000'].median - r['bare 1'].median) / 999 };
        if (tools.httpyac) {
          // httpyac needs ~25 s for 1,000 requests here: no warm-up round (the start-up case warmed it), fewer runs.
          const y = await compare([httpyac('1 request', 'send', one, '--all', '-o', 'body'), httpyac('1,000 requests', 'send', many, '--all', '-o', 'body')], { warmup: 0, runs: quick ? 1 : 2, ...opts, timeoutMs: 180_000 });
          row.httpyac = { one: y['1 request'].median, many: y['1,000 requests'].median, marginal: (y['1,000 requests'].median - y['1 request'].median) / 999 };
        }
        batch[kind] = row;
      }
      results.cases.batch = batch;
      const rows = [];
      for (const [kind, row] of Object.entries(batch)) {
        for (const [tool, v] of Object.entries(row)) rows.push([`${kind}: ${tool}`, ms(v.one), ms(v.many), `${v.marginal.toFixed(3)} ms`, tool === 'reqflow' && row.httpyac ? `${(row.httpyac.marginal / v.marginal).toFixed(1)} × better` : '']);
        check(`batch ${kind}: marginal per request (ms)`, '≤ 0.5 ms', row.reqflow.marginal, row.reqflow.marginal <= 0.5, `${row.reqflow.marginal.toFixed(3)} ms`);
        const floor = row['node:http loop'];
        if (floor) {
          const over = row.reqflow.marginal / floor.marginal;
          check(`batch ${kind}: marginal per request, ratio to a bare node:http loop (issue 23 goal)`, '≤ 1.5 ×', over, over <= 1.5, `${row.reqflow.marginal.toFixed(3)} ms vs ${floor.marginal.toFixed(3)} ms`);
        }
        if (row.httpyac) {
          const better = row.httpyac.marginal / row.reqflow.marginal;
          check(`batch ${kind}: httpyac's marginal / reqflow's (×)`, '≥ 10 ×', better, better >= 10, `${row.httpyac.marginal.toFixed(2)} ms vs ${row.reqflow.marginal.toFixed(3)} ms`);
        }
      }
      console.log(formatSection('Batch: one file of 1,000 requests to one host (median)', ['case', '1 request', '1,000 requests', 'marginal / request', 'vs httpyac'], rows));
    }

    if (wanted('test')) {
      console.error('bench: reqflow test, 1,000 requests with one check each ...');
      // `run` of the same files, interleaved: what a check adds is test's marginal over run's.
      const t = await compare([reqflow('1 request', 'test', files.testOne), reqflow('1,000 requests', 'test', files.testMany), reqflow('run 1', 'run', files.testOne), reqflow('run 1,000', 'run', files.testMany)], { warmup: 1, runs: Math.max(3, RUNS), ...opts });
      const marginal = (t['1,000 requests'].median - t['1 request'].median) / 999;
      const runMarginal = (t['run 1,000'].median - t['run 1'].median) / 999;
      console.error('bench: reqflow test --jobs 1 and --jobs 4 over 8 files of 250 requests (20 ms each) ...');
      const j = await compare([reqflow('--jobs 1', 'test', files.jobs, '--jobs', '1'), reqflow('--jobs 4', 'test', files.jobs, '--jobs', '4')], { warmup: 0, runs: quick ? 1 : 3, ...opts, timeoutMs: 180_000 });
      const speedup = j['--jobs 1'].median / j['--jobs 4'].median;
      results.cases.test = { one: t['1 request'].median, many: t['1,000 requests'].median, marginal, jobs1: j['--jobs 1'].median, jobs4: j['--jobs 4'].median, speedup };
      console.log(
        formatSection('reqflow test (median)', ['case', 'wall', 'detail'], [
          ['1 request, 1 check', ms(t['1 request'].median), `run of it: ${ms(t['run 1'].median)}`],
          ['1,000 requests, 1 check each', ms(t['1,000 requests'].median), `${marginal.toFixed(3)} ms marginal / request`],
          ['8 files × 250 slow requests, --jobs 1', ms(j['--jobs 1'].median), ''],
          ['8 files × 250 slow requests, --jobs 4', ms(j['--jobs 4'].median), `${speedup.toFixed(2)} × faster`],
        ]),
      );
      // Start-up: `reqflow test` is served without oclif, as `run` is (it took ~3 × a run's time).
      check('reqflow test of one request with a check: ratio to run of it', '≤ 1.3 ×', t['1 request'].median / t['run 1'].median, t['1 request'].median / t['run 1'].median <= 1.3, `${ms(t['1 request'].median)} vs ${ms(t['run 1'].median)}`);
      check('reqflow test: marginal per request with a check (ms)', '≤ 0.6 ms', marginal, marginal <= 0.6, `${marginal.toFixed(3)} ms`);
      check('reqflow test with one ?? per request: marginal, ratio to run of the same file (issue 23 goal)', '≤ 1.2 ×', marginal / runMarginal, marginal / runMarginal <= 1.2, `${marginal.toFixed(3)} ms vs ${runMarginal.toFixed(3)} ms`);
      check('reqflow test: --jobs 4 speed-up over --jobs 1 (×)', '≥ 1.6 ×', speedup, speedup >= 1.6, `${ms(j['--jobs 1'].median)} vs ${ms(j['--jobs 4'].median)}`);
    }

    if (wanted('http2')) {
      console.error('bench: HTTP/2 (h2c) against HTTP/1.1, one GET and 1,000 ...');
      const h = await compare(
        [reqflow('HTTP/1.1: 1 GET', 'run', files.one), reqflow('HTTP/2: 1 GET', 'run', files.h2One), reqflow('HTTP/1.1: 1,000 GETs', 'run', files.batchGet), reqflow('HTTP/2: 1,000 GETs', 'run', files.h2Batch)],
        { warmup: 1, runs: Math.max(3, RUNS), ...opts },
      );
      const one1 = h['HTTP/1.1: 1 GET'].median;
      const one2 = h['HTTP/2: 1 GET'].median;
      const marginal1 = (h['HTTP/1.1: 1,000 GETs'].median - one1) / 999;
      const marginal2 = (h['HTTP/2: 1,000 GETs'].median - one2) / 999;
      results.cases.http2 = { one1, one2, marginal1, marginal2 };
      console.log(
        formatSection('HTTP/2 (h2c, one connection) beside HTTP/1.1 (median)', ['case', '1 GET', '1,000 GETs', 'marginal / request'], [
          ['HTTP/1.1', ms(one1), ms(h['HTTP/1.1: 1,000 GETs'].median), `${marginal1.toFixed(3)} ms`],
          ['HTTP/2', ms(one2), ms(h['HTTP/2: 1,000 GETs'].median), `${marginal2.toFixed(3)} ms`],
        ]),
      );
      check('HTTP/2 one GET, ratio to HTTP/1.1 (×)', '≤ 1.10 ×', one2 / one1, one2 / one1 <= 1.1, `${ms(one2)} vs ${ms(one1)}`);
      check('HTTP/2 batch: marginal per request (ms)', '≤ 0.3 ms', marginal2, marginal2 <= 0.3, `${marginal2.toFixed(3)} ms (HTTP/1.1: ${marginal1.toFixed(3)} ms)`);
    }

    if (wanted('proxy')) {
      console.error('bench: through a forwarding proxy (the `proxy` package) against direct ...');
      // The proxy runs in this process: it is idle while a measured command runs, as the server is.
      const { createProxy } = await import('proxy');
      const { createServer } = await import('node:http');
      const proxy = createProxy(createServer());
      await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      const proxyUrl = `http://127.0.0.1:${proxy.address().port}`;
      try {
        const cases = [
          reqflow('reqflow direct', 'run', files.one),
          reqflow('reqflow via proxy', 'run', files.one, '--proxy', proxyUrl),
          reqflow('reqflow 1,000 direct', 'run', files.batchGet),
          reqflow('reqflow 1,000 via proxy', 'run', files.batchGet, '--proxy', proxyUrl),
          ...(tools.curl ? [command('curl direct', 'curl', ['-sS', `${server.base}/get`]), command('curl via proxy', 'curl', ['-sS', '-x', proxyUrl, `${server.base}/get`])] : []),
        ];
        const p = await compare(cases, { warmup: 1, runs: Math.max(3, RUNS), ...opts });
        const direct = p['reqflow direct'].median;
        const via = p['reqflow via proxy'].median;
        const marginalDirect = (p['reqflow 1,000 direct'].median - direct) / 999;
        const marginalVia = (p['reqflow 1,000 via proxy'].median - via) / 999;
        const hop = tools.curl ? p['curl via proxy'].median - p['curl direct'].median : NaN;
        const beyond = via - direct - hop;
        results.cases.proxy = { direct, via, hop, beyond, marginalDirect, marginalVia };
        console.log(
          formatSection('Through a proxy (median)', ['case', 'direct', 'via proxy', 'difference'], [
            ['reqflow, one GET', ms(direct), ms(via), ms(via - direct)],
            ...(tools.curl ? [['curl, one GET (the proxy\'s own hop)', ms(p['curl direct'].median), ms(p['curl via proxy'].median), ms(hop)]] : []),
            ['reqflow, 1,000 GETs: marginal / request', `${marginalDirect.toFixed(3)} ms`, `${marginalVia.toFixed(3)} ms`, `${(marginalVia - marginalDirect).toFixed(3)} ms`],
          ]),
        );
        if (tools.curl) check('proxied GET beyond the proxy\'s own hop, share of a direct GET (%)', '≤ 10 %', (100 * beyond) / direct, beyond <= 0.1 * direct, `${ms(via)} via, ${ms(direct)} direct, hop ${ms(hop)}`);
        else check('proxied GET beyond the proxy\'s own hop, share of a direct GET (%)', '≤ 10 %', NaN, null, 'curl is not installed: the hop cannot be measured');
      } finally {
        proxy.closeAllConnections();
        proxy.close();
      }
    }

    // The peak-memory cases (bench/lib/memory-cases.js).
    const context = { server, files, opts, quick, tools, results, check, reqflow, before, peers, bareLoop: (label, ...args) => node(label, BARE_LOOP, ...args) };
    if (wanted('memory')) await manyRequestsMemoryCase(context);
    if (wanted('large')) await largeResponseCase(context);

    if (wanted('sse')) {
      console.error('bench: server-sent events ...');
      const cmd = reqflow('reqflow (streaming)', 'run', files.events);
      await eventLatencies(cmd, opts);
      const all = [];
      const rounds = quick ? 2 : 3;
      for (let round = 0; round < rounds; round++) all.push(...(await eventLatencies(cmd, opts)));
      const s = summarize(all);
      results.cases.sse = { events: all.length, expected: 200 * rounds, medianMs: s.median, p99Ms: s.p99, maxMs: s.max };
      console.log(formatSection(`SSE: 200 events 5 ms apart, ${rounds} runs (server write → reqflow output)`, ['events seen', 'median', 'p99', 'max'], [[`${all.length} / ${200 * rounds}`, ms(s.median, 2), ms(s.p99, 2), ms(s.max, 2)]]));
      check('SSE latency: median (ms)', '≤ 5 ms', s.median, s.median <= 5, ms(s.median, 2));
      check('SSE latency: p99 (ms)', '≤ 20 ms', s.p99, s.p99 <= 20, ms(s.p99, 2));
      check('SSE: events printed', `${200 * rounds}`, all.length, all.length === 200 * rounds, `${all.length} of ${200 * rounds}`);
    }

    if (wanted('parse')) {
      console.error('bench: parsing 10,000 requests ...');
      const p = await compare([reqflow('list 1 request', 'run', files.one, '--list'), reqflow('list 10,000 requests', 'run', files.parse, '--list')], { warmup: 2, runs: RUNS, ...opts });
      results.cases.parse = p;
      const beyond = p['list 10,000 requests'].median - p['list 1 request'].median;
      console.log(formatSection('Parse: reqflow run FILE --list (median)', ['command', 'median', 'beyond start-up'], [['list 1 request', ms(p['list 1 request'].median), ''], ['list 10,000 requests', ms(p['list 10,000 requests'].median), ms(beyond)]]));
      check('parse 10,000 requests beyond start-up (ms)', '≤ 300 ms', beyond, beyond <= 300, ms(beyond));
    }

    if (wanted('history')) {
      console.error('bench: the history: 1,000 GETs and one GET with and without it ...');
      const h = await compare(
        [
          reqflow('1 GET', 'run', files.one),
          reqflow('1 GET --no-history', 'run', files.one, '--no-history'),
          reqflow('1,000 GETs', 'run', files.batchGet),
          reqflow('1,000 GETs --no-history', 'run', files.batchGet, '--no-history'),
        ],
        { warmup: 1, runs: Math.max(5, RUNS), ...opts },
      );
      const perRun = h['1 GET'].median - h['1 GET --no-history'].median;
      const perRequest = (h['1,000 GETs'].median - h['1,000 GETs --no-history'].median - perRun) / 999;
      console.error(`bench: reqflow history stats over ${HISTORY_ENTRIES.toLocaleString('en')} entries ...`);
      const project = writeHistoryFixture(tmp, env.REQFLOW_STATE_DIR);
      const s = await compare([node('node -e 0', '-e', '0'), reqflow('history --help (oclif start-up)', 'history', '--help'), reqflow('history stats', 'history', 'stats')], { warmup: 1, runs: Math.max(3, RUNS), env, cwd: project });
      const stats = s['history stats'].median;
      results.cases.history = { perRun, perRequest, oneGet: h['1 GET'].median, oneGetWithout: h['1 GET --no-history'].median, batch: h['1,000 GETs'].median, batchWithout: h['1,000 GETs --no-history'].median, stats, oclif: s['history --help (oclif start-up)'].median, node: s['node -e 0'].median };
      console.log(
        formatSection('History (median)', ['case', 'with', 'without (--no-history)', 'difference'], [
          ['one GET', ms(h['1 GET'].median), ms(h['1 GET --no-history'].median), ms(perRun)],
          ['1,000 GETs', ms(h['1,000 GETs'].median), ms(h['1,000 GETs --no-history'].median), `${perRequest.toFixed(3)} ms / request`],
          [`history stats, ${HISTORY_ENTRIES.toLocaleString('en')} entries`, ms(stats), '', `oclif start-up alone: ${ms(s['history --help (oclif start-up)'].median)}; node -e 0: ${ms(s['node -e 0'].median)}`],
        ]),
      );
      check('history: cost per request (ms)', '≤ 0.05 ms', perRequest, perRequest <= 0.05, `${perRequest.toFixed(3)} ms`);
      check(`history stats over ${HISTORY_ENTRIES.toLocaleString('en')} entries (s)`, '≤ 1 s', stats / 1000, stats <= 1000, ms(stats));
    }

    if (wanted('tui')) {
      console.error('bench: the TUI pager on a 100 MiB body ...');
      // A process of its own per run: its peak RSS is the UI's alone.
      const runs = [];
      for (let round = 0; round < (quick ? 1 : 3); round++) {
        const run = spawnSync(process.execPath, [join(ROOT, 'bench', 'tui-pager.js'), '100'], { encoding: 'utf8', timeout: 300_000 });
        if (run.status !== 0) throw new Error(`bench/tui-pager.js failed: ${run.stderr}`);
        runs.push(JSON.parse(run.stdout.trim().split('\n').pop()));
      }
      const median = (key) => summarize(runs.map((run) => run[key])).median;
      const tui = { bodyMiB: runs[0].bodyMiB, firstScreenMs: median('firstScreenMs'), pageDownMs: median('pageDownMedianMs'), toLastLineMs: median('toLastLineMs'), peakRssMb: Math.max(...runs.map((run) => run.peakRssMb)) };
      results.cases.tuiPager = tui;
      console.log(
        formatSection(`TUI pager: ${tui.bodyMiB.toFixed(0)} MiB body (median of ${runs.length}; peak RSS of all)`, ['first screen after the last byte', 'page down', 'G to the last line', 'peak RSS'], [
          [ms(tui.firstScreenMs), ms(tui.pageDownMs, 1), ms(tui.toLastLineMs), mb(tui.peakRssMb)],
        ]),
      );
      check('TUI 100 MiB body: first screen after the last byte (s)', '≤ 1 s', tui.firstScreenMs / 1000, tui.firstScreenMs <= 1000, ms(tui.firstScreenMs));
      check('TUI 100 MiB body: page down (ms)', '≤ 50 ms', tui.pageDownMs, tui.pageDownMs <= 50, ms(tui.pageDownMs, 1));
      check('TUI 100 MiB body: peak RSS, times the body', '≤ 3 ×', tui.peakRssMb / (tui.bodyMiB * 1.048576), tui.peakRssMb <= 3 * tui.bodyMiB * 1.048576, mb(tui.peakRssMb));
    }

    if (wanted('tui-startup')) {
      console.error('bench: the TUI start-up to its first screen ...');
      // In a pty (util-linux script), alternating with one GET run there: bench/tui-startup.js.
      const run = spawnSync(process.execPath, [join(ROOT, 'bench', 'tui-startup.js'), String(RUNS)], { encoding: 'utf8', timeout: 300_000 });
      if (run.status === 2) check('TUI start-up to the first screen, ratio to one GET', '≤ 2 ×', NaN, null, run.stderr.trim());
      else {
        if (run.status !== 0) throw new Error(`bench/tui-startup.js failed: ${run.stderr}`);
        const startup = JSON.parse(run.stdout.trim().split('\n').pop());
        results.cases.tuiStartup = startup;
        const base = startup.cases['reqflow run (one GET)'].median;
        const rows = Object.entries(startup.cases).map(([label, v]) => [label, ms(v.median), ms(v.min), ratio(v.median / base)]);
        console.log(formatSection(`TUI start-up in a pty (median of ${startup.runs}, alternating)`, ['command', 'median', 'min', 'ratio to one GET'], rows));
        const tui = startup.cases['reqflow (TUI) to its first screen'].median;
        check('TUI start-up to the first screen, ratio to one GET', '≤ 2 ×', tui / base, tui / base <= 2, `${ms(tui)} vs ${ms(base)}`);
      }
    }

    if (wanted('plugins') && existsSync(join(ROOT, 'bench', 'plugins-overhead.js'))) {
      console.error('bench: third-party plugin collection ...');
      const { measurePluginsOverhead, formatPluginsOverhead } = await import('./plugins-overhead.js');
      // A few ms in a ~80 ms run: twice the runs of the other cases to see through the noise.
      const r = await measurePluginsOverhead({ runs: 2 * RUNS });
      results.cases.plugins = r;
      console.log(`\n${formatPluginsOverhead(r)}`);
      check('plugin look-up overhead, none installed (%)', '≤ 10 %', r.overheadPercent, r.overheadPercent <= 10, `${r.overheadPercent} %`);
    }

    if (wanted('stress')) {
      // Issue 26: reqflow stress beside autocannon (a dev dependency) on the same server, the same
      // connections and the same duration, alternated: requests per second, medians of the rounds.
      console.error('bench: reqflow stress beside autocannon, 10 connections, 5 s each ...');
      const AUTOCANNON = join(ROOT, 'node_modules', 'autocannon', 'autocannon.js');
      const rounds = quick ? 1 : 3;
      const rps = { reqflow: [], autocannon: [] };
      for (let round = 0; round < rounds; round++) {
        const ours = await runChecked(reqflow('reqflow stress', 'stress', files.one, '--workers', '10', '--duration', '5s', '-o', 'json'), { ...opts, capture: true, timeoutMs: 60_000 });
        rps.reqflow.push(JSON.parse(ours.stdout).rps);
        const theirs = await runChecked(node('autocannon', AUTOCANNON, '-c', '10', '-d', '5', '--json', `${server.base}/get`), { ...opts, capture: true, timeoutMs: 60_000 });
        rps.autocannon.push(JSON.parse(theirs.stdout).requests.average);
      }
      const ours = summarize(rps.reqflow).median;
      const theirs = summarize(rps.autocannon).median;
      results.cases.stress = { reqflow: ours, autocannon: theirs };
      console.log(formatSection('Stress: one GET, 10 connections, 5 s (requests per second, median of rounds)', ['tool', 'req/s', 'share of autocannon'], [['autocannon', theirs.toFixed(0), '100 %'], ['reqflow stress', ours.toFixed(0), `${((100 * ours) / theirs).toFixed(0)} %`]]));
      check("stress: reqflow's requests per second, share of autocannon's (issue 26 goal)", '≥ 50 %', (100 * ours) / theirs, ours >= 0.5 * theirs, `${ours.toFixed(0)} vs ${theirs.toFixed(0)} req/s`);
    }

    console.log(formatTargets(results.targets));
    writeFileSync(join(ROOT, 'bench', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
    console.log(`\nfigures written to bench/results.json (${results.machine.cpus} CPUs, node ${results.machine.node}; peers: ${Object.entries(tools).map(([k, v]) => `${k} ${v ? 'yes' : 'missing'}`).join(', ')})`);
    if (strict && results.targets.some((t) => t.pass === false)) process.exitCode = 1;
  } finally {
    clearTimeout(deadline);
    server.stop();
    baseline?.cleanup();
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`bench: ${error.message}`);
  process.exit(1);
});
