/**
 * plugins/auth-aws-sigv4: the worked example of AWS's SigV4 documentation, agreement with a
 * second implementation (`aws4`) over generated requests, and the plugin linked into reqflow
 * with the real `reqflow plugins link`, signing requests that a local server checks.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import aws4 from 'aws4';
import fc from 'fast-check';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expectCleanFailure } from './helpers/expect-error.js';
import { buildPlugin, pluginSandbox } from './helpers/plugins.js';
import { listenOnLoopback, readBody } from './servers/http-utils.js';

type SignModule = typeof import('../plugins/auth-aws-sigv4/src/sign.js');

/** AWS documentation, "Create a signed AWS API request" / the SigV4 test suite's IAM example. */
const DOC = {
  url: 'https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08',
  contentType: 'application/x-www-form-urlencoded; charset=utf-8',
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  amzDate: '20150830T123600Z',
  region: 'us-east-1',
  service: 'iam',
  signature: '5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7',
};
const DOC_AUTHORIZATION = `AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=${DOC.signature}`;

let pluginDir: string;
let sign: SignModule;

beforeAll(async () => {
  pluginDir = buildPlugin('auth-aws-sigv4');
  // The built package, as `reqflow plugins install` would load it.
  sign = (await import(pathToFileURL(join(pluginDir, 'dist', 'index.js')).href)) as SignModule;
});

describe('the documented example', () => {
  test('IAM ListUsers, 20150830T123600Z: signature 5d672d79…', async () => {
    const headers = await sign.sigV4Headers(
      { method: 'GET', url: DOC.url, headers: { 'Content-Type': DOC.contentType } },
      { credentials: { accessKeyId: DOC.accessKeyId, secretAccessKey: DOC.secretAccessKey }, region: DOC.region, service: DOC.service, date: sign.parseAmzDate(DOC.amzDate) as Date },
    );
    expect(headers).toEqual({ Host: 'iam.amazonaws.com', 'X-Amz-Date': DOC.amzDate, Authorization: DOC_AUTHORIZATION });
  });
});

/** Signs the same request with `aws4` and returns the headers it adds. */
function aws4Headers(request: { method: string; url: string; headers: Record<string, string>; body?: string }, scope: { region: string; service: string; accessKeyId: string; secretAccessKey: string; sessionToken?: string; amzDate: string }): Record<string, string> {
  const url = new URL(request.url);
  const options = {
    host: url.host,
    path: url.pathname + url.search,
    method: request.method,
    service: scope.service,
    region: scope.region,
    headers: { ...request.headers, 'X-Amz-Date': scope.amzDate } as Record<string, string>,
    ...(request.body !== undefined ? { body: request.body } : {}),
  };
  aws4.sign(options, { accessKeyId: scope.accessKeyId, secretAccessKey: scope.secretAccessKey, ...(scope.sessionToken ? { sessionToken: scope.sessionToken } : {}) });
  const added: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers)) if (request.headers[name] === undefined) added[name.toLowerCase()] = String(value);
  return added;
}

const lowerKeys = (headers: Record<string, string>): Record<string, string> => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

