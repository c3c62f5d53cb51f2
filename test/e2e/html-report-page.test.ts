/**
 * The HTML report of `reqflow test`, written from a RunResult built by hand (no server, no CLI)
 * and opened in a real headless Chromium (Debian's `chromium`, driven by playwright-core; never
 * `playwright install`): the summary counts, one row per request, the failed check's message,
 * and hostile names and bodies that stay text. The CLI end of it is test/e2e/html-report.test.ts.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { writeHtmlReport } from '../../src/report/html-report.js';
import type { RunResult } from '../../src/report/test-results.js';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((path): path is string => Boolean(path));
const CHROMIUM = CANDIDATES.find((path) => existsSync(path));

const HOSTILE_NAME = '<script>alert(1)</script>';
const HOSTILE_BODY = '</pre><img src=x onerror=alert(1)>';
const FAILURE = 'expected status == 201, got 200';

const run: RunResult = {
  startedAt: '2026-11-24T16:27:13.000Z',
  durationMs: 1234,
  files: [
    {
      file: 'suite/a.http',
      durationMs: 900,
      requests: [
        {
          name: 'login',
          method: 'POST',
          url: 'https://api.example.test/login?key=*****',
          line: 1,
          status: 200,
          timings: { dns: 10, connect: 20, tls: 30, firstByte: 150, download: 40, total: 250 },
          tests: [{ name: 'status == 200', passed: true, file: 'suite/a.http', line: 6 }],
          exitCode: 0,
        },
        {
          name: HOSTILE_NAME,
          method: 'POST',
          url: 'https://api.example.test/echo',
          line: 9,
          status: 200,
          // The slowest request of the run: its bar is the full width.
          timings: { connect: 5, firstByte: 580, download: 15, total: 600 },
          tests: [
            { name: 'status == 201', passed: false, message: FAILURE, file: 'suite/a.http', line: 14 },
            { name: 'body exists', passed: true, file: 'suite/a.http', line: 15 },
          ],
          exitCode: 1,
          exchange: {
            request: { headers: { 'content-type': 'text/plain', authorization: 'Bearer *****' }, body: HOSTILE_BODY },
            response: { headers: { 'content-type': 'text/plain', 'set-cookie': ['a=1', 'b=2'], 'x-note': HOSTILE_NAME }, body: HOSTILE_BODY },
          },
        },
      ],
    },
    {
      file: 'suite/b.http',
      durationMs: 300,
      requests: [
        { name: 'health', method: 'GET', url: 'http://127.0.0.1:8080/health', line: 1, status: 200, timings: { total: 40 }, tests: [], exitCode: 0 },
        {
          name: 'refused',
          method: 'GET',
          url: 'http://127.0.0.1:1/nothing',
          line: 4,
          timings: { total: 3 },
          tests: [],
          error: { message: 'connection refused by 127.0.0.1:1', exitCode: 4, hint: 'is the server running?' },
          exitCode: 4,
          exchange: { request: { headers: { accept: '*/*' } } },
        },
      ],
    },
  ],
};

let browser: Browser | undefined;
const tmp = mkdtempSync(join(tmpdir(), 'reqflow-html-unit-'));

beforeAll(async () => {
  if (!CHROMIUM) {
    throw new Error(`Chromium not found (looked for ${CANDIDATES.join(', ')}): install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH`);
  }
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
}, 60_000); // a browser's start: seconds on a busy machine (the e2e config's own bound)

afterAll(async () => {
  await browser?.close();
  rmSync(tmp, { recursive: true, force: true });
});

