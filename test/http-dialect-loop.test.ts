/**
 * httpyac's `# @loop` (docs/http-dialect.md, "Loops"; issue 27 item 6), end to end with the
 * built CLI against a recording server: each pass is a request of its own (sent, reported,
 * checked), `{{$index}}` and the item as httpyac names them, the forms reqflow does not run
 * refused naming the line — never sent once.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

let recorder: Recorder;
const tmp = tempDir('reqflow-loop-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };

beforeAll(async () => {
  // Pass 1 of anything fails: a check per pass must see it.
  recorder = await startRecorder((req, res) => {
    res.statusCode = /[?&]i=1(&|$)/.test(req.url ?? '') ? 500 : 200;
    res.setHeader('content-type', 'application/json');
    // /tree/ID: a folder tree (1 → 2, 3; 2 → 4; 3 → 5), listed as roXtra's API lists subfolders.
    const tree: Record<string, number[]> = { '1': [2, 3], '2': [4], '3': [5] };
    const folder = /^\/tree\/(\d+)/.exec(req.url ?? '')?.[1];
    if (folder !== undefined) return void res.end(JSON.stringify({ FoldersList: (tree[folder] ?? []).map((Id) => ({ Id, Title: `f${Id}` })) }));
    if (req.url === '/bigarr') return void res.end('[{"id": 12345678901234567890, "f": 1.10}, {"id": 2, "f": 0.5}]');
    res.end(JSON.stringify({ url: req.url }));
  });
  tmp.write('package.json', '{}');
});
afterAll(async () => {
  await recorder.close();
  tmp.cleanup();
});

async function reqflow(file: string, text: string, args: string[] = []) {
  tmp.write(file, text);
  const before = recorder.received.length;
  const result = await runCli(['run', file, ...args], { env, cwd: tmp.dir });
  return { ...result, got: recorder.received.slice(before).map((r) => r.url) };
}

const records = (stdout: string): Array<Record<string, unknown>> => stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);

describe('# @loop for N', () => {
  test('three requests, {{$index}} 0, 1, 2; a named request\'s passes are name0, name1, name2, each reported', async () => {
    const result = await reqflow('count.http', `# @name page\n# @loop for 3\nGET ${recorder.url}/count?n={{$index}}\n`, ['-o', 'json']);
    expect(result.got).toEqual(['/count?n=0', '/count?n=1', '/count?n=2']);
    expect(result.code).toBe(0);
    expect(records(result.stdout).map((r) => [r.type, r.name])).toEqual([
      ['response', 'page0'],
      ['response', 'page1'],
      ['response', 'page2'],
    ]);
    // Each pass is in the history, as any request sent.
    const history = await runCli(['history', '--json', '--grep', '/count?n='], { env, cwd: tmp.dir });
    expect(history.code).toBe(0);
    const entries = records(history.stdout).map((e) => [e.name, e.url]);
    expect(entries.sort()).toEqual([0, 1, 2].map((i) => [`page${i}`, `${recorder.url}/count?n=${i}`]));
  });

  test('the checks run on every pass: the failing pass fails the run (exit 1), the others pass', async () => {
    const result = await reqflow('checked.http', `# @loop for 3\nGET ${recorder.url}/checked?i={{$index}}\n\n?? status == 200\n`, ['-o', 'json']);
    expect(result.got).toEqual(['/checked?i=0', '/checked?i=1', '/checked?i=2']);
    expect(result.code).toBe(1);
    const tests = records(result.stdout).filter((r) => r.type === 'test');
    expect(tests.map((r) => [r.name, (r.test as { passed: boolean }).passed])).toEqual([
      ['request-1#0', true],
      ['request-1#1', false],
      ['request-1#2', true],
    ]);
  });

  test('a global script\'s exports and a script above # @loop run once, before the passes; one below it on each pass (loop-count-scripts.http)', async () => {
    const text = readFileSync(join(ROOT, 'test', 'fixtures', 'dialect', 'httpyac', 'loop-count-scripts.http'), 'utf8');
    const result = await reqflow('loop-count-scripts.http', text, ['-e', `host=${recorder.url}`]);
    expect(result.stderr).not.toContain('reqflow:');
    // Recorded from httpyac 6.16.7 (`httpyac send loop-count-scripts.http -a --var host=…`).
    expect(result.got).toEqual([
      '/loop/count?greeting=hello&above=a&below=b&index=0',
      '/loop/count?greeting=hello&above=a&below=bb&index=1',
      '/loop/count?greeting=hello&above=a&below=bbb&index=2',
    ]);
  });

  test('for 0 sends nothing (as httpyac); the requests around it run', async () => {
    const result = await reqflow('zero.http', `GET ${recorder.url}/before\n\n###\n# @loop for 0\nGET ${recorder.url}/never\n\n###\nGET ${recorder.url}/after\n`);
    expect([result.code, result.got]).toEqual([0, ['/before', '/after']]);
  });

  test('more than 1000 passes: exit 2 naming the annotation line, that request not sent, the one before it sent', async () => {
    const result = await reqflow('flood.http', `GET ${recorder.url}/first\n\n###\n# @loop for 100000\nGET ${recorder.url}/flood\n`);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('flood.http:4: # @loop for 100000: at most 1000 passes');
    expect(result.got).toEqual(['/first']);
  });
});

describe('# @loop for NAME of VALUES', () => {
  test("over an array of objects in httpyac's .httpyac.json environments: {{item.id}}, {{item}} whole, {{$index}}", async () => {
    tmp.write('yac/package.json', '{}');
    tmp.write('yac/.httpyac.json', JSON.stringify({ environments: { dev: { users: [{ id: 7, name: 'ann' }, { id: 9, name: 'bob' }] } } }));
    tmp.write('yac/users.http', `# @loop for user of users\nPOST ${recorder.url}/users/{{user.id}}?at={{$index}}\nContent-Type: application/json\n\n{{user}}\n`);
    const before = recorder.received.length;
    const result = await runCli(['run', 'users.http', '--env', 'dev'], { env, cwd: join(tmp.dir, 'yac') });
    const got = recorder.received.slice(before);
    expect(result.code).toBe(0);
    expect(got.map((r) => r.url)).toEqual(['/users/7?at=0', '/users/9?at=1']);
    expect(got.map((r) => r.body.toString())).toEqual(['{"id":7,"name":"ann"}', '{"id":9,"name":"bob"}']);
  });

  test("over a list an earlier response holds, which only the # @loop line names (the chain once missed it: 'has no response')", async () => {
    const result = await reqflow('loop-over-response.http', `# @name tree\nGET ${recorder.url}/tree/1\n\n###\n# @name each\n# @loop for folder of {{tree.response.body.$.FoldersList}}\nGET ${recorder.url}/folders/{{folder.Id}}\n`, ['-o', 'raw']);
    expect(result.code).toBe(0);
    expect(result.got).toEqual(['/tree/1', '/folders/2', '/folders/3']);
  });

  test('items keep their numbers as the server wrote them (a 64-bit id, 1.10)', async () => {
    const result = await reqflow('loop-exact.http', `# @name b\nGET ${recorder.url}/bigarr\n\n###\n# @loop for item of {{b.response.body}}\nGET ${recorder.url}/echo?id={{item.id}}&f={{item.f}}\n`, ['-o', 'raw']);
    expect(result.code).toBe(0);
    expect(result.got).toEqual(['/bigarr', '/echo?id=12345678901234567890&f=1.10', '/echo?id=2&f=0.5']);
  });

  test("over what an httpyac script exported (exports.ids), and over {{name}} and a JSON array written out", async () => {
    const text = `{{\n  exports.ids = ['a', 'b'];\n}}\n\n###\n# @loop for id of ids\nGET ${recorder.url}/ids/{{id}}\n\n###\n# @loop for id of {{ids}}\nGET ${recorder.url}/braced/{{id}}\n\n###\n# @loop for n of [3, 4]\nGET ${recorder.url}/literal/{{n}}\n`;
    const result = await reqflow('exported.http', text);
    expect(result.code).toBe(0);
    expect(result.got).toEqual(['/ids/a', '/ids/b', '/braced/a', '/braced/b', '/literal/3', '/literal/4']);
  });

  test('a loop variable whose name looks secret (for token of tokens): its values are masked where reqflow shows the request, sent as written', async () => {
    const result = await reqflow('secret.http', `@tokens = ["tok-alpha-1", "tok-beta-2"]\n\n# @loop for token of tokens\nGET ${recorder.url}/s?q={{token}}\n`, ['-o', 'json']);
    expect(result.code).toBe(0);
    expect(result.got).toEqual(['/s?q=tok-alpha-1', '/s?q=tok-beta-2']);
    // (the recorder echoes the URL in its body: the response is shown as received)
    expect(records(result.stdout).map((r) => r.url)).toEqual([`${recorder.url}/s?q=•••`, `${recorder.url}/s?q=•••`]);
  });

  test('a value that is not a JSON array: exit 2 naming the line, nothing sent for it, the next request runs', async () => {
    const result = await reqflow('scalar.http', `@one = x\n\n# @loop for v of one\nGET ${recorder.url}/scalar/{{v}}\n\n###\nGET ${recorder.url}/next\n`);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('scalar.http:3: # @loop for v of one: the value is not a JSON array');
    expect(result.got).toEqual(['/next']);
  });

  test('an array its passes extend: the new items get passes too (httpyac walks the live array), a script above # @loop runs once', async () => {
    // A folder tree served level by level: each reply lists the folder's subfolders.
    const text = [
      '{{',
      '  $global.subFolders = [{ Id: 1 }]',
      '}}',
      '# @loop for subFolder of $global.subFolders',
      `GET ${recorder.url}/tree/{{subFolder.Id}}?pass={{$index}}`,
      '',
      '{{',
      '  $global.subFolders.push(...response.parsedBody.FoldersList)',
      '}}',
      '',
    ].join('\n');
    const result = await reqflow('tree.http', text, ['-o', 'json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.got).toEqual(['/tree/1?pass=0', '/tree/2?pass=1', '/tree/3?pass=2', '/tree/4?pass=3', '/tree/5?pass=4']);
    expect(records(result.stdout).map((r) => r.name)).toEqual(['request-1#0', 'request-1#1', 'request-1#2', 'request-1#3', 'request-1#4']);
  });

  test.each([
    ['replaced by a longer array (httpyac goes on over the old one)', '$global.ids = $global.ids.concat([$global.ids.length + 1])'],
    ['items already passed taken off (a queue)', '$global.ids.shift(); $global.ids.push(7)'],
    ['an item already passed changed', '$global.ids[0] = 9; $global.ids.push(7)'],
  ])('an array %s: exit 2 naming the line after that pass, nothing more sent', async (_, change) => {
    const text = `{{\n  $global.ids = [1, 2]\n}}\n# @loop for id of $global.ids\nGET ${recorder.url}/changed/{{id}}\n\n{{\n  ${change}\n}}\n`;
    const result = await reqflow('changed.http', text);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('changed.http:4: # @loop for id of $global.ids: the array was replaced or changed while the loop ran (after 1 pass); reqflow follows only items added at its end');
    expect(result.got).toEqual(['/changed/1']);
  });

  test('an array that grows past the 1000-pass limit: exit 2 naming the line as soon as it does, no pass more sent', async () => {
    const text = `{{\n  $global.ids = Array.from({ length: 998 }, (_, i) => i)\n}}\n# @loop for id of $global.ids\nGET ${recorder.url}/capped/{{id}}\n\n{{\n  $global.ids.push(-1, -2)\n}}\n`;
    const result = await reqflow('capped.http', text);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('capped.http:4: # @loop for id of $global.ids: the array grew to 1002 items while the loop ran (after 2 passes), at most 1000 passes');
    expect(result.got).toEqual(['/capped/0', '/capped/1']);
  });

  test('a JavaScript expression reqflow does not evaluate: exit 2 naming the line, not sent', async () => {
    const result = await reqflow('expr.http', `# @loop for v of ids.filter((x) => x)\nGET ${recorder.url}/expr/{{v}}\n`);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('expr.http:1: # @loop for v of ids.filter((x) => x): reqflow reads a variable name, {{name}} or a JSON array here');
    expect(result.got).toEqual([]);
  });
});

describe('forms reqflow does not run are refused, never sent once', () => {
  test.each([
    ['while', '# @loop while expression.index < 3'],
    ['a bare for', '# @loop for'],
    ['a count that is not a number', '# @loop for three'],
  ])('%s: exit 2 naming the annotation line; nothing in the file is sent', async (_, line) => {
    const result = await reqflow('refused.http', `GET ${recorder.url}/before\n\n###\n${line}\nGET ${recorder.url}/refused\n`);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`refused.http:4:1: ${line}: reqflow runs "for N" and "for NAME of VALUES"`);
    expect(result.got).toEqual([]);
  });
});

describe('a looped request referred to by name', () => {
  const file = (at: string): string =>
    `# @name page\n# @loop for 3\nGET ${recorder.url}/${at}?n={{$index}}\n\n###\n# @name next\nGET ${recorder.url}/${at}-next?last={{page.response.body.$.url}}&h={{page.response.headers.Content-Type}}\n`;

  test('{{page.response…}} reads the last pass, after the loop ran on its own turn', async () => {
    const result = await reqflow('ref-last.http', file('ref'));
    expect(result.code).toBe(0);
    expect(result.got).toEqual(['/ref?n=0', '/ref?n=1', '/ref?n=2', '/ref-next?last=/ref?n=2&h=application/json']);
  });

  test('run alone (-n next), the reference runs the whole loop first and reads its last pass', async () => {
    const result = await reqflow('ref-alone.http', file('alone'), ['-n', 'next']);
    expect(result.code).toBe(0);
    expect(result.got).toEqual(['/alone?n=0', '/alone?n=1', '/alone?n=2', '/alone-next?last=/alone?n=2&h=application/json']);
  });

  test('a loop of no passes (for 0) has no response: the reference is exit 3 naming it, the next request not sent', async () => {
    const result = await reqflow('ref-none.http', `# @name page\n# @loop for 0\nGET ${recorder.url}/none\n\n###\nGET ${recorder.url}/none-next?last={{page.response.body.$.url}}\n`);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('request "page" has no response to read');
    expect(result.got).toEqual([]);
  });
});
