/** For commands that serve until stopped (`reqflow mock`, `reqflow proxy`). */

/** Resolves on the first Ctrl-C (or SIGTERM), with the listeners removed again. */
export function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
