// Preloaded with `node -r` into a reqflow process under test: at exit, its peak RSS (kB) goes to fd 3.
const { writeSync } = require('node:fs');
const { peakRssKb } = require('./peak-rss.cjs');

process.on('exit', () => writeSync(3, `${peakRssKb()}\n`));
