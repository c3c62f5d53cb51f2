import { Command, Flags } from '@oclif/core';
import { DEFAULT_PROXY_PORT, DEFAULT_PROXY_TIMEOUT_MS, DEFAULT_TUNNEL_IDLE_MS, proxyCommand, type ProxyFlags } from '../debug-proxy/run-proxy.js';

export default class Proxy extends Command {
  static override summary = 'A local debug proxy: forwards HTTP, tunnels https, prints and records each exchange.';
  static override description =
    'Point an app at it (HTTP_PROXY, curl -x) to see what it sends: each request is forwarded (hop-by-hop headers dropped, Via added), printed as one line, and recorded in the history of the current project and profile with its secrets masked (reqflow history, history show). https goes through as CONNECT tunnels, shown but never decrypted. --save DIR writes each request as a runnable .http file, credentials as {{variables}}. Listens on 127.0.0.1 unless --host says otherwise; Ctrl-C stops. Details: docs/proxy.md.';
  static override examples = [
    { description: 'Start it, then send through it', command: '<%= config.bin %> proxy\nHTTP_PROXY=http://127.0.0.1:8888 your-app' },
    { description: 'On a free port, saving every request as a .http file', command: '<%= config.bin %> proxy --port 0 --save captured/' },
  ];
  static override flags = {
    port: Flags.integer({ helpValue: 'PORT', min: 0, max: 65535, description: `Listen on this port (default ${DEFAULT_PROXY_PORT}; 0: a free one, printed at start).` }),
    host: Flags.string({ helpValue: 'HOST', description: 'Listen on this address (default 127.0.0.1; anything else lets other machines use it: a warning says so).' }),
    save: Flags.string({ helpValue: 'DIR', description: 'Write each captured request to DIR as a runnable .http file (numbered, never overwriting; credentials as {{variables}}).' }),
    profile: Flags.string({ char: 'p', helpValue: 'NAME', description: 'Record into this profile\'s history (default: $REQFLOW_PROFILE, else "default").' }),
    profiles: Flags.string({ helpValue: 'PATH', description: 'The profiles file (default: found from the current folder), which also fixes the project.' }),
    history: Flags.boolean({ default: true, allowNo: true, description: 'Record the exchanges in the history (--no-history: only print them).' }),
    timeout: Flags.integer({ helpValue: 'MS', min: 1, max: 2 ** 31 - 1, description: `Give up on a server silent this long — connecting, before its answer or within its body — and answer 502 (default ${DEFAULT_PROXY_TIMEOUT_MS}); a CONNECT whose server does not accept within it gets 502 too.` }),
    'tunnel-idle': Flags.integer({ helpValue: 'MS', min: 1, max: 2 ** 31 - 1, description: `Close a CONNECT tunnel through which nothing has passed either way for this long (default ${DEFAULT_TUNNEL_IDLE_MS}: ten minutes).` }),
    debug: Flags.boolean({ description: 'Print stack traces with errors.' }),
  };
  static override strict = true;

  async run(): Promise<void> {
    const { flags } = await this.parse(Proxy);
    process.exitCode = await proxyCommand(flags as ProxyFlags, { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env });
  }
}
