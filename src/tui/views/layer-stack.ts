import type { Layer } from './overlay.js';

/** The overlays open on the main screen, the top one taking the keys. */
export class LayerStack {
  private readonly layers: Layer[] = [];

  get top(): Layer | undefined {
    return this.layers[this.layers.length - 1];
  }

  push(layer: Layer): void {
    this.layers.push(layer);
    layer.relayout();
  }

  /** Takes a layer off (wherever it is) and destroys it. */
  remove(layer: Layer): void {
    const index = this.layers.indexOf(layer);
    if (index >= 0) this.layers.splice(index, 1);
    layer.destroy();
  }

  has(layer: Layer): boolean {
    return this.layers.includes(layer);
  }

  relayout(): void {
    for (const layer of this.layers) layer.relayout();
  }

  destroyAll(): void {
    for (const layer of this.layers.splice(0)) layer.destroy();
  }
}
