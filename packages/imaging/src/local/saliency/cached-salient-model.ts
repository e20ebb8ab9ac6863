import { createHash } from 'node:crypto';
import type { SalientObjectModel } from './salient-model.js';

/**
 * Masks remembered by default: at 768² one is 2.4 MB, so 16 hold under 40 MB. Enough that the
 * whole-photo mask of an upload a seller is still tapping survives the uploads other sellers make
 * meanwhile (each analysis adds one or two), so a tap pays only for the windows around it.
 */
const RECENT_MASKS = 16;

/**
 * Remembers the last masks by the input's content. An upload is analysed and then cut out,
 * often from two engine threads; both calls prepare the same pixels, so the second one costs a
 * hash instead of a second inference; a tap on it later runs the whole photo again only if its
 * mask was forgotten.
 */
export class CachedSalientModel implements SalientObjectModel {
  private readonly recent = new Map<string, Promise<Float32Array>>();

  constructor(
    private readonly model: SalientObjectModel,
    private readonly capacity = RECENT_MASKS,
  ) {}

  get description() {
    return this.model.description;
  }
  get inputWidth() {
    return this.model.inputWidth;
  }
  get inputHeight() {
    return this.model.inputHeight;
  }
  get mean() {
    return this.model.mean;
  }
  get std() {
    return this.model.std;
  }

  async predict(input: Float32Array): Promise<Float32Array> {
    const key = createHash('sha1')
      .update(new Uint8Array(input.buffer, input.byteOffset, input.byteLength))
      .digest('hex');
    let mask = this.recent.get(key);
    if (!mask) {
      mask = this.model.predict(input);
      this.recent.set(key, mask);
      // A failure is not remembered: the next call tries again.
      mask.catch(() => this.recent.delete(key));
      if (this.recent.size > this.capacity) this.recent.delete(this.recent.keys().next().value!);
    } else {
      // Most recently used last, so the oldest is evicted first.
      this.recent.delete(key);
      this.recent.set(key, mask);
    }
    // Callers own (and may transfer) what they get: each gets its own copy.
    return (await mask).slice();
  }
}
