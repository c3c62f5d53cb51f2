import { Args, Command } from '@oclif/core';
import { collectThirdPartyPlugins, type HookRunner } from '../pipeline/third-party.js';
import { toOclifFlags } from '../cli/oclif-flags.js';
import { processIo, runSourceCommand } from '../cli/run-file.js';
import { SEND_EXAMPLES, SEND_FLAGS, type RawSendFlags } from '../cli/send-flags.js';
import { sendSource } from '../cli/send-request.js';

export default class Send extends Command {
  static override summary = 'Send one request written on the command line, as curl does, through the same pipeline as a request file.';
  static override description =
    'reqflow send [METHOD] URL: GET without a METHOD, POST when a body is given. It runs as a one-request file in the current folder would: the profile (-p), --env, auth, the session, cookies, proxies, every output mode, filters, --dry-run and --as curl work as with reqflow run, and {{variables}} are resolved in the URL, headers and body.';
  static override examples = SEND_EXAMPLES;
  static override args = {
    method: Args.string({ description: 'The method (GET, POST, …), or the URL', required: true }),
    url: Args.string({ description: 'The URL, after a method', required: false }),
  };
  static override flags = toOclifFlags(undefined, SEND_FLAGS);
  static override strict = true;

  async run(): Promise<void> {
    const { args, flags } = (await this.parse(Send as never)) as { args: { method: string; url?: string }; flags: Record<string, unknown> };
    const io = processIo();
    const positionals = [args.method, ...(args.url !== undefined ? [args.url] : [])];
    process.exitCode = await runSourceCommand(() => sendSource(positionals, flags as RawSendFlags, io), flags as RawSendFlags, io, (warn) => collectThirdPartyPlugins(this.config as unknown as HookRunner, warn));
  }
}
