import sharp from 'sharp';
import type { RawImage } from '../../input/normalise-input.js';
import type { Box, Point } from '../../types.js';
import type { SalientObjectModel } from '../saliency/salient-model.js';
import { connectedComponents } from './mask-ops.js';
import { sharedSeam } from './seam-parts.js';
import { twinParts } from './twin-parts.js';

/** The model's [0, 1] mask of one window of a photo (the whole photo unless a tap narrowed it). */
export interface SaliencyMap {
  mask: Float32Array;
  /** The model's input size: the mask's resolution. */
  width: number;
  height: number;
  /** The region of the photo the mask covers, in photo pixels. */
  window: Box;
  /** That region as the model saw it: RGB at the mask's resolution. */
  rgb: Buffer;
}

/** Objects the model marks as salient, grouped: one group is what a seller would call one product. */
export interface SalientGroup {
  /** Component labels (in `labels`) that make up the group. */
  members: Set<number>;
  /** Bounding box in mask pixels. */
  box: Box;
  /** A pixel of the group's largest component near its centre, in mask pixels. */
  point: { x: number; y: number };
  area: number;
  /** Sum of the mask over the group. */
  mass: number;
  /** Share of all groups' mass. */
  score: number;
  /** Share of the group's outline region the model is sure of (mask ≥ 0.9 among mask > 0.1). */
  confidence: number;
}

export interface Groups {
  labels: Int32Array;
  groups: SalientGroup[];
}

/** Components under this share of the mask are specks, not candidates. */
const MIN_COMPONENT_SHARE = 0.0015;
/** Components closer than this share of the mask's short side are one product (a pair of shoes, a set of mugs)… */
const GROUP_GAP = 0.06;
/** …when they are alike in size: a bottle beside a table is not the same product… */
const GROUP_SIZE_RATIO = 0.25;
/**
 * …and alike in colour (histogram intersection): a pair of shoes or a mug set shares its colours,
 * a pebble beside a shoe does not.
 */
const GROUP_COLOUR_LIKENESS = 0.4;
/** Colour levels per channel of those histograms: coarse, so a shaded twin still matches. */
const COLOUR_LEVELS = 4;
/**
 * Twin parts (see twinParts) need share only this much colour: a lens's reflection is not its
 * twin's, but a pebble shares none of a shoe's colours.
 */
const TWIN_COLOUR_LIKENESS = 0.2;

export async function predictSaliency(model: SalientObjectModel, image: RawImage, window?: Box): Promise<SaliencyMap> {
  const { inputWidth: width, inputHeight: height, mean, std } = model;
  const region = window ?? { x: 0, y: 0, width: image.width, height: image.height };
  let pipeline = sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } });
  if (window)
    pipeline = pipeline.extract({ left: region.x, top: region.y, width: region.width, height: region.height });
  // Stretched, not letterboxed: the graphs were trained on photos squashed to their input size.
  const rgb = await pipeline.removeAlpha().resize(width, height, { fit: 'fill', kernel: 'linear' }).raw().toBuffer();
  const plane = width * height;
  const input = new Float32Array(3 * plane);
  for (let c = 0; c < 3; c++) {
    const scale = 1 / (255 * std[c]!),
      shift = mean[c]! / std[c]!;
    for (let p = 0; p < plane; p++) input[c * plane + p] = rgb[p * 3 + c]! * scale - shift;
  }
  return { mask: await model.predict(input), width, height, window: region, rgb };
}

/** Salient objects of a map, most salient first. */
export function salientGroups(map: SaliencyMap): Groups {
  const { mask, width, height } = map;
  const binary = new Uint8Array(mask.length);
  for (let p = 0; p < mask.length; p++) binary[p] = mask[p]! >= 0.5 ? 1 : 0;
  const { labels, sizes } = connectedComponents(binary, width, height);
  const stats = sizes.map(() => ({
    minX: width,
    minY: height,
    maxX: -1,
    maxY: -1,
    mass: 0,
    sumX: 0,
    sumY: 0,
    colours: new Float32Array(COLOUR_LEVELS ** 3),
  }));
  for (let p = 0; p < labels.length; p++) {
    const label = labels[p]!;
    if (!label) continue;
    const s = stats[label - 1]!,
      x = p % width,
      y = (p - x) / width;
    if (x < s.minX) s.minX = x;
    if (x > s.maxX) s.maxX = x;
    if (y < s.minY) s.minY = y;
    if (y > s.maxY) s.maxY = y;
    s.mass += mask[p]!;
    s.sumX += x;
    s.sumY += y;
    s.colours[coarseColourBin(map.rgb, p)]! += 1 / sizes[label - 1]!;
  }
  const minArea = MIN_COMPONENT_SHARE * width * height;
  const kept = sizes.flatMap((size, i) => (size >= minArea ? [i + 1] : []));
  const gap = GROUP_GAP * Math.min(width, height);
  // Union-find over components whose boxes, grown by the gap, touch.
  const parent = new Map(kept.map((label) => [label, label]));
  const root = (label: number): number => (parent.get(label) === label ? label : root(parent.get(label)!));
  for (const a of kept) {
    for (const b of kept) {
      if (a >= b) continue;
      const sa = stats[a - 1]!,
        sb = stats[b - 1]!;
      if (
        (likeness(sa.colours, sb.colours) >= TWIN_COLOUR_LIKENESS &&
          twinParts(labels, width, [a, sa], [b, sb], sizes)) ||
        sharedSeam(map, labels, [a, sa], [b, sb], sizes)
      ) {
        parent.set(root(a), root(b));
        continue;
      }
      if (Math.min(sizes[a - 1]!, sizes[b - 1]!) < GROUP_SIZE_RATIO * Math.max(sizes[a - 1]!, sizes[b - 1]!)) continue;
      if (likeness(sa.colours, sb.colours) < GROUP_COLOUR_LIKENESS) continue;
      const apart =
        sa.minX - gap > sb.maxX || sb.minX - gap > sa.maxX || sa.minY - gap > sb.maxY || sb.minY - gap > sa.maxY;
      if (!apart) parent.set(root(a), root(b));
    }
  }
  const byRoot = new Map<number, number[]>();
  for (const label of kept) byRoot.set(root(label), [...(byRoot.get(root(label)) ?? []), label]);
  const groups = [...byRoot.values()].map((members) => groupOf(map, labels, members, sizes, stats));
  const total = groups.reduce((sum, group) => sum + group.mass, 0);
  for (const group of groups) group.score = total ? group.mass / total : 0;
  groups.sort((a, b) => b.mass - a.mass);
  return { labels, groups };
}

