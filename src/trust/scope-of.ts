/** A request's trust scope: `--trust`, and its project as its session knows it. */
import { projectRoot } from '../core/project.js';
import type { BaseContext } from '../pipeline/context.js';
import type { TrustScope } from './require-trust.js';

export function trustScopeOf(ctx: Pick<BaseContext, 'options' | 'session' | 'baseDir'>): TrustScope {
  return { flag: ctx.options.trust === true, project: ctx.session.project ?? projectRoot(ctx.baseDir) };
}
