import type { Element } from './blessed.js';
import type { PaneName, Panes } from './layout.js';

/** A mouse event as neo-blessed reports it (0-based cells). */
export interface MouseEvent {
  action: string;
  x: number;
  y: number;
}

/** What a click or the wheel does: select a tree row, scroll a pane, focus a pane. */
export type MouseAction = { kind: 'select'; row: number } | { kind: 'scroll'; pane: PaneName; delta: number } | { kind: 'focus'; pane: PaneName };

/** Rows the wheel scrolls a pane by. */
const WHEEL_ROWS = 3;

const num = (value: unknown): number => (typeof value === 'number' ? value : 0);

function inside(element: Element, x: number, y: number): boolean {
  const left = num(element.left);
  const top = num(element.top);
  return !element.hidden && x >= left && x < left + num(element.width) && y >= top && y < top + num(element.height);
}

/**
 * Maps a mouse event on the main screen to an action: a click on a request row selects it, a
 * click elsewhere in a pane focuses it, the wheel scrolls the pane under the pointer (in the
 * tree it moves the selection).
 */
export function mouseAction(panes: Panes, event: MouseEvent): MouseAction | undefined {
  const order: Array<[PaneName, Element]> = [
    ['tree', panes.tree],
    ['request', panes.request],
    ['response', panes.response],
  ];
  const hit = order.find(([, element]) => inside(element, event.x, event.y))?.[0];
  if (!hit) return undefined;
  if (event.action === 'wheelup' || event.action === 'wheeldown') return { kind: 'scroll', pane: hit, delta: (event.action === 'wheelup' ? -1 : 1) * (hit === 'tree' ? 1 : WHEEL_ROWS) };
  if (event.action !== 'mousedown') return undefined;
  if (hit !== 'tree') return { kind: 'focus', pane: hit };
  // Inside the border: the row under the pointer, counting rows scrolled off the top.
  const offset = event.y - num(panes.tree.top) - 1;
  const base = (panes.tree as unknown as { childBase?: number }).childBase ?? 0;
  return offset >= 0 && offset < num(panes.tree.height) - 2 ? { kind: 'select', row: base + offset } : { kind: 'focus', pane: 'tree' };
}
