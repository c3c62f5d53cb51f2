/**
 * The floor of a one-GET start-up (issue 23): Node starting, loading `node:http` and doing one
 * GET whose body goes to stdout, and nothing else. CommonJS, as bin/run.cjs is (an ES module
 * would add Node's module loader). What reqflow adds to a GET's start-up is measured against
 * this; `node -e 0` is what Node alone costs.
 *
 *   node bench/lib/bare-get.cjs URL
 */
'use strict';
require('node:http')
  .get(process.argv[2], (res) => res.pipe(process.stdout))
  .on('error', (error) => {
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
  });
