/** Case-insensitive header helpers: header names keep the user's spelling on the wire. */
function findHeaderName(headers: Record<string, string>, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const key of Object.keys(headers)) if (key.toLowerCase() === lower) return key;
  return undefined;
}

export function getHeader(headers: Record<string, string>, name: string): string | undefined {
  const key = findHeaderName(headers, name);
  return key === undefined ? undefined : headers[key];
}

/** Sets a header, replacing any spelling of the same name. */
export function setHeader(headers: Record<string, string>, name: string, value: string): void {
  const key = findHeaderName(headers, name);
  if (key !== undefined && key !== name) delete headers[key];
  headers[name] = value;
}

export function hasHeader(headers: Record<string, string>, name: string): boolean {
  return findHeaderName(headers, name) !== undefined;
}

export function deleteHeader(headers: Record<string, string>, name: string): void {
  const key = findHeaderName(headers, name);
  if (key !== undefined) delete headers[key];
}

/** Profile headers first, then the request's: a request header wins over a profile header of any spelling. */
export function mergeHeaders(profileHeaders: Record<string, string>, requestHeaders: Record<string, string>): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries(profileHeaders)) if (!hasHeader(requestHeaders, name)) merged[name] = value;
  return Object.assign(merged, requestHeaders);
}