function coarseColourBin(rgb: Buffer, p: number): number {
  let bin = 0;
  for (let c = 0; c < 3; c++) bin = bin * COLOUR_LEVELS + ((rgb[p * 3 + c]! * COLOUR_LEVELS) >> 8);
  return bin;
}

/** Histogram intersection of two normalised colour histograms: 1 for the same colours, 0 for none shared. */
function likeness(a: Float32Array, b: Float32Array): number {
  let shared = 0;
  for (let i = 0; i < a.length; i++) shared += Math.min(a[i]!, b[i]!);
  return shared;
}

function groupOf(
  map: SaliencyMap,
  labels: Int32Array,
  members: number[],
  sizes: number[],
  stats: { minX: number; minY: number; maxX: number; maxY: number; mass: number; sumX: number; sumY: number }[],
): SalientGroup {
  const parts = members.map((label) => stats[label - 1]!);
  const minX = Math.min(...parts.map((s) => s.minX)),
    minY = Math.min(...parts.map((s) => s.minY));
  const maxX = Math.max(...parts.map((s) => s.maxX)),
    maxY = Math.max(...parts.map((s) => s.maxY));
  const box = { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
  const largest = members.reduce((best, label) => (sizes[label - 1]! > sizes[best - 1]! ? label : best));
  const s = stats[largest - 1]!,
    count = sizes[largest - 1]!;
  return {
    members: new Set(members),
    box,
    point: nearestMember(map.width, labels, largest, s.sumX / count, s.sumY / count, box),
    area: members.reduce((sum, label) => sum + sizes[label - 1]!, 0),
    mass: parts.reduce((sum, part) => sum + part.mass, 0),
    score: 0,
    confidence: sureness(map, box),
  };
}

/** The component's pixel nearest to (cx, cy): a concave object's centroid can fall outside it. */
function nearestMember(
  width: number,
  labels: Int32Array,
  label: number,
  cx: number,
  cy: number,
  box: Box,
): { x: number; y: number } {
  let best = { x: Math.round(cx), y: Math.round(cy) },
    bestDistance = Number.POSITIVE_INFINITY;
  for (let y = box.y; y < box.y + box.height; y++) {
    for (let x = box.x; x < box.x + box.width; x++) {
      if (labels[y * width + x] !== label) continue;
      const distance = (x - cx) ** 2 + (y - cy) ** 2;
      if (distance >= bestDistance) continue;
      bestDistance = distance;
      best = { x, y };
    }
  }
  return best;
}

function sureness(map: SaliencyMap, box: Box): number {
  let sure = 0,
    seen = 0;
  for (let y = box.y; y < box.y + box.height; y++) {
    for (let x = box.x; x < box.x + box.width; x++) {
      const value = map.mask[y * map.width + x]!;
      if (value <= 0.1) continue;
      seen++;
      if (value >= 0.9) sure++;
    }
  }
  return seen ? sure / seen : 0;
}

/** A point in photo fractions as a mask pixel of this map, or null when it lies outside the map's window. */
export function pointInMap(
  map: SaliencyMap,
  point: Point,
  photo: { width: number; height: number },
): { x: number; y: number } | null {
  const px = point.x * photo.width - map.window.x,
    py = point.y * photo.height - map.window.y;
  if (px < 0 || py < 0 || px >= map.window.width || py >= map.window.height) return null;
  return {
    x: Math.min(map.width - 1, Math.floor((px / map.window.width) * map.width)),
    y: Math.min(map.height - 1, Math.floor((py / map.window.height) * map.height)),
  };
}

/** A mask pixel's box as photo pixels. */
export function boxInPhoto(map: SaliencyMap, box: Box): Box {
  const sx = map.window.width / map.width,
    sy = map.window.height / map.height;
  const x = Math.floor(map.window.x + box.x * sx),
    y = Math.floor(map.window.y + box.y * sy);
  return {
    x,
    y,
    width: Math.max(1, Math.ceil(map.window.x + (box.x + box.width) * sx) - x),
    height: Math.max(1, Math.ceil(map.window.y + (box.y + box.height) * sy) - y),
  };
}
