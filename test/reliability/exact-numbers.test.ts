/**
 * JSON numbers survive as the server wrote them: a 64-bit id, a number beyond a double's
 * range, trailing zeros and exponents — in pretty output (small bodies and the streaming printer
 * of large ones), `-o json` records, filters (which compute with them as numbers), and values a later request sends (a chained id
 * must not arrive rounded: that would be a request to another resource).
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';

const DOC = '{"id":12345678901234567890,"huge":1e400,"price":10.50,"neg":-0,"exp":2E5,"ok":1,"list":[9007199254740993,0.1]}';
/** Numbers kept as text (2.50, 5.50, two ids one double cannot tell apart) beside plain ones. */
const PRICES = '{"items":[{"id":1,"price":2.50},{"id":2,"price":3}],"total":5.50,"ids":[12345678901234567890,12345678901234567891],"big":98765432109876543210,"huge":1e400}';
const tmp = tempDir('reqflow-numbers-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };
let server: Server;
let base = '';
const paths: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    paths.push(req.url ?? '');
    res.writeHead(200, { 'Content-Type': 'application/json' });
    if (req.url === '/prices') return void res.end(PRICES);
    if (req.url === '/big') {
      // Past the small-body path: the streaming printer writes it.
      const items = Array.from({ length: 4000 }, (_, i) => `{"n":${i},"id":1234567890123456789${i % 10},"p":${i}.50}`).join(',');
      return void res.end(`{"items":[${items}]}`);
    }
    res.end(DOC);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  tmp.cleanup();
});

const run = (name: string, text: string, ...args: string[]) => runCli(['run', tmp.write(name, text.replaceAll('BASE', base)), ...args], { env });

test('pretty output keeps every number as written', async () => {
  const result = await run('pretty.http', 'GET BASE/doc\n');
  expect(result.code).toBe(0);
  for (const written of ['"id": 12345678901234567890', '"huge": 1e400', '"price": 10.50', '"neg": -0', '"exp": 2E5', '9007199254740993']) expect(result.stdout).toContain(written);
});

test('a large body (the streaming printer) keeps them too', async () => {
  const result = await run('big.http', 'GET BASE/big\n');
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('"id": 12345678901234567897,');
  expect(result.stdout).toContain('"p": 3999.50');
});

test('-o json carries the body with its numbers as written, still one line of valid JSON', async () => {
  const result = await run('json.http', 'GET BASE/doc\n', '-o', 'json');
  expect(result.code).toBe(0);
  const line = result.stdout.trim();
  expect(line.split('\n')).toHaveLength(1);
  expect(line).toContain(`"body":${DOC}`);
  expect(() => JSON.parse(line)).not.toThrow();
});

test('filters give the numbers they select as written', async () => {
  expect((await run('filter.http', 'GET BASE/doc\n', '--filter', 'id')).stdout).toBe('12345678901234567890\n');
  expect((await run('filter.http', 'GET BASE/doc\n', '--filter', 'list', '-o', 'raw')).stdout).toBe('[\n  9007199254740993,\n  0.1\n]\n');
  const json = await run('filter.http', 'GET BASE/doc\n', '--filter', '[huge, price]', '-o', 'json');
  expect(json.stdout).toContain('"body":[1e400,10.50]');
});

test('filters compute with numbers kept as text as JMESPath numbers, and print the ones they pass through as written', async () => {
  const filter = async (expression: string): Promise<string> => {
    const result = await run('prices.http', 'GET BASE/prices\n', '--filter', expression, '-o', 'raw');
    expect({ expression, code: result.code, stderr: result.stderr }).toEqual({ expression, code: 0, stderr: '' });
    return result.stdout.replace(/\s+/g, '');
  };
  expect(await filter('items[?price > `2`].id')).toBe('[1,2]');
  expect(await filter('avg(items[].price)')).toBe('2.75');
  expect(await filter('sum(items[].price) == total')).toBe('true');
  expect(await filter('type(total)')).toBe('number');
  expect(await filter('to_string(total)')).toBe('5.5');
  expect(await filter('total == `5.5`')).toBe('true');
  expect(await filter('max_by(items, &price).id')).toBe('2');
  expect(await filter('sort_by(items, &price)[].price')).toBe('[2.50,3]');
  expect(await filter('[big, total][? @ > `1`]')).toBe('[98765432109876543210,5.50]');
  expect(await filter('length(ids[? @ > `1`])')).toBe('2');
  expect(await filter('[ids, huge, total, items[0].price]')).toBe('[[12345678901234567890,12345678901234567891],1e400,5.50,2.50]');
  const json = await run('prices.http', 'GET BASE/prices\n', '--filter', '{ids: ids, n: length(ids)}', '-o', 'json');
  expect(json.stdout).toContain('"body":{"ids":[12345678901234567890,12345678901234567891],"n":2}');
});

test('a chained id and a captured one are sent exactly as received', async () => {
  paths.length = 0;
  const result = await run(
    'chain.http',
    '### first\n# @capture kept = $.list[0]\nGET BASE/doc\n\n###\nGET BASE/item/{{first.response.body.$.id}}?also={{kept}}\n',
  );
  expect(result.code).toBe(0);
  expect(paths).toEqual(['/doc', '/item/12345678901234567890?also=9007199254740993']);
});
