/**
 * SSE latency: the server stamps each event with the moment it wrote it (`sentAt`, epoch ms
 * from performance.timeOrigin + now()); the bench stamps the moment reqflow's output carrying
 * that event reaches it. Same clock, two processes: the difference is the event's latency.
 */
import { runChecked } from './measure.js';

// The number must be followed by something else, so a number cut at a chunk edge never matches.
const EVENT = /"seq":\s*(\d+),\s*"sentAt":\s*(\d+(?:\.\d+)?)(?=[^\d.])/g;

/** Runs `cmd` once; resolves with one latency (ms) per event seen, in order. */
export async function eventLatencies(cmd, options) {
  const latencies = [];
  let text = '';
  await runChecked(cmd, {
    ...options,
    onStdout(chunk, at) {
      text += chunk.toString('utf8');
      let consumed = 0;
      EVENT.lastIndex = 0;
      for (let match = EVENT.exec(text); match; match = EVENT.exec(text)) {
        latencies.push(at - Number(match[2]));
        consumed = EVENT.lastIndex;
      }
      text = text.slice(consumed);
    },
  });
  return latencies;
}
