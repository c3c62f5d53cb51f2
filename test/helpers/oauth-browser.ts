/**
 * A tiny browser for the OAuth tests: plain HTTP with a cookie jar that follows redirects and
 * fills oidc-provider's pages the way a user would (device code, login, consent), until it lands
 * on a page outside the provider — the CLI's callback — or on the provider's final page.
 */

export interface BrowseOptions {
  /** Any login is accepted by oidc-provider's dev interactions. */
  login?: string;
  /** Press Cancel / Abort instead of approving (the provider answers access_denied). */
  deny?: boolean;
  /** For a device verification page without the code in the URL. */
  userCode?: string;
  /** Safety bound on page loads. */
  maxSteps?: number;
}

export interface BrowseResult {
  /** The last URL loaded (the callback, for the authorization code flow). */
  url: string;
  status: number;
  body: string;
  /** Every URL loaded, in order (for assertions and failure messages). */
  visited: string[];
}

interface Cookie {
  name: string;
  value: string;
  path: string;
}

class CookieJar {
  private readonly cookies: Cookie[] = [];

  store(setCookies: string[]): void {
    for (const header of setCookies) {
      const [pair = '', ...attributes] = header.split(';');
      const eq = pair.indexOf('=');
      if (eq < 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const pathAttr = attributes.map((a) => a.trim()).find((a) => a.toLowerCase().startsWith('path='));
      const path = pathAttr ? pathAttr.slice(5) : '/';
      const expired = attributes.some((a) => /^\s*expires=thu, 01 jan 1970/i.test(a)) || attributes.some((a) => /^\s*max-age=0\b/i.test(a));
      const index = this.cookies.findIndex((c) => c.name === name && c.path === path);
      if (index >= 0) this.cookies.splice(index, 1);
      if (!expired && value !== '') this.cookies.push({ name, value, path });
    }
  }

  header(url: URL): string {
    return this.cookies
      .filter((c) => url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`) || c.path === '/')
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }
}

interface Form {
  id?: string;
  action: string;
  fields: Record<string, string>;
}

const decode = (text: string): string => text.replace(/&amp;/g, '&').replace(/&#x2F;/g, '/').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag);
  return match ? decode(match[1] ?? '') : undefined;
}

function parseForms(html: string): Form[] {
  const forms: Form[] = [];
  for (const match of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const open = match[1] ?? '';
    const fields: Record<string, string> = {};
    for (const input of (match[2] ?? '').matchAll(/<input\b([\s\S]*?)>/gi)) {
      const name = attribute(input[0], 'name');
      if (name) fields[name] = attribute(input[0], 'value') ?? '';
    }
    const id = attribute(` ${open}`, 'id');
    forms.push({ ...(id ? { id } : {}), action: attribute(` ${open}`, 'action') ?? '', fields });
  }
  return forms;
}

/**
 * Loads `startUrl` and acts on each page until the browser leaves the provider's origin (the
 * OAuth callback) or reaches a page with nothing left to submit.
 */
export async function browse(startUrl: string, options: BrowseOptions = {}): Promise<BrowseResult> {
  const jar = new CookieJar();
  const providerOrigin = new URL(startUrl).origin;
  const visited: string[] = [];
  let method = 'GET';
  let url = new URL(startUrl);
  let body: URLSearchParams | undefined;
  const maxSteps = options.maxSteps ?? 25;
  for (let step = 0; step < maxSteps; step++) {
    visited.push(`${method} ${url.href}`);
    const cookie = jar.header(url);
    const response = await fetch(url, {
      method,
      redirect: 'manual',
      headers: { ...(cookie ? { cookie } : {}), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      ...(body ? { body: body.toString() } : {}),
    });
    jar.store(response.headers.getSetCookie());
    const text = await response.text();
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      url = new URL(location, url);
      method = 'GET';
      body = undefined;
      continue;
    }
    const done = { url: url.href, status: response.status, body: text, visited };
    if (url.origin !== providerOrigin || response.status !== 200) return done;
    if (process.env.BROWSE_DEBUG) console.log(`${method} ${url.href} -> ${response.status}\n${text.replace(/<style>[\s\S]*?<\/style>/, '').slice(0, 1500)}`);
    const next = nextAction(text, url, options);
    if (!next) return done;
    ({ method, url, body } = next);
  }
  throw new Error(`browser gave up after ${maxSteps} pages:\n${visited.join('\n')}`);
}

/** What a user does on each of oidc-provider's pages. */
function nextAction(html: string, page: URL, options: BrowseOptions): { method: string; url: URL; body?: URLSearchParams } | undefined {
  const forms = parseForms(html);
  const post = (form: Form, extra: Record<string, string> = {}) => ({ method: 'POST', url: new URL(form.action, page), body: new URLSearchParams({ ...form.fields, ...extra }) });
  const abortLink = /<a href="([^"]*\/abort)"/.exec(html)?.[1];

  const deviceInput = forms.find((f) => f.id === 'op.deviceInputForm');
  // The input form again, with a red message ("interrupted", "incorrect"): a user stops here.
  if (deviceInput && html.includes('class="red"')) return undefined;
  if (deviceInput) return post(deviceInput, deviceInput.fields.user_code ? {} : { user_code: options.userCode ?? '' });
  const deviceConfirm = forms.find((f) => f.id === 'op.deviceConfirmForm');
  if (deviceConfirm) return post(deviceConfirm, options.deny ? { abort: 'yes' } : {});

  // A page that submits itself with JavaScript (the device flow's "Submitting Callback").
  if (forms.length === 1 && /forms\[0\]\.submit\(\)/.test(html)) return post(forms[0] as Form);

  const interaction = forms.find((f) => f.fields.prompt === 'login' || f.fields.prompt === 'consent');
  if (!interaction) return undefined;
  if (options.deny && abortLink) return { method: 'GET', url: new URL(decode(abortLink), page) };
  if (interaction.fields.prompt === 'login') return post(interaction, { login: options.login ?? 'alice', password: 'any-password' });
  return post(interaction);
}
