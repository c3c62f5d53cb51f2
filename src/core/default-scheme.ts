/** `host:port/...`, `host.name/...` or `localhost...` without a scheme: what the `.http` tools send over http://. */
const SCHEMELESS = /^(?:localhost|\[[0-9a-f:.]+\]|[\w-]+(?:\.[\w-]+)+|[\w.-]+:\d+)(?::\d+)?(?:[/?#]|$)/i;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/** Adds `http://` to a URL written without a scheme; anything else is returned as it is. */
export function withDefaultScheme(url: string): string {
  return !HAS_SCHEME.test(url) && SCHEMELESS.test(url) ? `http://${url}` : url;
}

/** True for text that starts like a URL without a scheme. */
export function looksSchemeless(text: string): boolean {
  return !HAS_SCHEME.test(text) && SCHEMELESS.test(text);
}
