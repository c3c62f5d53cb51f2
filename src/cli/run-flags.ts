/**
 * The flags of `reqflow run`, declared once as data: the oclif command builds its flags (and so
 * its `--help`) from this table, and the fast start-up path parses argv with the same table.
 */
import { DEFAULT_MAX_SIZE } from '../core/read-body.js';

export interface FlagSpec {
  type: 'string' | 'boolean';
  char?: string;
  multiple?: boolean;
  description: string;
  helpValue?: string;
  options?: readonly string[];
  default?: string | boolean;
  /** Booleans that also accept `--no-NAME`. */
  allowNo?: boolean;
}

export const RUN_FLAGS = {
  variable: { type: 'string', char: 'e', multiple: true, helpValue: 'NAME=VALUE', description: 'Set a variable (wins over session and profile values). Repeatable.' },
  profile: { type: 'string', char: 'p', helpValue: 'NAME', description: 'Profile to use (default: $REQFLOW_PROFILE, else "default", else the first).' },
  profiles: { type: 'string', helpValue: 'PATH', description: 'Profiles file (default: .profiles.json in the request file\'s folder or its parents, else the current folder).' },
  env: { type: 'string', helpValue: 'NAME', description: 'Environment of the .http tools: http-client.env.json (+ private), .vscode/settings.json, NAME.env (default: $REQFLOW_ENV).' },
  name: { type: 'string', char: 'n', multiple: true, helpValue: 'NAME', description: 'Run only the request with this name. Repeatable.' },
  output: { type: 'string', char: 'o', options: ['pretty', 'json', 'raw'], default: 'pretty', description: 'pretty: status line and formatted body; json: one JSON object per request; raw: body bytes unchanged.' },
  verbose: { type: 'boolean', char: 'v', description: 'Show request and response headers (secrets masked).' },
  filter: { type: 'string', helpValue: 'JMESPATH', description: 'JMESPath applied to JSON responses (wins over # @filter).' },
  timeout: { type: 'string', helpValue: 'MS', default: '30000', description: 'Time-out for connecting and for each silence while receiving, in milliseconds.' },
  'max-time': { type: 'string', helpValue: 'MS', description: 'Total time a request may take, body included (streams: see --stream-timeout). Default: no limit.' },
  extract: { type: 'boolean', allowNo: true, default: true, description: 'Store token/accessToken/access_token of 2xx JSON responses in the session as {{token}} (--no-extract turns it off).' },
  insecure: { type: 'boolean', char: 'k', description: 'Skip TLS certificate verification for every request (warned on stderr).' },
  proxy: { type: 'string', char: 'x', helpValue: 'URL', description: 'Send through this proxy (http://, https://, socks5://, socks5h://; user:password@ allowed) instead of $https_proxy/$http_proxy/$all_proxy; "" for none.' },
  noproxy: { type: 'string', helpValue: 'LIST', description: 'Hosts that go direct, in place of $no_proxy: domains (and their subdomains), host:port, IPs, CIDR ranges, or *.' },
  retry: { type: 'string', helpValue: 'N', description: 'Send again up to N times after a connection failure or a 429/503 (honouring Retry-After), with exponential back-off; idempotent methods only.' },
  'retry-all': { type: 'boolean', description: 'With --retry: POST, PATCH and other non-idempotent methods are retried too.' },
  follow: { type: 'boolean', char: 'L', description: 'Follow redirects (at most 10).' },
  'unix-socket': { type: 'string', helpValue: 'PATH', description: 'Connect to this Unix domain socket instead of the URL\'s host (the Docker API, local daemons); the URL still gives the path and the Host header.' },
  http2: { type: 'boolean', description: 'Use HTTP/2 where the server agrees (ALPN over TLS, prior knowledge for http://), else HTTP/1.1. A request line ending in HTTP/2 requires it.' },
  'max-size': { type: 'string', helpValue: 'BYTES', default: String(DEFAULT_MAX_SIZE), description: 'Largest body that may be held in memory (-o json, filters, text on a terminal); redirected -o raw needs none.' },
  'max-events': { type: 'string', helpValue: 'N', description: 'Streaming: stop after N events.' },
  'stream-timeout': { type: 'string', helpValue: 'MS', description: 'Streaming: stop after MS milliseconds.' },
  'fail-fast': { type: 'boolean', description: 'Stop at the first request that fails.' },
  cookies: { type: 'boolean', allowNo: true, default: true, description: 'Keep the cookies responses set and send them back, across runs in the profile\'s session (--no-cookies: no cookie jar).' },
  history: { type: 'boolean', allowNo: true, default: true, description: 'Keep each request and its response (secrets masked, bodies cut at 64 KiB) in the history of the project and profile: reqflow history (--no-history: not this run).' },
  session: { type: 'boolean', allowNo: true, default: true, description: '--no-session: the session is neither read nor written.' },
  save: { type: 'boolean', description: 'Keep the values of # @capture in the profile\'s session too (like {{token}}), for later runs.' },
  'script-timeout': { type: 'string', helpValue: 'MS', default: '5000', description: 'Time limit of each request-file script (> {% … %}, < {% … %}).' },
  trust: { type: 'boolean', description: 'Trust this run\'s project for this invocation only: resterm\'s # @auth command, require() in httpyac scripts and httpyac\'s JavaScript config run (reqflow trust keeps it).' },
  'dry-run': { type: 'boolean', description: 'Print each request as it would be sent (variables resolved, scripts run, auth applied, secrets masked) without sending it.' },
  as: { type: 'string', options: ['curl', 'http'], helpValue: 'curl|http', description: 'Print each request as a runnable curl command or a .http block instead of sending it (a --dry-run in that form).' },
  'show-secrets': { type: 'boolean', description: 'With --dry-run or --as: print tokens, passwords and keys as they are (else •••), so the printed request runs as is.' },
  format: { type: 'string', helpValue: 'http|yaml|json', description: 'Format of the request file, whatever its name says (default: from its extension; stdin and pipes: http).' },
  list: { type: 'boolean', description: 'List the requests of the file (name, method, URL) without sending them.' },
  color: { type: 'boolean', allowNo: true, description: 'Force colours on (--color) or off (--no-color); default: on a terminal only.' },
  force: { type: 'boolean', description: 'With -o raw: write a binary body to the terminal anyway (it is refused there otherwise).' },
  debug: { type: 'boolean', description: 'Show stack traces of errors.' },
} as const satisfies Record<string, FlagSpec>;