test('writeHtmlReport: one self-contained page, counts, rows, failures shown, hostile text escaped', async () => {
  // A folder that does not exist yet, two levels down.
  const dir = join(tmp, 'reports', 'html');
  const path = join(dir, 'index.html');
  await writeHtmlReport(run, path);
  expect(existsSync(path)).toBe(true);
  expect(readdirSync(dir)).toEqual(['index.html']); // written atomically: no temp file left

  const html = readFileSync(path, 'utf8');
  expect(html.startsWith('<!doctype html>')).toBe(true);
  // The hostile strings are text: escaped, never markup.
  expect(html).not.toMatch(/<script|<img|<\/pre><img/i);
  expect(html).toMatch(/&(?:lt|#x3C|#60);script>alert\(1\)&(?:lt|#x3C|#60);\/script>/i);
  expect(html).toMatch(/&(?:lt|#x3C|#60);\/pre>&(?:lt|#x3C|#60);img src=x onerror=alert\(1\)>/i);
  // Self-contained: no external stylesheet, script, image or font.
  expect(html).not.toMatch(/<link\b|\bsrc="|url\(/i);

  if (!browser) throw new Error('Chromium did not start');
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('dialog', (dialog) => {
    errors.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  const requests: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith('file:')) requests.push(request.url());
  });
  try {
    await page.goto(pathToFileURL(path).href);

    // The summary: 2 passed, 1 failed, 1 error; 2 of 3 checks passed; duration and start time.
    expect(await page.title()).toBe('reqflow test — failed');
    expect(await page.locator('h1').innerText()).toBe('reqflow test: 2 of 4 requests did not pass');
    const tiles = (await page.locator('.summary .tile').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
    expect(tiles).toEqual(['2 passed', '1 failed', '1 errors', '2 of 3 checks passed']);
    const when = await page.locator('.when').innerText();
    expect(when).toContain('2026-11-24T16:27:13.000Z');
    expect(when).toContain('1.23 s');

    // A section per file, a row per request, each with its timing bar.
    expect(await page.locator('section h2').allInnerTexts()).toEqual([expect.stringMatching(/^suite\/a\.http/), expect.stringMatching(/^suite\/b\.http/)]);
    const rows = page.locator('tbody tr');
    expect(await rows.count()).toBe(4);
    expect(await page.locator('tbody tr .bar').count()).toBe(4);
    expect(await page.locator('tbody td.mark').allInnerTexts()).toEqual(['✓ PASS', '✗ FAIL', '✓ PASS', '! ERROR']);
    // Phases where known, one `total` segment otherwise; the slowest request has the widest bar.
    expect(await rows.nth(0).locator('.seg').evaluateAll((segs) => segs.map((seg) => seg.className))).toEqual(['seg dns', 'seg connect', 'seg tls', 'seg firstByte', 'seg download']);
    expect(await rows.nth(2).locator('.seg').evaluateAll((segs) => segs.map((seg) => seg.className))).toEqual(['seg total']);
    const widths = await page.locator('tbody .bar').evaluateAll((bars) => bars.map((bar) => bar.getBoundingClientRect().width));
    expect(Math.min(...widths)).toBeGreaterThan(0);
    expect(widths.indexOf(Math.max(...widths))).toBe(1);
    expect(await rows.nth(0).innerText()).toContain('https://api.example.test/login?key=*****');

    // The failed request: its hostile name as text, the failed check's message visible, with
    // file:line, and the request and response open in <pre> blocks.
    const failed = page.locator('tr.row-FAIL');
    expect(await failed.count()).toBe(1);
    expect(await failed.locator('strong').innerText()).toBe(HOSTILE_NAME);
    const message = failed.locator('ul.checks .message');
    expect(await message.innerText()).toBe(FAILURE);
    expect(await message.isVisible()).toBe(true);
    expect(await failed.locator('ul.checks').innerText()).toContain('suite/a.http:14');
    expect(await failed.locator('details').getAttribute('open')).not.toBeNull();
    const pres = await failed.locator('details pre').allInnerTexts();
    expect(pres).toHaveLength(2);
    expect(pres[0]).toContain('authorization: Bearer *****');
    expect(pres[0]).toContain(HOSTILE_BODY);
    expect(pres[1]).toContain('set-cookie: a=1, b=2');
    expect(pres[1]).toContain(HOSTILE_BODY);
    expect(await failed.locator('details pre').first().isVisible()).toBe(true);

    // The errored request: its message, and what was sent.
    const errored = page.locator('tr.row-ERROR');
    expect(await errored.locator('.message').first().innerText()).toContain('connection refused by 127.0.0.1:1');
    expect(await errored.locator('details pre').allInnerTexts()).toEqual([expect.stringContaining('GET http://127.0.0.1:1/nothing')]);

    // No element came of the hostile text, nothing ran, nothing was fetched.
    expect(await page.locator('script, img, iframe, object, embed').count()).toBe(0);
    expect(await page.evaluate(() => document.querySelectorAll('[onerror]').length)).toBe(0);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
  } finally {
    await page.close();
  }
}, 60_000); // the e2e config's own bound: a hang only
