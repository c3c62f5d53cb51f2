/**
 * What a hostile server or request file writes reaches the terminal only as characters every
 * terminal draws alike: U+2028/U+2029 are one column to xterm and neo-blessed but none to a
 * terminal measuring with the C library (wcwidth -1), which would draw the rest of the row, its
 * border included, a column off.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import { tempDir } from './helpers/cli.js';
import { harnessPerTest, isolatedEnv, sendRequest } from './helpers/tui-harness.js';

let server: Server;
const workspace = tempDir('reqflow-tui-hostile-text-');
const startHarness = harnessPerTest();

beforeAll(async () => {
  server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end('line\u2028separator\u2029paragraph end\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  workspace.write('api.http', `### odd\u2028name\nGET http://127.0.0.1:${port}/text\n`);
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  workspace.cleanup();
});

describe('text terminals measure differently', () => {
  it('draws U+2028 and U+2029 of a body and of a request name as U+FFFD, never as themselves', async () => {
    const h = await startHarness({ dir: workspace.dir, env: isolatedEnv(workspace.dir) });
    const screen = await sendRequest(h, 'odd', 'paragraph end');
    await new Promise((resolve) => setImmediate(resolve)); // the program writes its buffer on the next tick
    expect(screen).toContain('line\uFFFDseparator\uFFFDparagraph end');
    expect(screen).toContain('odd\uFFFDname');
    expect(h.output.written).not.toMatch(/[\u2028\u2029]/);
  });
});
