import { fieldLines } from '../../core/headers.js';
import type { RequestSpec } from '../../core/model.js';

/** Writes requests back in the HTTP text format (`parseHttpText` reads it back unchanged). */
export function printHttpText(requests: readonly RequestSpec[]): string {
  let variables: Readonly<Record<string, string>> = {};
  return requests
    .map((spec) => {
      const lines: string[] = [];
      // File variables, where they change: a request sees every definition above it.
      for (const [name, value] of Object.entries(spec.fileVariables ?? {})) if (variables[name] !== value) lines.push(`@${name} = ${value}`);
      variables = spec.fileVariables ?? variables;
      lines.push(`### ${spec.name}`);
      for (const [key, value] of Object.entries(spec.annotations)) lines.push(`# @${key} ${value}`);
      // A method the user did not write stays unwritten (a bare URL), so print → parse is stable.
      const version = spec.httpVersion ? ` HTTP/${spec.httpVersion}` : '';
      lines.push(`${spec.methodWritten === false ? spec.url : `${spec.method} ${spec.url}`}${version}`);
      for (const [name, value] of Object.entries(spec.headers)) for (const line of fieldLines(value)) lines.push(`${name}: ${line}`);
      if (spec.bodyParts) lines.push('', spec.bodyParts.map((part) => (part.kind === 'text' ? part.text : `<${part.substitute ? `@${part.encoding ?? ''}` : ''} ${part.path}\n`)).join('').replace(/\r\n/g, '\n').replace(/\n$/, ''));
      else if (spec.body !== undefined) lines.push('', typeof spec.body === 'string' ? spec.body : spec.body.toString('utf8'));
      return lines.join('\n');
    })
    .join('\n\n');
}
