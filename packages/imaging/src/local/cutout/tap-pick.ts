import { EmptyImageError } from '../../errors.js';
import type { RawImage } from '../../input/normalise-input.js';
import type { Box, Point } from '../../types.js';
import type { SalientObjectModel } from '../saliency/salient-model.js';
import { splitByColour } from './colour-split.js';
import { NOTHING } from './empty-photo.js';
import { clamp } from './mask-ops.js';
import { chosen, membersOf, SURE_OBJECT, type Picked } from './picked-object.js';
import {
  boxInPhoto,
  pointInMap,
  predictSaliency,
  salientGroups,
  type Groups,
  type SaliencyMap,
  type SalientGroup,
} from './saliency-map.js';

/** A tapped object up to this share of the photo's short side is taken as the whole photo's model run drew it. */
const SMALL_OBJECT = 0.5;
/** Windows around a tap, as shares of the photo's short side, in the order they are tried. */
const TAP_WINDOWS = [0.6, 0.85, 0.4];

/** The group under a mask pixel, or the nearest one within a finger's width of it. */
export function groupAt(
  map: SaliencyMap,
  { labels, groups }: Groups,
  at: { x: number; y: number },
): SalientGroup | null {
  const reach = Math.round(0.04 * Math.min(map.width, map.height));
  let best: SalientGroup | null = null,
    bestDistance = Number.POSITIVE_INFINITY;
  for (let y = Math.max(0, at.y - reach); y <= Math.min(map.height - 1, at.y + reach); y++) {
    for (let x = Math.max(0, at.x - reach); x <= Math.min(map.width - 1, at.x + reach); x++) {
      const label = labels[y * map.width + x]!;
      if (!label) continue;
      const distance = (x - at.x) ** 2 + (y - at.y) ** 2;
      if (distance >= bestDistance || distance > reach * reach) continue;
      const group = groups.find((g) => g.members.has(label));
      if (!group) continue;
      best = group;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * The object under a tap. A small object the model drew apart from the rest, and is not unsure of
 * (below NOTHING it barely saw it: a small product against a larger thing), is taken as it is. A
 * large one is the tapped product fused with its surroundings (a shoe on a table by a bottle, a cap
 * on a bean bag): the model looks again in windows around the tap, where the tapped object is the
 * obvious subject, and the window whose object runs least into its edges wins when the model is
 * sure of that object. Otherwise the tapped object's colours are told apart from the rest of the
 * blob's, starting at the tap; failing that, the best window is taken as it is.
 */
export async function pickAt(
  model: SalientObjectModel,
  image: RawImage,
  full: SaliencyMap,
  found: Groups,
  point: Point,
): Promise<Picked> {
  const at = pointInMap(full, point, image)!;
  const tapped = groupAt(full, found, at);
  if (tapped) {
    const box = boxInPhoto(full, tapped.box);
    const small = Math.max(box.width, box.height) <= SMALL_OBJECT * Math.min(image.width, image.height);
    if (small && tapped.confidence >= NOTHING) return chosen(full, found.labels, tapped);
  }
  const seen = await lookAround(model, image, point);
  if (seen && seen.touch === 0 && seen.confidence >= SURE_OBJECT) return seen;
  const split = tapped && splitByColour(full, membersOf(found.labels, tapped), at);
  if (split) return { map: full, members: split, confidence: tapped.confidence };
  if (seen) return seen;
  if (tapped) return chosen(full, found.labels, tapped);
  throw new EmptyImageError('no product could be found where you tapped');
}

/** The tapped object as the model draws it in windows around the tap: the window that cuts it least. */
async function lookAround(
  model: SalientObjectModel,
  image: RawImage,
  point: Point,
): Promise<(Picked & { touch: number }) | null> {
  const short = Math.min(image.width, image.height);
  let best: (Picked & { touch: number }) | null = null;
  for (const share of TAP_WINDOWS) {
    const map = await predictSaliency(model, image, squareAround(point, Math.round(share * short), image));
    const local = salientGroups(map);
    const group = groupAt(map, local, pointInMap(map, point, image)!);
    if (!group) continue;
    const touch = edgeTouch(map, local.labels, group, image);
    if (!best || touch < best.touch) best = { ...chosen(map, local.labels, group), touch };
    if (touch === 0) break;
  }
  return best;
}

/** Share of a window's inner edges (those inside the photo) the group covers: how much of it the window cut off. */
function edgeTouch(map: SaliencyMap, labels: Int32Array, group: SalientGroup, image: RawImage): number {
  const { width, height, window } = map;
  const edges: { inner: boolean; at: (i: number) => number; length: number }[] = [
    { inner: window.y > 0, at: (x) => x, length: width },
    { inner: window.y + window.height < image.height, at: (x) => (height - 1) * width + x, length: width },
    { inner: window.x > 0, at: (y) => y * width, length: height },
    { inner: window.x + window.width < image.width, at: (y) => y * width + width - 1, length: height },
  ];
  let covered = 0,
    total = 0;
  for (const edge of edges.filter((e) => e.inner)) {
    total += edge.length;
    for (let i = 0; i < edge.length; i++) if (group.members.has(labels[edge.at(i)]!)) covered++;
  }
  return total ? covered / total : 0;
}

function squareAround(point: Point, side: number, image: RawImage): Box {
  const width = Math.min(side, image.width),
    height = Math.min(side, image.height);
  const x = Math.round(clamp(point.x * image.width - width / 2, 0, image.width - width));
  const y = Math.round(clamp(point.y * image.height - height / 2, 0, image.height - height));
  return { x, y, width, height };
}
