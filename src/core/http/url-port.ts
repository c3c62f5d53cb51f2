/** The port a URL's text names, when it is not one a connection can use (1–65535). */
export function portOutOfRange(url: string): string | undefined {
  const port = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(?:\[[^\]]*\]|[^:/?#]*):(\d+)(?:[/?#]|$)/i.exec(url)?.[1];
  return port !== undefined && (Number(port) === 0 || Number(port) > 65535) ? port : undefined;
}
