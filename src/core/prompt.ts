import { VariableError } from './errors/index.js';

/** Asks the user for an interactive variable. The CLI uses the terminal; the TUI a modal. */
export type Prompter = (request: { name: string; defaultValue: string; secret: boolean }) => Promise<string>;

/** A prompter for runs without a terminal: always exit 3 with a hint to use `-e`. */
export const noTerminalPrompter: Prompter = async ({ name }) => {
  throw new VariableError(`variable "${name}" is interactive but stdin is not a terminal`, { hint: `pass it with -e ${name}=value` });
};

/** Prompts on the terminal; secret input is not echoed. */
export function terminalPrompter(input: NodeJS.ReadStream = process.stdin, output: NodeJS.WriteStream = process.stderr): Prompter {
  return ({ name, defaultValue, secret }) =>
    new Promise((resolvePromise, reject) => {
      const shown = defaultValue === '' ? '' : secret ? ' [•••]' : ` [${defaultValue}]`;
      output.write(`${name}${shown}: `);
      let answer = '';
      const wasRaw = input.isRaw;
      input.setRawMode?.(true);
      input.resume();
      const finish = (value: string | Error): void => {
        input.setRawMode?.(wasRaw ?? false);
        input.pause();
        input.removeListener('data', onData);
        output.write('\n');
        if (value instanceof Error) reject(value);
        else resolvePromise(value === '' ? defaultValue : value);
      };
      const onData = (chunk: Buffer): void => {
        for (const char of chunk.toString('utf8')) {
          if (char === '\r' || char === '\n') return finish(answer);
          if (char === '\u0003') return finish(new VariableError(`prompt for "${name}" was cancelled`));
          if (char === '\u007f' || char === '\b') {
            if (answer.length > 0) {
              answer = answer.slice(0, -1);
              if (!secret) output.write('\b \b');
            }
            continue;
          }
          answer += char;
          if (!secret) output.write(char);
        }
      };
      input.on('data', onData);
    });
}
