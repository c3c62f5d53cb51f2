/**
 * `reqflow test --report html=DIR` opened in a real headless Chromium (Debian's `chromium`):
 * the page shows the summary, a row per request with its timing bar and checks, the failures
 * with request and response — and text from hostile names and bodies stays text.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { startDemoApi, type DemoApi } from '../servers/demo-api.js';
import { runCli, tempDir } from '../helpers/cli.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
let api: DemoApi;
let browser: Browser;
const tmp = tempDir('reqflow-html-');

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: install Debian's chromium (apt-get install -y chromium)`);
  api = await startDemoApi();
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
});
afterAll(async () => {
  await browser.close();
  await api.close();
  tmp.cleanup();
});

test('the HTML report: summary, rows, timing bars, failures with request and response, hostile text escaped', async () => {
  tmp.write('suite/a.http', `# @name login
POST {{baseUrl}}/login
Content-Type: application/json

{"username": "alice", "password": "secret"}

?? status == 200

###
# @name <script>window.pwned = 1</script>
POST {{baseUrl}}/echo
Content-Type: text/plain

</pre><img src=x onerror="window.pwned = 2">

?? status == 201
`);
  tmp.write('suite/b.http', 'GET {{baseUrl}}/health\n\n###\n# @name refused\nGET http://127.0.0.1:1/nothing\n');
  const dir = join(tmp.dir, 'report');
  const result = await runCli(['test', 'suite', '-e', `baseUrl=${api.url}`, '--report', `html=${dir}`], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
  expect(result.code).toBe(4); // the refused connection is the first error
  const file = join(dir, 'index.html');
  expect(readFileSync(file, 'utf8')).not.toMatch(/<script>|<img/);

  const profile = mkdtempSync(join(tmpdir(), 'reqflow-html-browser-'));
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  // Nothing may be fetched: the page is self-contained.
  const requests: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith('file:')) requests.push(request.url());
  });
  try {
    await page.goto(pathToFileURL(file).href);
    expect(await page.title()).toBe('reqflow test — failed');
    expect(await page.locator('h1').innerText()).toBe('reqflow test: 2 of 4 requests did not pass');
    const tiles = await page.locator('.summary .tile').allInnerTexts();
    expect(tiles.map((t) => t.replace(/\s+/g, ' ').trim())).toEqual(['2 passed', '1 failed', '1 errors', '1 of 2 checks passed']);
    expect(await page.locator('section h2').allInnerTexts()).toEqual([expect.stringMatching(/^suite\/a\.http/), expect.stringMatching(/^suite\/b\.http/)]);
    expect(await page.locator('tbody tr').count()).toBe(4);
    expect(await page.locator('tbody tr .bar').count()).toBe(4);
    const failed = page.locator('tr.row-FAIL');
    expect(await failed.locator('strong').innerText()).toBe('<script>window.pwned = 1</script>');
    expect(await failed.locator('.message').innerText()).toBe('expected status == 201, got 200');
    expect(await failed.locator('details pre').first().innerText()).toContain('</pre><img src=x onerror="window.pwned = 2">');
    expect(await page.locator('tr.row-ERROR .message').innerText()).toContain('connection refused by 127.0.0.1:1');
    // The hostile name and body are text: no element came of them, nothing ran.
    expect(await page.locator('body script, body img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    // The slowest request's bar is the widest; every bar has a size.
    const widths = await page.locator('tbody .bar').evaluateAll((bars) => bars.map((bar) => (bar as HTMLElement).getBoundingClientRect().width));
    expect(Math.min(...widths)).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
  } finally {
    await page.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
