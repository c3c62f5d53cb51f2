/**
 * The cookie jar of a profile (RFC 6265, tough-cookie): a login's `Set-Cookie` is sent back on
 * the later requests to that site, as JetBrains and httpyac do, and kept across runs in the
 * profile's session file (0600). tough-cookie is loaded only once a response sets a cookie or
 * the session holds one that may apply: a run without cookies never loads it; from the build's
 * bundle (dist/bundle/tough-cookie.cjs) it is one CommonJS file.
 */
import type { Cookie, CookieJar } from 'tough-cookie';
import { requireBundled } from '../bundled-dependency.js';
import type { Session } from '../model.js';

/** Where the jar is kept in the session. */
const SESSION_KEY = 'cookies';

/**
 * What a jar keeps, as browsers bound theirs (RFC 6265bis §5.7: a cookie whose name and value
 * pass 4,096 bytes is ignored; Chromium keeps 180 a domain and 3,300 in all, evicting the least
 * recently used). Without them a server that sets new cookies on every response grows the
 * session file, and the `Cookie` header of every later request to it, without end.
 */
export const COOKIE_LIMITS = { bytes: 4096, perDomain: 180, total: 3000 };

/**
 * The furthest ahead a cookie may expire, from when it was set: 400 days, as RFC 6265bis, browsers
 * and curl cap `Max-Age` and `Expires`. Unbounded, `Max-Age=999999999999999999999` is an expiry no
 * `Date` can hold, and every listing of the jar threw.
 */
export const MAX_COOKIE_AGE_MS = 400 * 24 * 60 * 60 * 1000;

/** What the HTTP core asks of a jar (see `OutgoingRequest.cookies`). */
export interface CookieStore {
  /** The `Cookie` header for a request to `url`, or undefined when no cookie applies. */
  header(url: string): Promise<string | undefined>;
  /** Keeps the `Set-Cookie` headers of a response from `url` (invalid ones are ignored, as browsers do). */
  store(url: string, setCookie: readonly string[]): Promise<void>;
}

export interface CookieInfo {
  domain: string;
  path: string;
  name: string;
  /** ISO 8601, or `session` for a cookie without expiry. */
  expires: string;
  secure: boolean;
  httpOnly: boolean;
}

/**
 * Could a saved cookie apply to `url`? Read from the saved jar's domains without tough-cookie:
 * a superset of RFC 6265 §5.1.3's domain match (a host-only cookie counts for its subdomains
 * too), so that a `false` is sure and a `true` is left to the jar itself.
 */
export function mayApply(saved: unknown, url: string): boolean {
  if (saved === undefined) return false;
  const cookies = (saved as { cookies?: unknown } | null)?.cookies;
  if (!Array.isArray(cookies)) return true; // a shape of another version: the jar decides
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return true;
  }
  return cookies.some((cookie: { domain?: unknown }) => {
    if (typeof cookie?.domain !== 'string') return true;
    const domain = cookie.domain.replace(/^\./, '').toLowerCase();
    return host === domain || host.endsWith(`.${domain}`);
  });
}

/** The values of a saved jar, read from its JSON. */
function savedValues(saved: unknown): string[] {
  const cookies = (saved as { cookies?: unknown } | null | undefined)?.cookies;
  return Array.isArray(cookies) ? cookies.flatMap((cookie: { value?: unknown }) => (typeof cookie?.value === 'string' && cookie.value !== '' ? [cookie.value] : [])) : [];
}

type SavedCookie = Record<string, unknown>;

/** The cookies of a saved jar (tough-cookie's JSON), whatever else the entry holds. */
const savedCookies = (jar: unknown): SavedCookie[] => {
  const cookies = typeof jar === 'object' && jar !== null ? (jar as { cookies?: unknown }).cookies : undefined;
  return Array.isArray(cookies) ? cookies.filter((cookie): cookie is SavedCookie => typeof cookie === 'object' && cookie !== null) : [];
};

/** A saved date tough-cookie can read back: an ISO date, or `Infinity` (a session cookie's expiry). */
const validDate = (value: unknown): boolean => value === undefined || value === null || value === 'Infinity' || (typeof value === 'string' && Number.isFinite(Date.parse(value)));

/**
 * The saved jar without the cookies whose dates are none (`"expires": "notadate"`): tough-cookie
 * reads them, then throws on every later use — every command that loads cookies, `cookies clear`
 * included, would fail for good.
 */
function withValidDates(saved: unknown, dropped: (count: number) => void): unknown {
  const cookies = savedCookies(saved);
  const valid = cookies.filter((cookie) => validDate(cookie.expires) && validDate(cookie.creation) && validDate(cookie.lastAccessed));
  if (valid.length === cookies.length) return saved;
  dropped(cookies.length - valid.length);
  return { ...(saved as object), cookies: valid };
}
const cookieId = (cookie: SavedCookie): string => `${String(cookie.domain)}\t${String(cookie.path)}\t${String(cookie.key)}`;
/** What a cookie is, its last use aside (sending a cookie is no change to it). */
const cookieContent = (cookie: SavedCookie): string => JSON.stringify({ ...cookie, lastAccessed: undefined });

