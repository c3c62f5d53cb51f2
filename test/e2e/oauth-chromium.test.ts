/**
 * The browser leg of `reqflow oauth login` in a real headless Chromium (Debian's `chromium`,
 * driven by playwright-core; never `playwright install`): open the printed URL, fill the
 * provider's login form, consent, land on reqflow's callback page.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { startOidcProvider } from '../servers/oidc-provider.js';
import { startCli, stopAllClis } from '../helpers/cli-live.js';
import { workspace, type Provider, type Workspace } from '../helpers/oauth-fixture.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let provider: Provider;
let ws: Workspace;
let profileDir: string;
let context: BrowserContext;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: install Debian's chromium (apt-get install -y chromium)`);
  provider = await startOidcProvider();
});
afterAll(async () => {
  await provider.close();
});
beforeEach(async () => {
  ws = workspace(provider);
  profileDir = mkdtempSync(join(tmpdir(), 'reqflow-chromium-'));
  context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run', '--disable-component-update', '--disable-sync'],
  });
  // Only this machine: the provider's pages @import web fonts, which must not leave the box.
  await context.route('**/*', (route) => {
    const { hostname } = new URL(route.request().url());
    return ['127.0.0.1', 'localhost', '[::1]'].includes(hostname) ? route.continue() : route.abort();
  });
});
afterEach(async () => {
  stopAllClis();
  await context.close();
  rmSync(profileDir, { recursive: true, force: true });
  ws.cleanup();
});

/** Starts `oauth login --no-browser` and opens the URL it prints in Chromium. */
async function startLogin(profile: string): Promise<{ page: Page; done: ReturnType<typeof startCli>['done'] }> {
  const cli = startCli(['oauth', 'login', '-p', profile, '--no-browser'], { cwd: ws.dir, env: ws.env });
  const [, url = ''] = await cli.waitForStderr(/^\s+(http\S+)$/m);
  const page = await context.newPage();
  await page.goto(url);
  return { page, done: cli.done };
}

async function signIn(page: Page, login: string): Promise<void> {
  await page.fill('input[name="login"]', login);
  await page.fill('input[name="password"]', 'any-password');
  await page.click('button[type="submit"]');
  await page.waitForSelector('input[name="prompt"][value="consent"]', { state: 'attached' });
}

describe('oauth login through headless Chromium', () => {
  test('public client (PKCE): sign in, consent, back on the callback page; {{token}} then works', async () => {
    const { page, done } = await startLogin('public');
    await signIn(page, 'dana');
    await page.click('button:has-text("Continue")');
    await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
    expect(await page.textContent('body')).toContain('You can close this tab.');
    const result = await done;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Logged in to profile "public" (authorization_code)');
    const api = await ws.run(['run', 'api.http', '-p', 'public', '-o', 'json']);
    expect(JSON.parse(api.stdout)).toMatchObject({ status: 200, body: { sub: 'dana', clientId: 'reqflow-public' } });
  });

  test('confidential client on http://localhost:PORT (Chromium may pick ::1 or 127.0.0.1)', async () => {
    const { page, done } = await startLogin('confidential');
    await signIn(page, 'erin');
    await page.click('button:has-text("Continue")');
    await page.waitForURL(/^http:\/\/localhost:\d+\/callback\?/);
    expect(await page.textContent('h1')).toBe('Logged in');
    expect((await done).code).toBe(0);
    const api = await ws.run(['run', 'api.http', '-p', 'confidential', '-o', 'json']);
    expect(JSON.parse(api.stdout).body).toMatchObject({ sub: 'erin', clientId: 'reqflow-confidential' });
  });

  test('Cancel on the consent page: access denied, exit 6, nothing stored', async () => {
    const { page, done } = await startLogin('public');
    await signIn(page, 'frank');
    await page.click('a:has-text("Cancel")');
    await page.waitForURL(/\/callback\?/);
    expect(await page.textContent('h1')).toBe('Login failed');
    const result = await done;
    expect(result.code).toBe(6);
    expect(result.stderr).toContain('reqflow: access denied: access_denied (End-User aborted interaction)');
    expect(existsSync(ws.sessionPath('public'))).toBe(false);
  });
});
