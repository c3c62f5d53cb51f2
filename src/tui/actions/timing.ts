import type { ResponseCapture } from '../response-capture.js';
import { colors } from '../views/format.js';
import { TextOverlay } from '../views/overlay.js';
import type { AppHost } from './host.js';

const ms = (value: number): string => (value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(1)} ms`);

/** The phases of the last response, as far as they were measured. */
function timingLines(capture: ResponseCapture): string[] {
  const meta = capture.meta;
  if (!meta) return [];
  const { times } = capture;
  const rows: Array<[string, number | undefined]> = [['first byte (sent → headers)', meta.durationMs]];
  if (times.head !== undefined && times.body !== undefined) rows.push(['download (headers → last byte)', Math.max(0, times.body - times.head)]);
  if (times.done !== undefined && times.body !== undefined) rows.push(['scripts, checks, display', Math.max(0, times.done - times.body)]);
  if (times.done !== undefined) rows.push(['total (as the UI saw it)', times.done - times.started]);
  const width = Math.max(...rows.map(([name]) => name.length)) + 2;
  return [
    ...rows.map(([name, value]) => `${name.padEnd(width)}${value === undefined ? '—' : ms(value)}`),
    '',
    colors.dim('DNS, connect and TLS are not measured separately yet: they are part of the first byte.'),
  ];
}

/** `t`: the timing breakdown of the response shown. */
export function showTiming(app: AppHost, capture: ResponseCapture | undefined): void {
  if (!capture?.meta) return app.say('no response yet: send a request first', 'warn');
  app.open(new TextOverlay(app, 'Timing', timingLines(capture)));
}