/**
 * Two runs' cookie jars merged cookie by cookie (domain, path, name), three-way (the session's
 * `DataMerge`): a cookie this run set, changed or removed is as this run left it; any other is
 * as the other run saved it. Whole jars would lose one run's login to the other's.
 */
function mergeCookieJars(before: unknown, mine: unknown, theirs: unknown): unknown {
  const base = new Map(savedCookies(before).map((cookie) => [cookieId(cookie), cookieContent(cookie)]));
  const own = new Map(savedCookies(mine).map((cookie) => [cookieId(cookie), cookie]));
  const merged = new Map(savedCookies(theirs).map((cookie) => [cookieId(cookie), cookie]));
  for (const id of base.keys()) if (!own.has(id)) merged.delete(id);
  for (const [id, cookie] of own) if (base.get(id) !== cookieContent(cookie)) merged.set(id, cookie);
  if (merged.size === 0 && mine === undefined) return undefined;
  const shell = typeof mine === 'object' && mine !== null ? mine : typeof theirs === 'object' && theirs !== null ? theirs : {};
  return { ...shell, cookies: [...merged.values()] };
}

/** `name=value` of a `Set-Cookie` header: what the size limit counts (the attributes do not). */
function cookiePair(header: string): string {
  const end = header.indexOf(';');
  return end < 0 ? header : header.slice(0, end);
}

/** When a cookie was last sent or set (its creation before either), for eviction: least recent first. */
function lastUsed(cookie: { lastAccessed: Date | 'Infinity' | null; creation: Date | 'Infinity' | null }): number {
  const at = cookie.lastAccessed instanceof Date ? cookie.lastAccessed : cookie.creation;
  return at instanceof Date ? at.getTime() : 0;
}

/**
 * The cookie with its expiry as a date at most {@link MAX_COOKIE_AGE_MS} after `setAt`, `Max-Age`
 * made absolute (RFC 6265 §5.2.2: set time plus its seconds; tough-cookie counts it from the
 * cookie's last use, so a cookie sent often never expired). One already so, or a session cookie, is returned as is.
 */
function withCappedExpiry(cookie: Cookie, setAt: Date): Cookie {
  const expiry = cookie.expiryTime(setAt);
  const latest = setAt.getTime() + MAX_COOKIE_AGE_MS;
  if (expiry === undefined || expiry === Infinity || (cookie.maxAge === null && expiry <= latest)) return cookie;
  const capped = cookie.clone() ?? cookie;
  capped.maxAge = null;
  capped.expires = new Date(Math.max(0, Math.min(expiry, latest))); // Max-Age=0 is -Infinity: 1970, expired
  return capped;
}

/**
 * A saved jar's cookies with their expiry capped as a new one's is: an older version kept
 * `Max-Age` as it came (`1e21`), which no listing could print. Each counts from its last use,
 * as tough-cookie read it then.
 */
async function capSavedExpiries(jar: CookieJar): Promise<void> {
  for (const cookie of await jar.store.getAllCookies()) {
    const capped = withCappedExpiry(cookie, cookie.lastAccessed instanceof Date ? cookie.lastAccessed : new Date());
    if (capped !== cookie) await jar.store.putCookie(capped);
  }
}

/**
 * Cookies a server expired (`Max-Age=0`, an `Expires` in the past: RFC 6265's way to delete one)
 * are removed, not kept: tough-cookie keeps them and only leaves them out when it is asked for them.
 */
async function dropExpired(jar: CookieJar): Promise<void> {
  const now = Date.now();
  for (const cookie of await jar.store.getAllCookies()) if ((cookie.expiryTime() ?? Infinity) <= now) await jar.store.removeCookie(cookie.domain ?? '', cookie.path ?? '/', cookie.key);
}

/** Removes the least recently used cookies of a domain past its limit, then of the jar past the total. */
async function evictBeyondLimits(jar: CookieJar): Promise<void> {
  const all = await jar.store.getAllCookies();
  if (all.length <= COOKIE_LIMITS.perDomain) return; // nothing can be over either limit
  all.sort((a, b) => lastUsed(a) - lastUsed(b));
  const perDomain = new Map<string, number>();
  for (const cookie of all) perDomain.set(cookie.domain ?? '', (perDomain.get(cookie.domain ?? '') ?? 0) + 1);
  let kept = all.length;
  for (const cookie of all) {
    const domain = cookie.domain ?? '';
    const count = perDomain.get(domain) ?? 0;
    if (count <= COOKIE_LIMITS.perDomain && kept <= COOKIE_LIMITS.total) continue;
    await jar.store.removeCookie(domain, cookie.path ?? '/', cookie.key);
    perDomain.set(domain, count - 1);
    kept--;
  }
}

