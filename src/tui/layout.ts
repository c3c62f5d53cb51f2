import type { Blessed, Element, ListElement, Screen } from './blessed.js';

/** The four areas of the main screen, and the notice shown instead when the terminal is too small. */
export interface Panes {
  tree: ListElement;
  request: Element;
  response: Element;
  status: Element;
  tooSmall: Element;
}

/** The smallest terminal the panes are drawn on. */
const MIN_SIZE = { width: 80, height: 24 } as const;

export type PaneName = 'tree' | 'request' | 'response';

/** Builds the request tree, the request and response panes and the status bar. */
export function createPanes(blessed: Blessed, screen: Screen): Panes {
  // `label` is styled in place by showFocus (neo-blessed keeps a reference to it).
  const pane = (label: string): Element =>
    blessed.box({ parent: screen, label: ` ${label} `, border: { type: 'line' }, tags: false, scrollable: true, alwaysScroll: true, scrollbar: { ch: ' ', style: { inverse: true } }, style: { label: {} } });
  return {
    tree: blessed.list({ parent: screen, label: ' Requests ', border: { type: 'line' }, tags: false, style: { selected: { inverse: true }, label: {} } }),
    request: pane('Request'),
    response: pane('Response'),
    status: blessed.box({ parent: screen, height: 1, tags: false, style: { bg: 'blue', fg: 'white' } }),
    tooSmall: blessed.box({ parent: screen, hidden: true, tags: false, content: '' }),
  };
}

/** Sizes the panes to the screen: the tree on the left, request above response; full screen shows the response alone. */
export function layoutPanes(panes: Panes, screen: Screen, fullscreen: boolean): void {
  const { width, height } = screen;
  const small = width < MIN_SIZE.width || height < MIN_SIZE.height;
  for (const element of [panes.tree, panes.request, panes.response, panes.status]) element[small ? 'hide' : 'show']();
  if (small) {
    // Panes squeezed below this are unreadable: say what is needed instead.
    const lines = [`terminal too small (need ${MIN_SIZE.width}×${MIN_SIZE.height})`, `now ${width}×${height}`, 'q quits'];
    Object.assign(panes.tooSmall, { left: 0, top: Math.max(0, Math.floor((height - lines.length) / 2)), width, height: Math.min(height, lines.length) });
    panes.tooSmall.setContent(lines.map((line) => fitCentre(line, width)).join('\n'));
    panes.tooSmall.show();
    return;
  }
  panes.tooSmall.hide();
  const treeWidth = Math.max(22, Math.min(44, Math.floor(width * 0.34)));
  const body = Math.max(3, height - 1);
  const requestHeight = Math.max(5, Math.min(Math.floor(body * 0.4), 14));
  if (fullscreen) {
    panes.tree.hide();
    panes.request.hide();
    Object.assign(panes.response, { left: 0, top: 0, width, height: body });
  } else {
    panes.tree.show();
    panes.request.show();
    Object.assign(panes.tree, { left: 0, top: 0, width: treeWidth, height: body });
    Object.assign(panes.request, { left: treeWidth, top: 0, width: width - treeWidth, height: requestHeight });
    Object.assign(panes.response, { left: treeWidth, top: requestHeight, width: width - treeWidth, height: body - requestHeight });
  }
  Object.assign(panes.status, { left: 0, top: body, width });
}

/** A line centred in `width` columns (cut when longer). */
function fitCentre(line: string, width: number): string {
  const cut = [...line].slice(0, width).join('');
  return `${' '.repeat(Math.max(0, Math.floor((width - [...cut].length) / 2)))}${cut}`;
}

/**
 * The focused pane: a bold cyan border and its title in reverse video (visible without
 * colours, NO_COLOR). The others keep the terminal's own foreground, visible on dark and light
 * themes alike.
 */
export function showFocus(panes: Panes, focus: PaneName): void {
  const all: Array<[PaneName, Element]> = [
    ['tree', panes.tree],
    ['request', panes.request],
    ['response', panes.response],
  ];
  for (const [name, element] of all) {
    const focused = name === focus;
    element.style.border = focused ? { fg: 'cyan', bold: true } : { fg: 'default' };
    Object.assign(element.style.label as Record<string, unknown>, { inverse: focused, bold: focused });
  }
}

/** Tab and S-Tab: requests → request → response (only the response in full screen). */
export function nextFocus(focus: PaneName, fullscreen: boolean, forward: boolean): PaneName {
  const order: PaneName[] = fullscreen ? ['response'] : ['tree', 'request', 'response'];
  const at = order.indexOf(focus);
  return order[(at + (forward ? 1 : order.length - 1)) % order.length] ?? 'tree';
}

/** Rows a page key moves in the focused pane. */
export function pageSize(panes: Panes, focus: PaneName): number {
  return Math.max(1, ((focus === 'tree' ? panes.tree.height : focus === 'request' ? panes.request.height : panes.response.height) as number) - 3);
}
