/**
 * The yardstick of the per-request cost (issue 23): a bare `node:http` loop doing `count`
 * sequential GETs of `url` over one kept-alive connection, each body read whole and written to
 * stdout, as `reqflow run -o raw` does. What reqflow adds per request is measured against this.
 *
 *   node bench/lib/bare-loop.js URL COUNT
 */
import { Agent, get } from 'node:http';

const [url, countText = '1'] = process.argv.slice(2);
const count = Number(countText);
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function once() {
  return new Promise((resolve, reject) => {
    get(url, { agent }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve(Buffer.concat(chunks)));
      res.on('error', reject);
    }).on('error', reject);
  });
}

for (let i = 0; i < count; i++) process.stdout.write(await once());
agent.destroy();
