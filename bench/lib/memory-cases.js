/**
 * The bench's peak-memory cases (peak RSS from `/usr/bin/time -v`): a 100 MiB JSON response
 * into a pipe, and files of 1 to 100,000 GETs (issue 23: memory that does not grow with the
 * file). Each takes the bench's context: `{ server, files, opts, quick, tools, results,
 * check, reqflow, before, peers }` (bench/run.js).
 */
import { command, compare, runChecked, summarize, timeVerbose } from './measure.js';
import { formatSection, mb, ms } from './report.js';

/** `rounds` interleaved runs of each command under /usr/bin/time: median wall time, highest peak RSS. */
async function peakRss(cases, rounds, opts) {
  const samples = Object.fromEntries(cases.map((cmd) => [cmd.label, { ms: [], rss: [] }]));
  for (let round = 0; round < rounds; round++) {
    for (const cmd of cases) {
      const r = await timeVerbose(cmd, opts);
      samples[cmd.label].ms.push(r.ms);
      samples[cmd.label].rss.push(r.rssMb);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([label, v]) => [label, { ms: summarize(v.ms).median, rssMb: Math.max(...v.rss) }]));
}

function needTime(tools) {
  if (!tools.time) throw new Error('/usr/bin/time is missing: apt-get install -y time');
}

/** 100 MiB of JSON into a pipe: raw, pretty-printed, and curl. */
export async function largeResponseCase({ server, files, opts, quick, tools, results, check, reqflow, peers }) {
  needTime(tools);
  console.error('bench: 100 MiB JSON response ...');
  const url = `${server.base}/large?mib=100`;
  const cases = [...(tools.curl ? [command('curl', 'curl', ['-sS', url])] : []), reqflow('reqflow -o raw', 'run', files.large, '-o', 'raw'), reqflow('reqflow (pretty)', 'run', files.large)];
  // The first request makes the server build its document: a warm-up round, unmeasured.
  for (const cmd of cases) await runChecked(cmd, opts);
  const large = await peakRss(cases, quick ? 2 : 3, opts);
  results.cases.large = large;
  const oneGet = results.cases.startup ?? (await compare([reqflow('reqflow run (one GET)', 'run', files.one), ...peers.filter((p) => p.label === 'curl')], { warmup: 1, runs: 5, ...opts }));
  const beyond = (label, oneLabel) => large[label].ms - (oneGet[oneLabel]?.median ?? 0);
  const rows = Object.entries(large).map(([label, v]) => [label, ms(v.ms), mb(v.rssMb), ms(beyond(label, label === 'curl' ? 'curl' : 'reqflow run (one GET)'))]);
  console.log(formatSection('Large response: 100 MiB JSON into a pipe (median wall time, peak RSS of all runs)', ['command', 'wall', 'peak RSS', 'beyond a one-GET run'], rows));
  const raw = large['reqflow -o raw'].rssMb;
  const pretty = large['reqflow (pretty)'].rssMb;
  check('100 MiB raw: peak RSS (MB)', '≤ 64 MB', raw, raw <= 64, mb(raw));
  if (large.curl) {
    const mine = beyond('reqflow -o raw', 'reqflow run (one GET)');
    const theirs = beyond('curl', 'curl');
    check('100 MiB raw: time beyond one GET, ratio to curl', '≤ 3 ×', mine / theirs, mine / theirs <= 3, `${ms(mine)} vs curl ${ms(theirs)}`);
  }
  check('100 MiB pretty: peak RSS (MB)', '≤ 100 MB', pretty, pretty <= 100, mb(pretty));
  check('100 MiB JSON pretty-printed to a pipe: peak RSS (issue 23 goal, MB)', '≤ 64 MB', pretty, pretty <= 64, mb(pretty));
  check('100 MiB pretty: wall time (s)', '≤ 3 s', large['reqflow (pretty)'].ms / 1000, large['reqflow (pretty)'].ms <= 3000, ms(large['reqflow (pretty)'].ms));
}

/**
 * GETs in one file (`-o raw --no-history`): 1, 100 and 10,000 (and 100,000 without --quick),
 * the bare node:http loop doing 10,000, and parsing alone (`--list`) of 10,000 and 100,000.
 */
export async function manyRequestsMemoryCase({ server, files, opts, quick, tools, results, check, reqflow, before, bareLoop }) {
  needTime(tools);
  console.error('bench: peak memory of 1 … 100,000 GETs in one file ...');
  const flags = ['-o', 'raw', '--no-history'];
  const cases = [
    reqflow('reqflow: 1 GET', 'run', files.one, ...flags),
    reqflow('reqflow: 100 GETs', 'run', files.get100, ...flags),
    reqflow('reqflow: 10,000 GETs', 'run', files.batch10k, ...flags),
    ...before('reqflow: 1 GET', 'run', files.one, ...flags),
    ...before('reqflow: 10,000 GETs', 'run', files.batch10k, ...flags),
    bareLoop('bare node:http loop: 10,000 GETs', `${server.base}/get`, '10000'),
  ];
  const memory = await peakRss(cases, quick ? 1 : 2, { ...opts, timeoutMs: 300_000 });
  // One run each: the long ones take a minute or two on a busy machine, and peak RSS varies little.
  const long = [...(quick ? [] : [reqflow('reqflow: 100,000 GETs', 'run', files.get100k, ...flags)]), reqflow('reqflow: --list 10,000', 'run', files.get10k, '--list'), reqflow('reqflow: --list 100,000', 'run', files.get100k, '--list')];
  Object.assign(memory, await peakRss(long, 1, { ...opts, timeoutMs: 600_000 }));
  results.cases.memory = memory;
  const one = memory['reqflow: 1 GET'].rssMb;
  console.log(formatSection('Memory: GETs in one file (peak RSS of all runs, median wall time)', ['command', 'peak RSS', 'beyond one GET', 'wall'], Object.entries(memory).map(([label, v]) => [label, mb(v.rssMb), mb(v.rssMb - one), ms(v.ms)])));
  const many = memory['reqflow: 10,000 GETs'].rssMb;
  check('10,000 GETs in one file: peak RSS beyond one GET (issue 23 goal, MB)', '≤ 30 MB', many - one, many - one <= 30, `${mb(many)} vs ${mb(one)}`);
  const hundredK = memory['reqflow: 100,000 GETs']?.rssMb;
  const hundred = memory['reqflow: 100 GETs'].rssMb;
  if (hundredK !== undefined) check('100,000 GETs: peak RSS beyond 100 GETs (issue 23 goal, MB)', '≤ 30 MB', hundredK - hundred, hundredK - hundred <= 30, `${mb(hundredK)} vs ${mb(hundred)}`);
}
