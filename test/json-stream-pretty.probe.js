/**
 * Child process for test/json-stream-pretty.test.ts: pretty-prints a generated JSON document of
 * N MiB and reports the output's SHA-256, its size and this process's peak RSS.
 *
 *   node test/json-stream-pretty.probe.js MIB            the streaming printer (dist/)
 *   node test/json-stream-pretty.probe.js MIB reference  JSON.stringify(JSON.parse(doc), null, 2), numbers as written (lossless-json)
 *
 * The document is generated piece by piece and never held whole by the streaming run. With
 * `--expose-gc`, the streaming run also samples the memory still reachable after a full GC
 * (heap + buffers) every 4 MiB of input: `retainedMb` is the first sample, `maxRetainedMb` the
 * largest. A printer that kept its input or output would grow by the document's size.
 */
import { createHash } from 'node:crypto';
import { jsonDocumentChunks } from '../bench/lib/json-doc.js';
import { JsonPrettyPrinter } from '../dist/report/render/json-stream-pretty.js';
import { parseJsonExact, stringifyJson } from '../dist/core/json-exact.js';
import peakRss from './helpers/peak-rss.cjs';

const mib = Number(process.argv[2]);
const reference = process.argv[3] === 'reference';
const hash = createHash('sha256');
const samples = [];
let bytes = 0;
if (reference) {
  const { value, lossless } = parseJsonExact([...jsonDocumentChunks(mib * 2 ** 20)].join(''));
  const output = Buffer.from(stringifyJson(value, lossless, 2));
  hash.update(output);
  bytes = output.length;
} else {
  const printer = new JsonPrettyPrinter((chunk) => {
    hash.update(chunk);
    bytes += chunk.length;
  });
  let input = 0;
  let nextSample = 0;
  for (const piece of jsonDocumentChunks(mib * 2 ** 20)) {
    const chunk = Buffer.from(piece);
    printer.push(chunk);
    input += chunk.length;
    if (input >= nextSample && typeof globalThis.gc === 'function') {
      globalThis.gc();
      const { heapUsed, external } = process.memoryUsage();
      samples.push((heapUsed + external) / 2 ** 20);
      nextSample += 4 * 2 ** 20;
    }
  }
  printer.end();
}
const retained = samples.length > 0 ? { retainedMb: samples[0], maxRetainedMb: Math.max(...samples), samples: samples.length } : {};
process.stdout.write(`${JSON.stringify({ sha256: hash.digest('hex'), bytes, maxRssMb: peakRss.peakRssKb() / 1024, ...retained })}\n`);
