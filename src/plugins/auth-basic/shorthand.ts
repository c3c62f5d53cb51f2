/**
 * `Authorization: Basic user password` and `Basic user:password` (VS Code REST Client,
 * JetBrains): the client encodes the credentials, after `{{…}}` substitution. A value that is
 * already one token (`Basic dXNlcjpwYXNz`) is sent as written. Each line of the header is its
 * own: two `Authorization` lines stay two lines, the shorthand one encoded.
 */
import { shorthandCredentials } from '../../core/auth-shorthand.js';
import { fieldLines } from '../../core/headers.js';
import type { Plugin } from '../../pipeline/plugin.js';

const plugin: Plugin = {
  name: 'auth-basic-shorthand',
  stages: {
    auth: (ctx) => {
      const { headers } = ctx.spec;
      const name = Object.keys(headers).find((key) => key.toLowerCase() === 'authorization');
      if (name === undefined) return;
      const value = headers[name]!;
      const lines = fieldLines(value).map((line) => {
        const credentials = shorthandCredentials('basic', line);
        if (!credentials) return line;
        ctx.addSecret?.(credentials.password);
        return `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`, 'utf8').toString('base64')}`;
      });
      headers[name] = typeof value === 'string' ? lines[0]! : lines;
    },
  },
};
export default plugin;
