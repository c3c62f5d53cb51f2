import type { ChildProcess } from 'node:child_process';
import { installWideChars, type BlessedUnicode } from './wide-chars.js';

/**
 * The part of neo-blessed the UI uses, typed (the package ships no types). neo-blessed is
 * imported only here, lazily: a plain `reqflow run` never loads it.
 */

export interface Key {
  name?: string;
  /** `C-c`, `S-tab`, `escape`, `j`, ... */
  full: string;
  sequence?: string;
  ctrl: boolean;
  meta: boolean;
  shift: boolean;
}

type Position = number | string;

interface ElementOptions {
  parent?: Screen | Element;
  top?: Position;
  left?: Position;
  width?: Position;
  height?: Position;
  label?: string;
  content?: string;
  tags?: boolean;
  hidden?: boolean;
  border?: { type: 'line' };
  scrollable?: boolean;
  alwaysScroll?: boolean;
  scrollbar?: { ch: string; style?: Record<string, unknown> };
  wrap?: boolean;
  style?: Record<string, unknown>;
  items?: string[];
  padding?: { left?: number; right?: number; top?: number; bottom?: number };
}

export interface Element {
  top: Position;
  left: Position;
  width: Position;
  height: Position;
  hidden: boolean;
  style: { border?: { fg?: string; bold?: boolean }; [key: string]: unknown };
  setContent(text: string): void;
  getContent(): string;
  setLabel(text: string): void;
  show(): void;
  hide(): void;
  setFront(): void;
  destroy(): void;
  scroll(offset: number): void;
  scrollTo(offset: number): void;
  getScroll(): number;
  getScrollHeight(): number;
  resetScroll(): void;
}

export interface ListElement extends Element {
  selected: number;
  setItems(items: string[]): void;
  select(index: number): void;
}

export interface Screen {
  readonly width: number;
  readonly height: number;
  /** The pending screen buffer: rows of `[attribute, character]` cells. */
  readonly lines: Array<Array<[number, string]>>;
  readonly destroyed?: boolean;
  program: { output: NodeJS.WritableStream; flush(): void; _write?(text: string): void };
  /** The terminal's terminfo: `colors` is how many it draws (-1 when it names none). */
  readonly tput: { readonly colors: number };
  render(): void;
  destroy(): void;
  /** Runs a program on the terminal (an editor): the screen is suspended until it exits. */
  exec(file: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string }, callback: (error: Error | null, ok: boolean) => void): ChildProcess;
  on(event: 'keypress', listener: (ch: string | undefined, key: Key) => void): void;
  on(event: 'resize' | 'destroy', listener: () => void): void;
  on(event: 'mouse', listener: (data: { action: string; x: number; y: number }) => void): void;
  enableMouse(): void;
  removeAllListeners(event?: string): void;
}

interface ScreenOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  terminal?: string;
  fullUnicode?: boolean;
  forceUnicode?: boolean;
  smartCSR?: boolean;
  resizeTimeout?: number;
  warnings?: boolean;
  title?: string;
  autoPadding?: boolean;
}

export interface Blessed {
  unicode: BlessedUnicode;
  screen(options: ScreenOptions): Screen;
  box(options: ElementOptions): Element;
  list(options: ElementOptions): ListElement;
}

export async function loadBlessed(): Promise<Blessed> {
  const module = (await import('neo-blessed')) as unknown as { default?: Blessed } & Blessed;
  const blessed = module.default ?? module;
  installWideChars(blessed.unicode);
  return blessed;
}

/** The screen as plain text, one string per row (for tests and the smoke script's checks). */
export function screenText(screen: Screen): string {
  return screen.lines.map((row) => row.map((cell) => cell[1]).join('').replace(/\s+$/, '')).join('\n');
}
