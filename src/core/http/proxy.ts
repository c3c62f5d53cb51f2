/**
 * Which proxy a request goes through, by the rules curl, Go and Python requests share:
 * `--proxy URL` (or `-x`), else the environment — `https_proxy` for https URLs, `http_proxy` for
 * http, `all_proxy` for both (lower case first, then upper case) — except for the hosts
 * `--noproxy LIST` (else `no_proxy`/`NO_PROXY`) names: `*`, a domain and its subdomains
 * (`example.com`, `.example.com`, `*.example.com`), `host:port`, an IP or a CIDR range
 * (`10.0.0.0/8`, `fd00::/8`). A rule and a URL's host are compared as the URL parser writes
 * hosts — a trailing dot, letters' case, an IDN or an IP address's spelling (`0:0::1`, `127.1`)
 * make no difference — so that no request the list exempts goes through the proxy. Proxies may
 * be `http://`, `https://`, `socks5://` or `socks5h://` (the proxy resolves the name), with
 * `user:password@` (masked wherever shown).
 */
import type { BlockList } from 'node:net';
import { UsageError } from '../errors/index.js';
import { lazyBuiltin } from '../lazy-builtin.js';
import { PROXY_VARIABLES, proxyVariable } from './proxy-env.js';

const SCHEMES = new Set(['http:', 'https:', 'socks5:', 'socks5h:', 'socks4:', 'socks4a:', 'socks:']);

export interface ProxySettings {
  /** `--proxy URL`: every request goes through it (except `--noproxy` hosts); `''` turns proxies off. */
  proxy?: string;
  /** `--noproxy LIST`, in place of `no_proxy`. */
  noProxy?: string;
  /** Where `proxy` was written, for errors (`--proxy`, or the profile's field). */
  proxyFrom?: string;
  /** Where `noProxy` was written, for errors (`--noproxy`, or the profile's field). */
  noProxyFrom?: string;
  env: NodeJS.ProcessEnv;
}

interface NoProxyRule {
  /** A name as the URL parser writes it (lower case, punycode), or an IP address in its canonical form. */
  host: string;
  port?: string;
}

type Net = typeof import('node:net');

/**
 * A host as the URL parser writes it — lower case, punycode, an IPv4 address in its dotted
 * form, IPv6 compressed (brackets left off) — with no trailing dot: how URLs' hosts and the
 * rules are compared. A rule no URL could have as its host (`<local>`) stays as written.
 */
