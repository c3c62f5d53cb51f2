import type { Layer } from './overlay.js';

/** The windows open over the main screen; the top one takes the keys. */
export class LayerStack {
  private readonly layers: Layer[] = [];

  get top(): Layer | undefined {
    return this.layers[this.layers.length - 1];
  }

  open(layer: Layer): void {
    this.layers.push(layer);
    layer.relayout();
  }

  close(layer: Layer): void {
    const index = this.layers.indexOf(layer);
    if (index >= 0) this.layers.splice(index, 1);
    layer.destroy();
  }

  has(layer: Layer): boolean {
    return this.layers.includes(layer);
  }

  /** After a resize: each window fits again. */
  relayout(): void {
    for (const layer of this.layers) layer.relayout();
  }

  closeAll(): void {
    for (const layer of this.layers.splice(0)) layer.destroy();
  }
}
