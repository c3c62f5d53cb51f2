/**
 * Allocations of a whole run, for the per-request figures of issue 23: preloaded with
 * `node -r ./bench/lib/heap-sampling.cjs …`, it runs V8's sampling heap profiler with the objects
 * later collected included (young and old), and at exit writes the bytes allocated — in all and
 * by the nearest function of dist/ (the code of ours that asked) — to $HEAP_SAMPLING_OUT as JSON.
 * Marginal bytes per request: (bytes of N requests − bytes of 1) / (N − 1), as for the times.
 *
 *   HEAP_SAMPLING_OUT=a.json node -r ./bench/lib/heap-sampling.cjs bin/run.cjs run many.http
 */
'use strict';
const { writeFileSync } = require('node:fs');
const { Session } = require('node:inspector');

const session = new Session();
session.connect();
session.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });

process.on('exit', () => {
  session.post('HeapProfiler.stopSampling', (error, result) => {
    if (error) throw error;
    const { profile } = result;
    const bytesOf = new Map();
    for (const sample of profile.samples) bytesOf.set(sample.nodeId, (bytesOf.get(sample.nodeId) ?? 0) + sample.size);
    const byFunction = {};
    let total = 0;
    // Depth-first with an explicit stack: the profile's tree is deep.
    const stack = [[profile.head, '(outside dist/)']];
    while (stack.length > 0) {
      const [node, ours] = stack.pop();
      const frame = node.callFrame;
      const here = frame.url.includes('/dist/') ? `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\/dist\//, '')}:${frame.lineNumber + 1}` : ours;
      const bytes = bytesOf.get(node.id) ?? 0;
      total += bytes;
      byFunction[here] = (byFunction[here] ?? 0) + bytes;
      for (const child of node.children) stack.push([child, here]);
    }
    writeFileSync(process.env.HEAP_SAMPLING_OUT ?? 'heap-sampling.json', `${JSON.stringify({ total, byFunction }, null, 1)}\n`);
  });
});
