/**
 * Drawing helpers of the terminal UI without a screen: character widths as terminals draw
 * them, and what a mouse event does where it lands.
 */
import { describe, expect, it } from '@jest/globals';
import type { Element, ListElement } from '../src/tui/blessed.js';
import type { Panes } from '../src/tui/layout.js';
import { mouseAction } from '../src/tui/mouse.js';
import { displayWidth, markWide } from '../src/tui/wide-chars.js';

describe('character widths', () => {
  it('counts emoji and East Asian wide characters two columns, the rest one', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('😀✅中')).toBe(6);
    expect(displayWidth('❤️')).toBe(1); // text presentation once the variation selector is dropped
    expect(displayWidth('👍🏽')).toBe(2); // the skin tone is drawn apart: dropped
  });

  it('lays wide characters out with a spacer cell, joined sequences as their parts', () => {
    expect(markWide('a😀b')).toBe('a😀\u0003b');
    expect(markWide('中x')).toBe('中\u0003x');
    expect(markWide('👨‍👩')).toBe('👨\u0003👩\u0003');
    expect(markWide('plain ascii')).toBe('plain ascii');
  });
});

describe('mouse', () => {
  const box = (left: number, top: number, width: number, height: number, extra: object = {}): Element => ({ left, top, width, height, hidden: false, ...extra }) as unknown as Element;
  const panes = {
    tree: box(0, 0, 26, 23, { childBase: 4 }) as ListElement,
    request: box(26, 0, 54, 9),
    response: box(26, 9, 54, 14),
  } as Panes;

  it('a click on a tree row selects that row, counting the rows scrolled off', () => {
    expect(mouseAction(panes, { action: 'mousedown', x: 5, y: 1 })).toEqual({ kind: 'select', row: 4 });
    expect(mouseAction(panes, { action: 'mousedown', x: 5, y: 3 })).toEqual({ kind: 'select', row: 6 });
    expect(mouseAction(panes, { action: 'mousedown', x: 5, y: 0 })).toEqual({ kind: 'focus', pane: 'tree' }); // the border
  });

  it('a click elsewhere focuses the pane; the wheel scrolls the pane under the pointer', () => {
    expect(mouseAction(panes, { action: 'mousedown', x: 40, y: 12 })).toEqual({ kind: 'focus', pane: 'response' });
    expect(mouseAction(panes, { action: 'wheeldown', x: 40, y: 3 })).toEqual({ kind: 'scroll', pane: 'request', delta: 3 });
    expect(mouseAction(panes, { action: 'wheelup', x: 3, y: 3 })).toEqual({ kind: 'scroll', pane: 'tree', delta: -1 });
    expect(mouseAction(panes, { action: 'mouseup', x: 40, y: 12 })).toBeUndefined();
    expect(mouseAction(panes, { action: 'mousedown', x: 79, y: 23 })).toBeUndefined(); // the status bar
  });
});
