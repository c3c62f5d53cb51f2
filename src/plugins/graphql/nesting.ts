/**
 * How deep a GraphQL document nests, measured before graphql's parser sees it: the parser
 * recurses once per selection set, list and object value, and overflows the call stack past
 * some 1,500 levels (exit 70). Deeper documents are refused at the JSON limit, as importers and
 * JSON request files are.
 */

const LINE_END = /[\r\n]/g;

/**
 * The offset of the first `{`, `[` or `(` that opens a level past `limit`, skipping strings,
 * block strings and comments; undefined when the document stays within it. Linear, no recursion.
 */
export function graphqlTooDeepAt(query: string, limit: number): number | undefined {
  let depth = 0;
  for (let at = 0; at < query.length; at++) {
    const char = query[at];
    if (char === '#') {
      LINE_END.lastIndex = at;
      const end = LINE_END.exec(query);
      if (!end) return undefined;
      at = end.index;
    } else if (char === '"') at = stringEnd(query, at);
    else if (char === '{' || char === '[' || char === '(') {
      depth += 1;
      if (depth > limit) return at;
    } else if (char === '}' || char === ']' || char === ')') depth -= 1;
  }
  return undefined;
}

/** Where the string opened at `at` (`"…"` or `"""…"""`) ends: its last quote, or the text's end when it never does. */
function stringEnd(query: string, at: number): number {
  if (query.startsWith('"""', at)) {
    // A block string ends at the first `"""` not escaped as `\"""`.
    for (let close = query.indexOf('"""', at + 3); close >= 0; close = query.indexOf('"""', close + 1)) if (query[close - 1] !== '\\') return close + 2;
    return query.length;
  }
  for (let end = at + 1; end < query.length; end++) {
    const char = query[end];
    if (char === '\\') end++;
    else if (char === '"' || char === '\n' || char === '\r') return end;
  }
  return query.length;
}
