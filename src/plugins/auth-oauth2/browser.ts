/** Opens a URL with the system's browser (xdg-open, open, start: the `open` package, imported lazily). */
export async function openInBrowser(url: string): Promise<void> {
  const { default: open } = await import('open');
  const child = await open(url);
  // A launcher that fails later (no browser installed) must not crash reqflow: the URL was printed.
  child.on('error', () => undefined);
  if (child.pid === undefined) throw new Error('the browser launcher could not be started');
}
