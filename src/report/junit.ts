/**
 * `--report junit=PATH`: JUnit XML as GitLab, Jenkins and GitHub test reporters read it (valid
 * against Jenkins' junit-10.xsd). One `<testsuite>` per file, one `<testcase>` per check
 * (`??` line, `client.test`, expectation) with its file and line; a request without checks is
 * one test case of its own; a request error is an `<error>`. Written with xmlbuilder2, names,
 * files, messages and texts with their controls made visible.
 */
import { hostname } from 'node:os';
import type { TestResult } from '../core/model.js';
import type { FileResult, RequestResult, RunResult } from './test-results.js';
import { totalsOf } from './test-results.js';
import { visible, visibleText } from './render/visible.js';

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

/**
 * Attribute values with what a terminal acts on made visible: XML holds C1 controls, bidi
 * overrides and a bare CR as they are (xmlbuilder2 replaces only what XML cannot hold, ESC as
 * U+FFFD), and CI tools print names, files and messages to a terminal or a log.
 */
function shown(attributes: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(attributes).map(([name, value]) => [name, visible(value)]));
}

interface Case {
  name: string;
  classname: string;
  file: string;
  line: number;
  timeMs: number;
  failure?: { message: string; type: string; text: string };
  error?: { message: string; type: string; text: string };
}

function exchangeText(request: RequestResult): string {
  const lines = [`${request.method} ${request.url}`];
  if (request.status !== undefined) lines.push(`→ ${request.status}`);
  const body = request.exchange?.response?.body;
  if (body !== undefined) lines.push('', body);
  return lines.join('\n');
}

function casesOf(file: FileResult, request: RequestResult): Case[] {
  const own = request.file ?? file.file;
  const base = { classname: `${own}.${request.name}`, file: own, line: request.line };
  if (request.error) {
    return [{ ...base, name: request.name, timeMs: request.timings.total, error: { message: request.error.message, type: `exit ${request.error.exitCode}`, text: [request.error.message, request.error.hint ?? ''].filter(Boolean).join('\n') } }];
  }
  if (request.tests.length === 0) {
    const failed = request.exitCode !== 0;
    return [{ ...base, name: request.name, timeMs: request.timings.total, ...(failed ? { failure: { message: `status ${request.status ?? '?'}`, type: 'status', text: exchangeText(request) } } : {}) }];
  }
  return request.tests.map((test: TestResult, index): Case => {
    const detail = test.passed ? undefined : { message: test.message ?? 'failed', type: test.error ? 'error' : 'assertion', text: `${test.file}:${test.line}: ${test.name}\n${test.message ?? ''}\n\n${exchangeText(request)}` };
    return {
      ...base,
      name: `${request.name} › ${test.name}`,
      file: test.file,
      line: test.line,
      timeMs: index === 0 ? request.timings.total : 0,
      ...(detail ? (test.error ? { error: detail } : { failure: detail }) : {}),
    };
  });
}

export async function junitXml(run: RunResult): Promise<string> {
  const { create } = await import('xmlbuilder2');
  const totals = totalsOf(run);
  const suites = run.files.map((file) => {
    const cases = file.requests.flatMap((request) => casesOf(file, request));
    if (file.error) cases.push({ name: file.file, classname: file.file, file: file.file, line: 1, timeMs: 0, error: { message: file.error.message, type: `exit ${file.error.exitCode}`, text: [file.error.message, file.error.hint ?? ''].filter(Boolean).join('\n') } });
    return { file, cases };
  });
  const count = (cases: Case[], key: 'failure' | 'error'): number => cases.filter((c) => c[key] !== undefined).length;
  const all = suites.flatMap((suite) => suite.cases);
  const root = create({ version: '1.0', encoding: 'UTF-8', invalidCharReplacement: '\uFFFD' }).ele('testsuites', {
    name: 'reqflow',
    tests: String(all.length),
    failures: String(count(all, 'failure')),
    errors: String(count(all, 'error')),
    time: seconds(run.durationMs),
  });
  root.com(` ${totals.requests} requests: ${totals.passed} passed, ${totals.failed} failed, ${totals.errors} errors `);
  for (const { file, cases } of suites) {
    const suite = root.ele('testsuite', shown({
      name: file.file,
      tests: String(cases.length),
      failures: String(count(cases, 'failure')),
      errors: String(count(cases, 'error')),
      skipped: '0',
      time: seconds(file.durationMs),
      timestamp: run.startedAt,
      hostname: hostname(),
      file: file.file,
    }));
    for (const c of cases) {
      const testcase = suite.ele('testcase', shown({ name: c.name, classname: c.classname, file: c.file, line: String(c.line), time: seconds(c.timeMs) }));
      // Text keeps its lines (CRLF ones too, as XML reads them back), every other control made visible.
      if (c.failure) testcase.ele('failure', shown({ message: c.failure.message, type: c.failure.type })).txt(visibleText(c.failure.text));
      if (c.error) testcase.ele('error', shown({ message: c.error.message, type: c.error.type })).txt(visibleText(c.error.text));
    }
  }
  return root.end({ prettyPrint: true });
}
