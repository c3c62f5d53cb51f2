/**
 * `Authorization: Basic user password` and `Basic user:password` (VS Code REST Client,
 * JetBrains): the client encodes the credentials, after `{{…}}` substitution. A value that is
 * already one token (`Basic dXNlcjpwYXNz`) is sent as written.
 */
import { getHeader, setHeader } from '../../core/headers.js';
import type { Plugin } from '../../pipeline/plugin.js';

/** `Basic <user> <password>` or `Basic <user>:<password>`: two parts, where base64 has one. */
const BASIC_SHORTHAND = /^\s*basic\s+(\S+?)(?:\s+|:)(.*)$/is;

const plugin: Plugin = {
  name: 'auth-basic-shorthand',
  stages: {
    auth: (ctx) => {
      const match = BASIC_SHORTHAND.exec(getHeader(ctx.spec.headers, 'authorization') ?? '');
      if (!match) return;
      const [, username = '', password = ''] = match;
      ctx.addSecret?.(password);
      setHeader(ctx.spec.headers, 'Authorization', `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`);
    },
  },
};
export default plugin;
