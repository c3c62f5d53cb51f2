/**
 * resterm's `# @auth` with its arguments (docs/http-dialect.md, "Authorization shorthands"):
 * `basic USER PASS`, `bearer TOKEN`, `apikey header NAME VALUE`, `NAME VALUE` (a header), for the
 * request or, after `file`/`global`, for the requests below it (resterm's `parseAuthSpec`,
 * `internal/parser/directive.go`; one auth per request, the request's own first, a written header
 * wins: `internal/protocol/httpx/auth.go`). The parser keeps the directive as the `resterm-auth`
 * annotation (`LINE text`); this plugin, loaded only for such a request, adds the header.
 * `command` runs a program for the token (command-auth.ts, loaded for it; a trusted project only).
 * What resterm runs that reqflow does not (`oauth2`, an API key in the query) is exit 2 naming the
 * line, the request not sent: never sent without the credentials its file gives it.
 */
import { UsageError } from '../../core/errors/index.js';
import { appendHeader, hasHeader } from '../../core/headers.js';
import type { Plugin } from '../../pipeline/plugin.js';

const FORM = /^(?:(?:file|global|request)\s+)?(?:basic\s+(\S+)\s+(.+)|bearer\s+(.+)|api-?key\s+header\s+(\S+)\s+(.+)|(?!(?:basic|bearer|api-?key|command|oauth2|none|file|global|request)\s)([\w!#$%&'*+.^`|~-]+)\s+(.+))$/i;

const COMMAND = /^(?:(?:file|global|request)\s+)?command(?:\s|$)/i;

/** The header a directive adds, `[name, value]` (templates unresolved). */
export function restermHeader(directive: string, where: string): [string, string] {
  const m = FORM.exec(directive.trim());
  if (!m) throw new UsageError(`${where}: # @auth ${directive.trim().slice(0, 60)}: reqflow sends resterm's basic, bearer, apikey header, command and NAME VALUE forms only`, { hint: 'write the header out, e.g. Authorization: Bearer {{token}}' });
  if (m[1] !== undefined) return ['Authorization', `Basic ${m[1]}:${m[2]}`];
  if (m[3] !== undefined) return ['Authorization', `Bearer ${m[3]}`];
  return m[4] !== undefined ? [m[4], m[5] as string] : [m[6] as string, m[7] as string];
}

const plugin: Plugin = {
  name: 'auth-resterm',
  stages: {
    auth: async (ctx) => {
      const written = ctx.spec.annotations['resterm-auth'] ?? '';
      const space = written.indexOf(' ');
      const directive = written.slice(space + 1);
      const where = `${ctx.spec.source.file}:${written.slice(0, space)}`;
      if (COMMAND.test(directive)) {
        const header = await (await import('./command-auth.js')).commandHeader(ctx, directive, where);
        if (header) appendHeader(ctx.spec.headers, ...header);
        return;
      }
      const [name, value] = restermHeader(directive, where);
      if (!hasHeader(ctx.spec.headers, name)) appendHeader(ctx.spec.headers, name, await ctx.variables.expand(value));
    },
  },
};
export default plugin;