/** Parsed flag values, as both parsers produce them. */
export interface RawRunFlags {
  variable?: string[];
  profile?: string;
  profiles?: string;
  env?: string;
  name?: string[];
  output?: string;
  verbose?: boolean;
  filter?: string;
  timeout?: string;
  'max-time'?: string;
  extract?: boolean;
  insecure?: boolean;
  follow?: boolean;
  http2?: boolean;
  'unix-socket'?: string;
  proxy?: string;
  noproxy?: string;
  retry?: string;
  'retry-all'?: boolean;
  'max-size'?: string;
  'max-events'?: string;
  'stream-timeout'?: string;
  'fail-fast'?: boolean;
  cookies?: boolean;
  session?: boolean;
  history?: boolean;
  save?: boolean;
  'script-timeout'?: string;
  trust?: boolean;
  'dry-run'?: boolean;
  as?: string;
  'show-secrets'?: boolean;
  format?: string;
  list?: boolean;
  color?: boolean;
  force?: boolean;
  debug?: boolean;
}

export const RUN_EXAMPLES = [
  { description: 'Run every request of a file', command: '<%= config.bin %> run api.http' },
  { description: 'The same, without the command name', command: '<%= config.bin %> api.http' },
  { description: 'Pick a request and a profile, set a variable', command: '<%= config.bin %> run api.http -n login -p staging -e user=alice' },
  { description: 'Machine-readable output, one JSON object per request', command: '<%= config.bin %> run api.http -o json' },
  { description: 'Only a field of the JSON response, unquoted', command: '<%= config.bin %> run api.http --filter "data.users[0].name" -o raw' },
  { description: 'Show headers (secrets masked)', command: '<%= config.bin %> run api.http -v' },
  { description: 'The requests as curl commands, nothing sent', command: '<%= config.bin %> run api.http --as curl' },
  { description: 'Requests from stdin', command: 'printf \'GET https://example.com\\n\' | <%= config.bin %> run -' },
];
