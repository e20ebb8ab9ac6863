import type { RawImage } from '../../input/normalise-input.js';
import type { SalientObjectModel } from '../saliency/salient-model.js';
import { boundingBox, grow } from './mask-ops.js';
import { chosen, SURE_OBJECT, type Picked } from './picked-object.js';
import { boxInPhoto, predictSaliency, salientGroups, type SaliencyMap, type SalientGroup } from './saliency-map.js';

/** The closer look's window: the object's box grown by this share of its size on each side. */
const CLOSER_MARGIN = 0.3;
/**
 * A closer look must keep this share of what the first look was sure of, or it lost the product.
 * Not all of it: the first look is sometimes sure of the fused stone too (a shoe on pebbles: 75%).
 */
const KEEPS_SURE = 0.6;

/**
 * Seen across the whole photo, a small product can fuse with a stone or cushion just behind it,
 * which the model marks half-sure (a pebble against a shoe's heel). Run again on a window around
 * the object, where the product is the obvious subject, the model draws it alone: the closer
 * object is taken when it keeps what the first look was sure of and is surer than it.
 */
export async function lookCloserIfUnsure(model: SalientObjectModel, image: RawImage, first: Picked): Promise<Picked> {
  if (first.confidence >= SURE_OBJECT) return first;
  const found = boundingBox(first.members, first.map.width, first.map.height);
  if (!found) return first;
  const box = boxInPhoto(first.map, found);
  const window = grow(box, Math.round(CLOSER_MARGIN * Math.max(box.width, box.height)), image.width, image.height);
  if (window.width * window.height >= 0.8 * image.width * image.height) return first;
  const closer = await predictSaliency(model, image, window);
  const groups = salientGroups(closer);
  const sure = sureInCloser(first, closer, image);
  let best: SalientGroup | null = null,
    bestKept = 0;
  for (const group of groups.groups) {
    let kept = 0;
    for (let p = 0; p < sure.pixels.length; p++) if (sure.pixels[p] && group.members.has(groups.labels[p]!)) kept++;
    if (kept > bestKept) [best, bestKept] = [group, kept];
  }
  if (!best || bestKept < KEEPS_SURE * sure.count || best.confidence <= first.confidence) return first;
  return chosen(closer, groups.labels, best);
}

/** The first look's sure pixels (mask ≥ 0.9 within the object), as pixels of the closer look's map. */
function sureInCloser(first: Picked, closer: SaliencyMap, image: RawImage): { pixels: Uint8Array; count: number } {
  const pixels = new Uint8Array(closer.width * closer.height);
  let count = 0;
  for (let y = 0; y < closer.height; y++) {
    const fy = Math.min(
      first.map.height - 1,
      Math.floor(
        ((closer.window.y + ((y + 0.5) / closer.height) * closer.window.height) / image.height) * first.map.height,
      ),
    );
    for (let x = 0; x < closer.width; x++) {
      const fx = Math.min(
        first.map.width - 1,
        Math.floor(
          ((closer.window.x + ((x + 0.5) / closer.width) * closer.window.width) / image.width) * first.map.width,
        ),
      );
      const f = fy * first.map.width + fx;
      if (!first.members[f] || first.map.mask[f]! < 0.9) continue;
      pixels[y * closer.width + x] = 1;
      count++;
    }
  }
  return { pixels, count };
}
