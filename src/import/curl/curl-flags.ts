/**
 * curl's options, as its manual lists them: which take a value (so that the word after one is
 * never taken for a URL) and what each does to an import. `request` options are turned into
 * the request (`curl-request.ts`); the others never change what the server receives, except
 * `refused` ones, which do in a way a request file cannot say.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export type FlagEffect = 'request' | 'output' | 'connection' | 'refused';

interface FlagSpec {
  short?: string;
  value: boolean;
  effect: FlagEffect;
}

/** `name` or `name=`, with an optional `/x` short form: `=` marks an option that takes a value. */
function table(effect: FlagEffect, names: string): Record<string, FlagSpec> {
  const specs: Record<string, FlagSpec> = {};
  for (const word of names.trim().split(/\s+/)) {
    const [long = '', short] = word.split('/');
    const value = long.endsWith('=');
    specs[value ? long.slice(0, -1) : long] = { value, effect, ...(short ? { short } : {}) };
  }
  return specs;
}

export const CURL_FLAGS: Readonly<Record<string, FlagSpec>> = {
  ...table(
    'request',
    `request=/X url= header=/H data=/d data-ascii= data-binary= data-raw= data-urlencode= json= form=/F form-string=
     user=/u cookie=/b insecure/k cert=/E key= cacert= pass= cert-type= location/L location-trusted compressed get/G
     head/I user-agent=/A referer=/e max-time=/m connect-timeout= retry= upload-file=/T oauth2-bearer= range=/r
     url-query= basic digest http1.1 http2 http2-prior-knowledge globoff/g path-as-is proto-default=`,
  ),
  ...table(
    'refused',
    `ntlm ntlm-wb negotiate anyauth aws-sigv4= config=/K next/: unix-socket= abstract-unix-socket= resolve= connect-to=
     http3 http3-only http0.9 http1.0/0 time-cond=/z variable= expand-url= expand-data= request-target= netrc/n
     netrc-file= netrc-optional continue-at=/C delegation= sasl-authzid= sasl-ir krb= append/a quote=/Q crlf
     use-ascii/B telnet-option=/t mail-from= mail-rcpt= mail-auth= mail-rcpt-allowfails login-options= tr-encoding
     etag-compare= haproxy-protocol haproxy-clientip= ftp-port=/P ftp-method= ftp-pasv ftp-ssl-ccc ftp-create-dirs
     form-escape list-only/l help=/h version/V manual/M`,
  ),
  ...table(
    'connection',
    `proxy=/x proxy-user=/U noproxy= proxytunnel/p socks4= socks4a= socks5= socks5-hostname= preproxy= proxy-insecure
     proxy-cacert= proxy-capath= proxy-cert= proxy-key= proxy-pass= proxy-basic proxy-digest proxy-ntlm proxy-anyauth
     proxy-negotiate proxy-header= capath= cert-status ciphers= tls13-ciphers= tlsv1/1 tlsv1.0 tlsv1.1 tlsv1.2 tlsv1.3
     sslv2/2 sslv3/3 tls-max= ssl ssl-reqd ssl-no-revoke ssl-revoke-best-effort ssl-allow-beast ssl-auto-client-cert
     ca-native proxy-ca-native pinnedpubkey= crlfile= curves= engine= key-type= interface= local-port= dns-servers=
     dns-interface= dns-ipv4-addr= dns-ipv6-addr= ipv4/4 ipv6/6 max-redirs= post301 post302 post303 limit-rate=
     speed-limit=/Y speed-time=/y keepalive-time= no-keepalive tcp-nodelay tcp-fastopen cookie-jar=/c
     junk-session-cookies/j proto= proto-redir= retry-delay= retry-max-time= retry-all-errors retry-connrefused
     max-filesize= happy-eyeballs-timeout-ms= expect100-timeout= hsts= alt-svc= doh-url= doh-insecure no-sessionid
     no-alpn no-npn false-start random-file= egd-file= service-name= unrestricted-auth disallow-username-in-url
     ip-tos= vlan-priority= mptcp socks5-gssapi socks5-gssapi-service= socks5-gssapi-nec ignore-content-length`,
  ),
  ...table(
    'output',
    `silent/s show-error/S verbose/v include/i output=/o remote-name/O remote-name-all remote-header-name/J
     write-out=/w fail/f fail-with-body fail-early progress-bar/# no-progress-meter dump-header=/D trace= trace-ascii=
     trace-time trace-ids trace-config= stderr= no-buffer/N create-dirs create-file-mode= output-dir= styled-output
     buffer parallel/Z parallel-max= parallel-immediate disable/q no-clobber remove-on-error xattr etag-save= raw
     remote-time/R rate= show-headers skip-existing out-null`,
  ),
};

/** One option as written, in command-line order. */
export interface CurlOption {
  /** The long name (`header` for `-H`). */
  name: string;
  /** As written: `-H`, `--header`. */
  written: string;
  value?: string;
  /** `--no-compressed`: a boolean option turned off. */
  off?: true;
}

export interface CurlCommand {
  options: CurlOption[];
  urls: string[];
  /** Options curl's manual does not list, as written. */
  unknown: string[];
}

const SEPARATORS = new Set([';', '&&', '||', '&', '|']);

function parseConfig(): ParseArgsConfig['options'] {
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const [name, spec] of Object.entries(CURL_FLAGS)) options[name] = { type: spec.value ? 'string' : 'boolean', multiple: true, ...(spec.short ? { short: spec.short } : {}) };
  return options;
}

/**
 * Shell words to curl commands: several may follow each other (`curl a; curl b`, or one per
 * line), and what a pipe sends the output to (`| jq .`) is not part of the request. node's
 * `parseArgs` reads the options (`-XPOST`, `-sSL`, `-H 'a: b'`), in order.
 */
export function parseCurlCommands(words: readonly string[]): { commands: CurlCommand[]; dropped: string[] } {
  const { tokens } = parseArgs({ args: [...words], options: parseConfig(), strict: false, allowPositionals: true, tokens: true });
  const commands: CurlCommand[] = [];
  const dropped: string[] = [];
  let current: CurlCommand | undefined;
  let piped = false;
  for (const token of tokens) {
    if (token.kind === 'option-terminator') continue;
    if (token.kind === 'positional') {
      if (token.value === 'curl') {
        current = { options: [], urls: [], unknown: [] };
        commands.push(current);
        piped = false;
      } else if (SEPARATORS.has(token.value)) {
        piped = token.value === '|';
        if (!piped) current = undefined;
        else dropped.push(token.value);
      } else if (current === undefined || piped) {
        if (token.value !== '$' || current !== undefined) dropped.push(token.value);
      } else current.urls.push(token.value);
      continue;
    }
    if (current === undefined || piped) {
      dropped.push(token.rawName);
      continue;
    }
    const off = token.name.startsWith('no-') && CURL_FLAGS[token.name.slice(3)]?.value === false;
    const name = off ? token.name.slice(3) : token.name;
    if (CURL_FLAGS[name] === undefined) current.unknown.push(token.rawName);
    else current.options.push({ name, written: token.rawName, ...(token.value !== undefined ? { value: token.value } : {}), ...(off ? { off: true } : {}) });
  }
  return { commands, dropped };
}
