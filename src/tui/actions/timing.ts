import type { ConnectionPhases } from '../../core/http/outgoing-request.js';
import type { ResponseCapture } from '../response-capture.js';
import { colors } from '../views/format.js';
import { TextOverlay } from '../views/overlay.js';
import type { AppHost } from './host.js';

const ms = (value: number): string => (value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(1)} ms`);

/** The connection's phases, each as its own duration: DNS, TCP connect, TLS, then waiting for the headers. */
function phaseRows(phases: ConnectionPhases): Array<[string, number | undefined]> {
  if (phases.reused) return [['connection', undefined], ['  (kept alive from an earlier request: no DNS, connect or TLS)', undefined], ['waiting (sent → headers)', phases.firstByte]];
  const connected = phases.tls ?? phases.connect ?? phases.dns ?? 0;
  const rows: Array<[string, number | undefined]> = [];
  if (phases.dns !== undefined) rows.push(['DNS lookup', phases.dns]);
  if (phases.connect !== undefined) rows.push(['TCP connect', phases.connect - (phases.dns ?? 0)]);
  if (phases.tls !== undefined && phases.connect !== undefined) rows.push(['TLS handshake', phases.tls - phases.connect]);
  rows.push(['waiting (sent → headers)', phases.firstByte - connected]);
  return rows;
}

/** The phases of the last response, as far as they were measured. */
function timingLines(capture: ResponseCapture): string[] {
  const meta = capture.meta;
  if (!meta) return [];
  const { times, phases } = capture;
  const rows: Array<[string, number | undefined]> = phases ? phaseRows(phases) : [];
  rows.push(['first byte (start → headers)', meta.durationMs]);
  if (times.head !== undefined && times.body !== undefined) rows.push(['download (headers → last byte)', Math.max(0, times.body - times.head)]);
  if (times.done !== undefined && times.body !== undefined) rows.push(['scripts, checks, display', Math.max(0, times.done - times.body)]);
  if (times.done !== undefined) rows.push(['total (as the UI saw it)', times.done - times.started]);
  const width = Math.max(...rows.map(([name]) => name.length)) + 2;
  const lines = rows.map(([name, value]) => (value === undefined ? colors.dim(name) : `${name.padEnd(width)}${ms(value)}`));
  if (!phases) lines.push('', colors.dim('DNS, connect and TLS are measured for HTTP/1.1; over HTTP/2 they are part of the first byte.'));
  return lines;
}

/** `t`: the timing breakdown of the response shown. */
export function showTiming(app: AppHost, capture: ResponseCapture | undefined): void {
  if (!capture?.meta) return app.say('no response yet: send a request first', 'warn');
  app.open(new TextOverlay(app, 'Timing', timingLines(capture)));
}
