import { Int32List } from '../core/int32-list.js';

/** Names joined per string: few strings (one header each), and `get` slices a short one. */
const CHUNK = 1024;

/**
 * The names of a file's requests, compact for a file of 100,000 (issue 23): the characters of
 * every 1,024 names joined into one string, where each name ends kept in an Int32List — about
 * the name's length plus 4 bytes, not a string object (32+ bytes) and a Map entry (~36 bytes)
 * a name. `indexOf` hashes positions into an Int32Array the first time it is asked.
 */
export class NameTable {
  private readonly chunks: string[] = [];
  private pending: string[] = [];
  /** Where name `i` ends in its chunk; it starts where name `i − 1` ends (0 for the first of a chunk). */
  private readonly ends = new Int32List();
  /** Open addressing: position + 1 of a name, 0 for an empty slot; made by the first `indexOf`. */
  private slots: Int32Array | undefined;

  static of(names: Iterable<string>): NameTable {
    const table = new NameTable();
    for (const name of names) table.add(name);
    return table;
  }

  get count(): number {
    return this.ends.length;
  }

  add(name: string): void {
    const index = this.ends.length;
    this.ends.push(this.startOf(index) + name.length);
    this.pending.push(name);
    if (this.pending.length === CHUNK) {
      this.chunks.push(this.pending.join(''));
      this.pending = [];
    }
    this.slots = undefined; // hashed again when next asked
  }

  get(index: number): string {
    const chunk = this.chunks[Math.floor(index / CHUNK)];
    return chunk === undefined ? (this.pending[index % CHUNK] as string) : chunk.slice(this.startOf(index), this.ends.at(index));
  }

  /** The position of the first name equal to `name`, −1 when there is none. */
  indexOf(name: string): number {
    const slots = (this.slots ??= this.hashAll());
    const mask = slots.length - 1;
    for (let slot = hash(name) & mask; ; slot = (slot + 1) & mask) {
      const stored = slots[slot] as number;
      if (stored === 0) return -1;
      if (this.equals(stored - 1, name)) return stored - 1;
    }
  }

  private startOf(index: number): number {
    return index % CHUNK === 0 ? 0 : this.ends.at(index - 1);
  }

  private equals(index: number, name: string): boolean {
    const chunk = this.chunks[Math.floor(index / CHUNK)];
    if (chunk === undefined) return this.pending[index % CHUNK] === name;
    const start = this.startOf(index);
    return this.ends.at(index) - start === name.length && chunk.startsWith(name, start);
  }

  /** Every position, hashed by its name; a repeated name keeps its first position. */
  private hashAll(): Int32Array {
    let size = 16;
    while (size < this.count * 2) size *= 2;
    const slots = new Int32Array(size);
    const mask = size - 1;
    for (let index = 0; index < this.count; index++) {
      const name = this.get(index);
      let slot = hash(name) & mask;
      while (slots[slot] !== 0 && !this.equals((slots[slot] as number) - 1, name)) slot = (slot + 1) & mask;
      if (slots[slot] === 0) slots[slot] = index + 1;
    }
    return slots;
  }
}

/** FNV-1a of the name's UTF-16 units, as 32 bits. */
function hash(name: string): number {
  let value = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) value = Math.imul(value ^ name.charCodeAt(i), 0x01000193);
  return value >>> 0;
}
