import type { Plugin } from '../../pipeline/plugin.js';

/**
 * The render stage's last handler: a response no plugin showed goes to the run's reporter
 * (which filters it once and prints it as `-o` says, or draws it in the TUI).
 */
export const reportPlugin: Plugin = {
  name: 'core-report',
  stages: {
    render: (ctx) => (ctx.rendered ? undefined : ctx.report.response(ctx)),
  },
};