function canonicalHost(host: string, net: Net): string {
  if (net.isIPv6(host)) host = `[${host}]`;
  let canonical = host.toLowerCase();
  // Only a host: what would end one in a URL (`a?b`, `u@a`) keeps the rule as written.
  if (!/[@?#\\]/.test(host)) {
    try {
      canonical = new URL(`http://${host}`).hostname;
    } catch {
      // not a host a URL can have
    }
  }
  return canonical.replace(/^\[(.*)\]$/, '$1').replace(/(.)\.$/, '$1');
}

function parseProxy(text: string, where: string): URL {
  let url: URL;
  try {
    // `proxy:3128` without a scheme means http, as curl reads it.
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`);
  } catch {
    // Unparsed, so the credentials are everything before the last `@` (a password may hold `/`, a scheme may be left out).
    throw new UsageError(`${where}: not a proxy URL: "${text.replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^]*@/i, '$1•••@')}"`, { hint: 'for example http://proxy.example:3128 or socks5h://127.0.0.1:1080' });
  }
  if (!SCHEMES.has(url.protocol)) throw new UsageError(`${where}: unsupported proxy scheme "${url.protocol.replace(/:$/, '')}"`, { hint: 'proxies are http://, https://, socks5:// or socks5h://' });
  return url;
}

export class ProxyRules {
  private readonly explicit?: URL | null;
  private readonly byScheme: { http?: URL; https?: URL; all?: URL } = {};
  private readonly everything: boolean = false;
  private readonly hosts: NoProxyRule[] = [];
  private readonly ranges?: BlockList;

  constructor(settings: ProxySettings) {
    if (settings.proxy !== undefined) this.explicit = settings.proxy === '' ? null : parseProxy(settings.proxy, settings.proxyFrom ?? '--proxy');
    else {
      for (const [key, name] of PROXY_VARIABLES) {
        const value = proxyVariable(settings.env, name);
        if (value) this.byScheme[key] = parseProxy(value, name);
      }
    }
    const list = settings.noProxy ?? proxyVariable(settings.env, 'no_proxy') ?? '';
    const noProxyFrom = settings.noProxy !== undefined ? (settings.noProxyFrom ?? '--noproxy') : settings.env.no_proxy ? 'no_proxy' : 'NO_PROXY';
    const net = lazyBuiltin<Net>('node:net');
    for (const raw of list.split(/[\s,]+/).filter(Boolean)) {
      if (raw === '*') this.everything = true;
      else if (raw.includes('/')) {
        const [address = '', bits = ''] = raw.split('/');
        const family = net.isIPv6(address) ? 'ipv6' : net.isIPv4(address) ? 'ipv4' : undefined;
        if (!family) continue; // no address (`localhost/8`, a URL): nothing it could exempt, as curl reads it
        // A range that is none (`10.0.0.0/33`) exempts nothing the writer meant to: refused, not read as another.
        if (!/^\d{1,3}$/.test(bits) || Number(bits) > (family === 'ipv4' ? 32 : 128)) throw new UsageError(`${noProxyFrom}: "${raw}" is not an IP range`, { hint: `an address and the bits of its prefix, 0–${family === 'ipv4' ? 32 : 128}: 10.0.0.0/8, fd00::/8` });
        this.ranges ??= new net.BlockList();
        this.ranges.addSubnet(address, Number(bits), family);
      } else {
        const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(raw);
        const match = bracketed ?? /^([^:]+)(?::(\d+))?$/.exec(raw) ?? [raw, raw];
        const host = canonicalHost((match[1] ?? raw).replace(/^\*?\./, ''), net);
        if (host !== '') this.hosts.push({ host, ...(match[2] ? { port: match[2] } : {}) });
      }
    }
  }

  /** The credentials in the proxies' URLs — a password, or a user name written alone (a token) — masked in all output. */
  credentials(): string[] {
    return [this.explicit, this.byScheme.http, this.byScheme.https, this.byScheme.all].flatMap((url) => {
      const secret = url?.password || url?.username;
      return secret ? [decodeURIComponent(secret), secret] : [];
    });
  }

  /** The proxy for `url`, or undefined to go direct. */
  forUrl(url: URL): URL | undefined {
    const proxy = this.explicit === undefined ? (url.protocol === 'https:' ? this.byScheme.https : this.byScheme.http) ?? this.byScheme.all : this.explicit ?? undefined;
    if (!proxy || this.bypasses(url)) return undefined;
    return proxy;
  }

  private bypasses(url: URL): boolean {
    if (this.everything) return true;
    // The URL parser wrote the host already: its brackets and a trailing dot (`localhost.`) are all that is left to take off.
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/(.)\.$/, '$1');
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    // A name's subdomains match its rule; an IP address only its own (`0.0.1` is no suffix of 127.0.0.1), as curl reads it.
    const named = this.hosts.length > 0 && lazyBuiltin<Net>('node:net').isIP(host) === 0;
    for (const rule of this.hosts) {
      if (rule.port !== undefined && rule.port !== port) continue;
      if (host === rule.host || (named && host.endsWith(`.${rule.host}`))) return true;
    }
    if (this.ranges) {
      const net = lazyBuiltin<Net>('node:net');
      const family = net.isIPv6(host) ? 'ipv6' : net.isIPv4(host) ? 'ipv4' : undefined;
      if (family && this.ranges.check(host, family)) return true;
    }
    return false;
  }
}

/** The run's proxy rules from its options and environment; proxy credentials become secrets. */
export function proxyRules(
  options: { proxy?: string; noProxy?: string },
  env: NodeJS.ProcessEnv,
  secrets: { add(value: string | undefined): void },
  profile?: { name: string; proxy?: string; noProxy?: string },
): ProxyRules {
  // The command line, else the profile, else the environment.
  const proxy = options.proxy ?? profile?.proxy;
  const noProxy = options.noProxy ?? profile?.noProxy;
  const proxyFrom = options.proxy === undefined && profile?.proxy !== undefined ? `profile "${profile.name}": proxy` : '--proxy';
  const noProxyFrom = options.noProxy === undefined && profile?.noProxy !== undefined ? `profile "${profile.name}": noProxy` : '--noproxy';
  const rules = new ProxyRules({ ...(proxy !== undefined ? { proxy, proxyFrom } : {}), ...(noProxy !== undefined ? { noProxy, noProxyFrom } : {}), env });
  for (const credential of rules.credentials()) secrets.add(credential);
  return rules;
}
