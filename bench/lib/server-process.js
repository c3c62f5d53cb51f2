/** bench/server.js as a child process of the bench (its work never delays the bench's own clock). */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SERVER = fileURLToPath(new URL('../server.js', import.meta.url));

/** Starts bench/server.js; resolves with its base URL and a stop function. */
export function startServer() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SERVER], { stdio: ['pipe', 'pipe', 'inherit'] });
    let text = '';
    child.once('error', reject);
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const line = text.split('\n')[0];
      if (text.includes('\n')) {
        const { port, h2cPort } = JSON.parse(line);
        resolve({
          base: `http://127.0.0.1:${port}`,
          h2cBase: `http://127.0.0.1:${h2cPort}`,
          stop: () => {
            child.stdin.end();
            child.kill();
          },
        });
      }
    });
  });
}