describe('agreement with aws4 over generated requests', () => {
  const segment = fc.stringMatching(/^[A-Za-z0-9_~!'()*@:$,;= é%-]{1,12}$/).filter((s) => s !== '.' && s !== '..');
  const queryValue = fc.stringMatching(/^[A-Za-z0-9 _~!'()*@:$,;/?=&é.-]{0,12}$/);
  const amzDate = fc.date({ min: new Date('2001-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, ''));
  const request = fc.record({
    method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD'),
    host: fc.constantFrom('iam.amazonaws.com', 'sts.us-east-1.amazonaws.com', 'example.execute-api.eu-west-3.amazonaws.com', 'localhost:4566', 'bucket.s3.amazonaws.com'),
    segments: fc.array(segment, { maxLength: 4 }),
    trailingSlash: fc.boolean(),
    query: fc.dictionary(fc.stringMatching(/^[A-Za-z0-9_.~-]{1,8}$/), queryValue, { maxKeys: 4 }),
    headers: fc.dictionary(fc.stringMatching(/^x-custom-[a-z]{1,6}$/), fc.stringMatching(/^[ -~]{0,16}$/).map((v) => v.trim()), { maxKeys: 3 }),
    body: fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
    service: fc.constantFrom('iam', 'sts', 'execute-api', 'dynamodb', 's3'),
    region: fc.constantFrom('us-east-1', 'eu-west-3', 'ap-southeast-2'),
    sessionToken: fc.option(fc.stringMatching(/^[A-Za-z0-9/+=]{16,40}$/), { nil: undefined }),
    amzDate,
  });

  test('Authorization, X-Amz-Date, X-Amz-Security-Token and X-Amz-Content-Sha256 are identical', async () => {
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const path = `/${r.segments.map(encodeURIComponent).join('/')}${r.trailingSlash && r.segments.length > 0 ? '/' : ''}`;
        const search = Object.entries(r.query).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
        const url = `https://${r.host}${path}${search ? `?${search}` : ''}`;
        const headers: Record<string, string> = { Host: new URL(url).host, ...r.headers };
        if (r.body !== undefined) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(r.body)) });
        const scope = { region: r.region, service: r.service, accessKeyId: 'AKIDEXAMPLE', secretAccessKey: DOC.secretAccessKey, amzDate: r.amzDate, ...(r.sessionToken ? { sessionToken: r.sessionToken } : {}) };
        const ours = await sign.sigV4Headers(
          { method: r.method, url, headers, ...(r.body !== undefined ? { body: r.body } : {}) },
          { credentials: { accessKeyId: scope.accessKeyId, secretAccessKey: scope.secretAccessKey, ...(r.sessionToken ? { sessionToken: r.sessionToken } : {}) }, region: r.region, service: r.service, date: sign.parseAmzDate(r.amzDate) as Date },
        );
        const theirs = aws4Headers({ method: r.method, url, headers, ...(r.body !== undefined ? { body: r.body } : {}) }, scope);
        expect(lowerKeys(ours)).toEqual(theirs);
      }),
      { numRuns: 400 },
    );
  });
});

describe('linked into reqflow', () => {
  const sandbox = pluginSandbox();
  const received: Array<{ url: string; headers: IncomingHttpHeaders; body: string }> = [];
  let server: Server;
  let base: string;

  beforeAll(async () => {
    // Answers 200 when aws4, given the secret of the access key the request names, computes
    // the same Authorization for the request as received; 403 otherwise (as AWS does).
    const secrets: Record<string, string> = { AKIDEXAMPLE: DOC.secretAccessKey, AKIDLOCAL: 'local-secret-key-0123456789' };
    server = createServer((req, res) => {
      void readBody(req).then((body) => {
        received.push({ url: req.url ?? '', headers: req.headers, body });
        const authorization = String(req.headers.authorization);
        const [, accessKeyId = '', region, service] = /Credential=([^/]+)\/\d{8}\/([^/]+)\/([^/]+)\/aws4_request/.exec(authorization) ?? [];
        const signedHeaders = /SignedHeaders=([^,]+)/.exec(authorization)?.[1]?.split(';') ?? [];
        const headers: Record<string, string> = {};
        for (const name of signedHeaders) headers[name] = String(req.headers[name] ?? '');
        // aws4 adds Content-Length to a request with a body; sign only what the client signed.
        const options = { host: String(req.headers.host), path: req.url ?? '/', method: req.method ?? 'GET', service, region, headers, extraHeadersToIgnore: { 'content-length': true }, ...(body ? { body } : {}) };
        aws4.sign(options, { accessKeyId, secretAccessKey: secrets[accessKeyId] ?? '', sessionToken: String(req.headers['x-amz-security-token'] ?? '') || undefined });
        const valid = (options.headers as Record<string, string>).Authorization === req.headers.authorization;
        res.writeHead(valid ? 200 : 403, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ valid, signedHeaders }));
      });
    });
    base = `http://127.0.0.1:${await listenOnLoopback(server)}`;
    const link = await sandbox.cli(['plugins', 'link', pluginDir, '--no-install']);
    if (link.code !== 0) throw new Error(link.stderr);
    sandbox.write(
      '.profiles.json',
      JSON.stringify([
        { name: 'doc', variables: { awsAccessKeyId: DOC.accessKeyId, awsSecretAccessKey: DOC.secretAccessKey, awsRegion: DOC.region, awsService: DOC.service } },
        { name: 'local', variables: { awsAccessKeyId: 'AKIDLOCAL', awsSecretAccessKey: 'local-secret-key-0123456789', awsRegion: 'eu-west-3', awsService: 'execute-api' } },
        { name: 'incomplete', variables: { awsAccessKeyId: 'AKIDLOCAL', awsSecretAccessKey: 'local-secret-key-0123456789', awsService: 'execute-api' } },
      ]),
    );
    // The documented request, sent to the local server with the documented Host header.
    sandbox.write('doc.http', `# @auth aws-sigv4\nGET ${base}/?Action=ListUsers&Version=2010-05-08\nHost: iam.amazonaws.com\nContent-Type: ${DOC.contentType}\nX-Amz-Date: ${DOC.amzDate}\n`);
    sandbox.write('put.http', `# @auth aws-sigv4\nPUT ${base}/prod/items/a%20b?limit=5&tag=x%2Fy\nContent-Type: application/json\n\n{"name": "widget"}\n`);
  }, 60_000);

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    sandbox.cleanup();
  });

  test('the documented request goes out with the documented Authorization header', async () => {
    const result = await sandbox.cli(['run', 'doc.http', '-p', 'doc', '-o', 'json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 200, body: { valid: true, signedHeaders: ['content-type', 'host', 'x-amz-date'] } });
    expect(received.at(-1)?.headers.authorization).toBe(DOC_AUTHORIZATION);
    expect(received.at(-1)?.headers['x-amz-date']).toBe(DOC.amzDate);
  });

  test('a signed PUT with body, query and session token passes the server check', async () => {
    const result = await sandbox.cli(['run', 'put.http', '-p', 'local', '-e', 'awsSessionToken=FQoGZXIvYXdzEXAMPLETOKEN', '-o', 'json']);
    expect(result.code).toBe(0);
    const record = JSON.parse(result.stdout) as { status: number; body: { valid: boolean; signedHeaders: string[] }; request: { headers: Record<string, string> } };
    expect(record.status).toBe(200);
    expect(record.body).toEqual({ valid: true, signedHeaders: ['content-type', 'host', 'x-amz-date', 'x-amz-security-token'] });
    expect(received.at(-1)?.headers['x-amz-security-token']).toBe('FQoGZXIvYXdzEXAMPLETOKEN');
    // Secrets stay out of the output: the Authorization and token headers are masked.
    expect(result.stdout).not.toContain('FQoGZXIvYXdzEXAMPLETOKEN');
    expect(result.stdout).not.toContain('local-secret-key-0123456789');
    expect(record.request.headers.Authorization).toBe('•••');
  });

  test('a wrong secret is refused by the server: exit 1', async () => {
    const result = await sandbox.cli(['run', 'put.http', '-p', 'local', '-e', 'awsSecretAccessKey=not-the-key', '-o', 'json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 403, body: { valid: false } });
  });

  test('a missing region is exit 3 naming the variable', async () => {
    const result = await sandbox.cli(['run', 'put.http', '-p', 'incomplete']);
    expectCleanFailure(result, { code: 3, message: /unknown variable "awsRegion"/, hint: /-e awsRegion=value/ });
  });
});
