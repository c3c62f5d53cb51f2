import type { Blessed, Element, ListElement, Screen } from './blessed.js';

/** The four areas of the main screen. */
export interface Panes {
  tree: ListElement;
  request: Element;
  response: Element;
  status: Element;
}

export type PaneName = 'tree' | 'request' | 'response';

/** Builds the request tree, the request and response panes and the status bar. */
export function createPanes(blessed: Blessed, screen: Screen): Panes {
  const pane = (label: string): Element =>
    blessed.box({ parent: screen, label: ` ${label} `, border: { type: 'line' }, tags: false, scrollable: true, alwaysScroll: true, scrollbar: { ch: ' ', style: { bg: 'grey' } } });
  return {
    tree: blessed.list({ parent: screen, label: ' Requests ', border: { type: 'line' }, tags: false, style: { selected: { inverse: true } } }),
    request: pane('Request'),
    response: pane('Response'),
    status: blessed.box({ parent: screen, height: 1, tags: false, style: { bg: 'blue', fg: 'white' } }),
  };
}

/** Sizes the panes to the screen: the tree on the left, request above response; full screen shows the response alone. */
export function layoutPanes(panes: Panes, screen: Screen, fullscreen: boolean): void {
  const { width, height } = screen;
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

/** The focused pane's border is cyan, the others grey. */
export function showFocus(panes: Panes, focus: PaneName): void {
  const all: Array<[PaneName, Element]> = [
    ['tree', panes.tree],
    ['request', panes.request],
    ['response', panes.response],
  ];
  for (const [name, element] of all) element.style.border = { fg: name === focus ? 'cyan' : 'grey' };
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