/**
 * A `__Secure-` or `__Host-` cookie that breaks its prefix's rules, its name in any case: RFC
 * 6265bis (§4.1.3) matches the prefixes case-insensitively, as browsers and curl do; tough-cookie
 * checks the exact case only. `__Secure-` needs `Secure`; `__Host-` needs `Secure`, no `Domain`
 * and `Path=/`.
 */
function breaksPrefix(cookie: { key: string; secure: boolean; domain: string | null; path: string | null }): boolean {
  const name = cookie.key.toLowerCase();
  if (name.startsWith('__secure-')) return !cookie.secure;
  if (name.startsWith('__host-')) return !cookie.secure || cookie.domain !== null || cookie.path !== '/';
  return false;
}

export class SessionCookieJar implements CookieStore {
  private jar?: Promise<CookieJar>;
  /** The saved values were handed to `onValue` without loading the jar. */
  private registered = false;

  /** @param onValue told of every cookie value (they are secrets: masked in all output). */
  constructor(
    private readonly session: Session,
    private readonly onValue: (value: string) => void = () => undefined,
    private readonly warn: (message: string) => void = () => undefined,
  ) {}

  private load(): Promise<CookieJar> {
    this.jar ??= (async () => {
      const { CookieJar } = requireBundled<typeof import('tough-cookie')>('tough-cookie', 'tough-cookie');
      const saved = this.session.getData(SESSION_KEY);
      let jar = new CookieJar();
      if (saved !== undefined) {
        try {
          jar = await CookieJar.deserialize(withValidDates(saved, (count) => this.warn(`${count} ${count === 1 ? 'cookie' : 'cookies'} saved for profile "${this.session.profile}" had a date that is none (an edited or damaged session file): left out`)) as never);
        } catch {
          this.warn(`the cookies saved for profile "${this.session.profile}" could not be read; starting with none`);
        }
        await capSavedExpiries(jar);
      }
      for (const cookie of (jar.serializeSync()?.cookies ?? []) as Array<{ value?: string }>) if (cookie.value) this.onValue(cookie.value);
      return jar;
    })();
    return this.jar;
  }

  async header(url: string): Promise<string | undefined> {
    // Loading tough-cookie costs ~15 ms: not for a request no saved cookie can apply to. The
    // saved values are secrets all the same (a server may repeat one it set under another name).
    const saved = this.session.getData(SESSION_KEY);
    if (this.jar === undefined && !mayApply(saved, url)) {
      if (!this.registered) for (const value of savedValues(saved)) this.onValue(value);
      this.registered = true;
      return undefined;
    }
    const cookies = await (await this.load()).getCookieString(url);
    return cookies === '' ? undefined : cookies;
  }

  async store(url: string, setCookie: readonly string[]): Promise<void> {
    const jar = await this.load();
    const { Cookie } = requireBundled<typeof import('tough-cookie')>('tough-cookie', 'tough-cookie');
    for (const header of setCookie) {
      if (Buffer.byteLength(cookiePair(header)) > COOKIE_LIMITS.bytes) continue; // ignored, as browsers do
      const parsed = Cookie.parse(header);
      if (!parsed || breaksPrefix(parsed)) continue; // ignored, as browsers and curl do
      const cookie = await jar.setCookie(withCappedExpiry(parsed, new Date()), url, { ignoreError: true });
      if (cookie) this.onValue(cookie.value);
    }
    await dropExpired(jar); // before the limits: a deleted cookie must not push out a live one
    await evictBeyondLimits(jar);
    this.session.setData(SESSION_KEY, jar.serializeSync(), mergeCookieJars);
  }

  /** Every cookie kept (values left out), for `reqflow cookies list`. */
  async list(): Promise<CookieInfo[]> {
    if (this.session.getData(SESSION_KEY) === undefined) return [];
    const cookies = (await (await this.load()).store.getAllCookies()).filter((cookie) => (cookie.expiryTime() ?? Infinity) > Date.now());
    return cookies.map((cookie) => {
      const expiry = cookie.expiryTime();
      return {
        domain: cookie.domain ?? '',
        path: cookie.path ?? '/',
        name: cookie.key,
        expires: expiry === undefined || !Number.isFinite(expiry) ? 'session' : new Date(expiry).toISOString(),
        secure: cookie.secure,
        httpOnly: cookie.httpOnly,
      };
    });
  }

  /** Forgets the cookies (of one domain, or all); returns how many. */
  async clear(domain?: string): Promise<number> {
    const before = await this.list();
    const gone = domain === undefined ? before : before.filter((cookie) => cookie.domain === domain || cookie.domain.endsWith(`.${domain}`));
    if (domain === undefined) this.session.setData(SESSION_KEY, undefined, mergeCookieJars);
    else {
      const jar = await this.load();
      for (const cookie of gone) await jar.store.removeCookie(cookie.domain, cookie.path, cookie.name);
      this.session.setData(SESSION_KEY, jar.serializeSync(), mergeCookieJars);
    }
    this.jar = undefined;
    return gone.length;
  }
}
