/** A request's trust scope: `--trust`, its project as its session knows it, and its file. */
import { projectRoot } from '../core/project.js';
import type { BaseContext } from '../pipeline/context.js';
import type { TrustScope } from './require-trust.js';

/** `file`: the file whose code would run, when it is not the request file (a script file). */
export function trustScopeOf(ctx: Pick<BaseContext, 'options' | 'session' | 'baseDir' | 'file'>, file: string = ctx.file): TrustScope {
  return { flag: ctx.options.trust === true, project: ctx.session.project ?? projectRoot(ctx.baseDir), file };
}
