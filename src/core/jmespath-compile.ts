import { UsageError } from './errors/index.js';
import { firstLine } from './first-line.js';
import type { JMESPath } from './jmespath-library.js';

export type ExpressionNode = ReturnType<JMESPath['compile']>;

/** The first function `node` calls that the library does not have (`lenght(items)`), if any. A literal's JSON is no expression. */
function unknownFunction(node: ExpressionNode, known: (name: string) => boolean): string | undefined {
  if (node.type === 'Literal') return undefined;
  if (node.type === 'Function' && !known(node.name)) return node.name;
  for (const part of Object.values(node) as unknown[]) {
    for (const child of Array.isArray(part) ? (part as unknown[]) : [part]) {
      if (typeof child !== 'object' || child === null || typeof (child as { type?: unknown }).type !== 'string') continue;
      const found = unknownFunction(child as ExpressionNode, known);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * `expression` compiled; one that is not JMESPath, or calls a function JMESPath does not have, is
 * exit 2 naming it and `where` it is written — known before anything is sent, whatever the response.
 */
export function compileFilter(jmespath: JMESPath, expression: string, where: string): ExpressionNode {
  let node: ExpressionNode;
  try {
    node = jmespath.compile(expression);
  } catch (error) {
    throw new UsageError(`invalid JMESPath filter ${JSON.stringify(expression)}${where}: ${firstLine(error)}`, { hint: 'see https://jmespath.site for the syntax, e.g. data.users[0].name' });
  }
  const unknown = unknownFunction(node, (name) => jmespath.isRegistered(name));
  if (unknown !== undefined) {
    throw new UsageError(`invalid JMESPath filter ${JSON.stringify(expression)}${where}: unknown function ${unknown}()`, { hint: 'see https://jmespath.site for its functions' });
  }
  return node;
}
