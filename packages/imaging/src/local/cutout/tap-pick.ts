import { EmptyImageError } from '../../errors.js';
import type { RawImage } from '../../input/normalise-input.js';
import type { Box, Point } from '../../types.js';
import type { SalientObjectModel } from '../saliency/salient-model.js';
import { splitByColour } from './colour-split.js';
import { NOTHING } from './empty-photo.js';
import { boundingBox, clamp } from './mask-ops.js';
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
/** A window that cut the object is followed by one reaching past each cut edge by this share of the object's size there… */
const REACH_PAST = 0.5;
/** …with this share of its longest side around it. */
const MARGIN = 0.1;

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
  drops: readonly Point[] = [],
): Promise<Picked> {
  const at = pointInMap(full, point, image)!;
  const tapped = groupAt(full, found, at);
  if (tapped && !covers(full, found.labels, tapped, drops, image)) {
    const box = boxInPhoto(full, tapped.box);
    const small = Math.max(box.width, box.height) <= SMALL_OBJECT * Math.min(image.width, image.height);
    if (small && tapped.confidence >= NOTHING) return chosen(full, found.labels, tapped);
  }
  const seen = await lookAround(model, image, point, drops);
  if (seen && seen.touch === 0 && seen.confidence >= SURE_OBJECT) return seen;
  const split = tapped && splitByColour(full, membersOf(found.labels, tapped), at);
  if (split) return { map: full, members: split, confidence: tapped.confidence };
  if (seen) return seen;
  if (tapped) return chosen(full, found.labels, tapped);
  throw new EmptyImageError('no product could be found where you tapped');
}

type Seen = Picked & { touch: number };

/**
 * The tapped object as the model draws it in windows around the tap: the window that cuts it
 * least. An object under one of the seller's drop taps is the product fused with what they
 * removed, so it is passed over: a tighter window often draws the product alone. When the object
 * found that way runs into the window's edge, the model looks once more past that edge.
 */
async function lookAround(
  model: SalientObjectModel,
  image: RawImage,
  point: Point,
  drops: readonly Point[],
): Promise<Seen | null> {
  const short = Math.min(image.width, image.height);
  let best: Seen | null = null;
  for (const share of TAP_WINDOWS) {
    const seen = await seenIn(model, image, squareAround(point, Math.round(share * short), image), point, drops);
    if (seen && (!best || seen.touch < best.touch)) best = seen;
    if (best?.touch === 0) return best;
  }
  if (!best || !drops.length) return best;
  const again = await seenIn(model, image, grownOver(best, image), point, drops);
  return again && again.touch < best.touch ? again : best;
}

/** A window around what a window found, reaching past the edges that cut it by half its size there. */
function grownOver({ map, members }: Seen, image: RawImage): Box {
  const { width, height } = map;
  const object = boxInPhoto(map, boundingBox(members, width, height)!);
  const cut = (at: (i: number) => number, length: number) =>
    Array.from({ length }, (_, i) => members[at(i)]).some(Boolean);
  const reachX = Math.round(REACH_PAST * object.width),
    reachY = Math.round(REACH_PAST * object.height),
    margin = Math.round(MARGIN * Math.max(object.width, object.height));
  const left = object.x - margin - (cut((y) => y * width, height) ? reachX : 0);
  const top = object.y - margin - (cut((x) => x, width) ? reachY : 0);
  const right = object.x + object.width + margin + (cut((y) => y * width + width - 1, height) ? reachX : 0);
  const bottom = object.y + object.height + margin + (cut((x) => (height - 1) * width + x, width) ? reachY : 0);
  const x = Math.max(0, left),
    y = Math.max(0, top);
  return { x, y, width: Math.min(image.width, right) - x, height: Math.min(image.height, bottom) - y };
}

/** The object under the tap in one window, unless it covers a drop tap. */
async function seenIn(
  model: SalientObjectModel,
  image: RawImage,
  window: Box,
  point: Point,
  drops: readonly Point[],
): Promise<Seen | null> {
  const map = await predictSaliency(model, image, window);
  const local = salientGroups(map);
  const at = pointInMap(map, point, image);
  const group = at && groupAt(map, local, at);
  if (!group || covers(map, local.labels, group, drops, image)) return null;
  return { ...chosen(map, local.labels, group), touch: edgeTouch(map, local.labels, group, image) };
}

/** Whether a drop tap lands on the group, or within a finger's width of it. */
function covers(
  map: SaliencyMap,
  labels: Int32Array,
  group: SalientGroup,
  drops: readonly Point[],
  image: RawImage,
): boolean {
  return drops.some((drop) => {
    const at = pointInMap(map, drop, image);
    return at !== null && groupAt(map, { labels, groups: [group] }, at) !== null;
  });
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
