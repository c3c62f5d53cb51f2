import type { Hook } from '@oclif/core';
import { unknownCommandError } from '../cli/usage-errors.js';

/**
 * oclif found no command for `id` (`rn`, `oauth:logni`): exit 2 in reqflow's style, with the
 * command meant where one is close. (A folder or flags alone never get here: src/cli/oclif-main.ts
 * hands them to the UI.) The thrown error reaches runOclif, which prints it.
 */
const commandNotFound: Hook.CommandNotFound = async function ({ id, config }) {
  const words = id.split(':');
  // The deepest topic typed (`oauth` of `oauth logni`): the unknown word is the one after it.
  let depth = words.length - 1;
  while (depth > 0 && !config.findTopic(words.slice(0, depth).join(':'))) depth--;
  const topic = words.slice(0, depth);
  const siblings = [...config.commandIDs, ...config.topics.map((t) => t.name)]
    .map((name) => name.split(':'))
    .filter((parts) => parts.length === depth + 1 && parts.slice(0, depth).join(':') === topic.join(':'))
    .map((parts) => parts[depth] as string);
  throw unknownCommandError(words.slice(0, depth + 1), siblings);
};

export default commandNotFound;
