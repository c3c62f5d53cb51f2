/** The request files the bench runs, written into a temporary folder. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const GRAPHQL_QUERY = 'query User { user(id: "1") { id name email } }';

function repeat(count, make) {
  return Array.from({ length: count }, (_, i) => make(i + 1)).join('\n');
}

/** A file of many requests the way people write them: names, comments, headers, bodies. */
function parseFixture(base, count) {
  return repeat(count, (i) => {
    switch (i % 4) {
      case 0:
        return `### list users ${i}\n# page through the users\nGET ${base}/users?page=${i}&limit=50 HTTP/1.1\nAccept: application/json\nX-Request-Id: req-${i}\n`;
      case 1:
        return `### create user ${i}\n# @name create-${i}\nPOST ${base}/users\nContent-Type: application/json\nAuthorization: Bearer {{token}}\n\n{\n  "name": "User ${i}",\n  "email": "user${i}@example.com",\n  "roles": ["dev"]\n}\n`;
      case 2:
        return `### graphql ${i}\n# @protocol graphql\nPOST ${base}/graphql\nContent-Type: application/json\n\n${GRAPHQL_QUERY}\n`;
      default:
        return `### delete ${i}\nDELETE ${base}/users/${i}\nAuthorization: Bearer {{token}}\n`;
    }
  });
}

export function writeFixtures(dir, base, h2cBase) {
  const files = {
    one: ['one.http', `GET ${base}/get\n`],
    batchGet: ['batch-get.http', repeat(1000, (i) => `### get ${i}\nGET ${base}/get\n`)],
    // Memory that does not grow with the file (issue 23): peak RSS of 10,000 GETs beside one.
    batch10k: ['batch-10k.http', repeat(10_000, (i) => `### get ${i}\nGET ${base}/get\n`)],
    oneGraphql: ['one-graphql.http', `### user\n# @protocol graphql\nPOST ${base}/graphql\nContent-Type: application/json\n\n${GRAPHQL_QUERY}\n`],
    batchGraphql: ['batch-graphql.http', repeat(1000, (i) => `### user ${i}\n# @protocol graphql\nPOST ${base}/graphql\nContent-Type: application/json\n\n${GRAPHQL_QUERY}\n`)],
    large: ['large.http', `GET ${base}/large?mib=100\n`],
    events: ['events.http', `# @streaming true\nGET ${base}/events?count=200&interval=5\nAccept: text/event-stream\n`],
    parse: ['parse-10k.http', parseFixture(base, 10_000)],
    // Issue 23: memory that does not grow with the file (peak RSS of 100 … 100,000 GETs).
    get100: ['get-100.http', repeat(100, (i) => `### get ${i}\nGET ${base}/get\n`)],
    get10k: ['get-10k.http', repeat(10_000, (i) => `### get ${i}\nGET ${base}/get\n`)],
    get100k: ['get-100k.http', repeat(100_000, (i) => `### get ${i}\nGET ${base}/get\n`)],
    // reqflow test: one check per request.
    testOne: ['test-one.http', `GET ${base}/get\n\n?? status == 200\n`],
    testMany: ['test-1000.http', repeat(1000, (i) => `### get ${i}\nGET ${base}/get\n\n?? status == 200\n`)],
    // HTTP/2 in cleartext: the same GET, required by the request line.
    h2One: ['h2-one.http', `GET ${h2cBase}/get HTTP/2\n`],
    h2Batch: ['h2-batch.http', repeat(1000, (i) => `### get ${i}\nGET ${h2cBase}/get HTTP/2\n`)],
  };
  // reqflow test --jobs: 8 files of 250 requests to an endpoint that answers after 20 ms.
  for (let f = 1; f <= 8; f++) files[`jobs${f}`] = [join('jobs', `slow-${f}.http`), repeat(250, (i) => `### slow ${i}\nGET ${base}/slow?ms=20\n\n?? status == 200\n`)];
  mkdirSync(join(dir, 'jobs'), { recursive: true });
  const paths = {};
  for (const [key, [name, text]] of Object.entries(files)) {
    paths[key] = join(dir, name);
    writeFileSync(paths[key], text);
  }
  paths.jobs = join(dir, 'jobs');
  return paths;
}
