import sharp from 'sharp';
import { EmptyImageError } from '../../errors.js';
import type { RawImage } from '../../input/normalise-input.js';
import type { Box, Point, SubjectCandidate } from '../../types.js';
import type { SalientObjectModel } from '../saliency/salient-model.js';
import { guidedFilter } from './guided-filter.js';
import { boundingBox, boxSum, clamp, connectedComponents, dilate, erode, fillHoles } from './mask-ops.js';
import { boxInPhoto, pointInMap, predictSaliency, salientGroups, type Groups, type SaliencyMap, type SalientGroup } from './saliency-map.js';
import type { Segmentation } from './segment.js';

/** What an ML cutout found besides the cutout: the tap step's inputs. */
export interface SubjectFindings {
  candidates: SubjectCandidate[];
  confidence: number;
  needsFocus: boolean;
}

export type MlCutout = Segmentation & SubjectFindings;

/**
 * A second object covering at least this share of the photo makes the product unclear: sellers'
 * products are often smaller than the furniture around them, so size, not saliency, decides.
 */
const RIVAL_AREA = 0.01;
/** Below this sureness the outline is a guess: ask for a tap. */
const UNSURE = 0.6;
/**
 * Sureness of an object the model drew alone. Below it, the object may be fused with what lies
 * behind it: the model looks again, closer.
 */
const SURE_OBJECT = 0.8;
/** Below this sureness nothing was found: refuse rather than charge for an empty shot. */
const NOTHING = 0.2;

/** The object the model found (or the tap chose): its soft mask at the photo's resolution, and the findings. */
export interface Subject extends SubjectFindings {
  /** 0..255, the model's mask of the chosen object only, resized to the photo. */
  soft: Uint8Array;
}

/** Finds the product with the salient-object model: which object, how sure, and whether to ask. */
export async function findSubject(model: SalientObjectModel, image: RawImage, point?: Point): Promise<Subject> {
  const full = await predictSaliency(model, image);
  const found = salientGroups(full);
  const best = found.groups[0];
  if (!best || best.confidence < NOTHING) throw new EmptyImageError();
  const picked = point ? await pickAt(model, image, full, found, point) : await lookCloserIfUnsure(model, image, chosen(full, found.labels, best));
  if (picked.confidence < NOTHING) throw new EmptyImageError('no product could be found where you tapped');
  const candidates = found.groups.filter((group, index) => index === 0 || group.area >= RIVAL_AREA * full.width * full.height);
  return {
    soft: await softMask(picked.map, picked.members, image),
    candidates: candidates.map((group) => candidateOf(full, group, image)),
    confidence: round(picked.confidence),
    needsFocus: !point && (candidates.length > 1 || best.confidence < UNSURE),
  };
}

/** Cuts the product out of a photo with the salient-object model, refined at the photo's resolution. */
export async function mlCutout(model: SalientObjectModel, image: RawImage, point?: Point): Promise<MlCutout> {
  const { soft, ...findings } = await findSubject(model, image, point);
  return { ...refine(image, soft), ...findings };
}

function candidateOf(map: SaliencyMap, group: SalientGroup, image: RawImage): SubjectCandidate {
  const box = boxInPhoto(map, group.box);
  const x = map.window.x + ((group.point.x + 0.5) / map.width) * map.window.width;
  const y = map.window.y + ((group.point.y + 0.5) / map.height) * map.window.height;
  return { box, point: { x: round(x / image.width), y: round(y / image.height) }, score: round(group.score) };
}

/** The group under a mask pixel, or the nearest one within a finger's width of it. */
function groupAt(map: SaliencyMap, { labels, groups }: Groups, at: { x: number; y: number }): SalientGroup | null {
  const reach = Math.round(0.04 * Math.min(map.width, map.height));
  let best: SalientGroup | null = null, bestDistance = Number.POSITIVE_INFINITY;
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

/** A tapped object up to this share of the photo's short side is taken as the whole photo's model run drew it. */
const SMALL_OBJECT = 0.5;
/** Windows around a tap, as shares of the photo's short side, in the order they are tried. */
const TAP_WINDOWS = [0.6, 0.85, 0.4];

interface Picked {
  map: SaliencyMap;
  /** The chosen object's pixels in the map. */
  members: Uint8Array;
  confidence: number;
}

function chosen(map: SaliencyMap, labels: Int32Array, group: SalientGroup): Picked {
  return { map, members: confidentMembers(map, membersOf(labels, group)), confidence: group.confidence };
}

/**
 * The object under a tap. A small object the model drew apart from the rest is taken as it is. A
 * large one is the tapped product fused with its surroundings (a shoe on a table by a bottle, a cap
 * on a bean bag): the model looks again in windows around the tap, where the tapped object is the
 * obvious subject, and the window whose object runs least into its edges wins when the model is
 * sure of that object. Otherwise the tapped object's colours are told apart from the rest of the
 * blob's, starting at the tap; failing that, the best window is taken as it is.
 */
async function pickAt(model: SalientObjectModel, image: RawImage, full: SaliencyMap, found: Groups, point: Point): Promise<Picked> {
  const at = pointInMap(full, point, image)!;
  const tapped = groupAt(full, found, at);
  if (tapped) {
    const box = boxInPhoto(full, tapped.box);
    if (Math.max(box.width, box.height) <= SMALL_OBJECT * Math.min(image.width, image.height)) return chosen(full, found.labels, tapped);
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
async function lookAround(model: SalientObjectModel, image: RawImage, point: Point): Promise<(Picked & { touch: number }) | null> {
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

function membersOf(labels: Int32Array, group: SalientGroup): Uint8Array {
  // A table by label, not Set lookups per pixel: this runs over every pixel of the map.
  const member = new Uint8Array(Math.max(...group.members) + 1);
  for (const label of group.members) member[label] = 1;
  const out = new Uint8Array(labels.length);
  for (let p = 0; p < labels.length; p++) out[p] = member[labels[p]!] ?? 0;
  return out;
}

/** Colours as 16 levels a channel: coarse enough to learn from a few thousand pixels. */
function colourBin(rgb: Buffer, p: number): number {
  return ((rgb[p * 3]! >> 4) << 8) | ((rgb[p * 3 + 1]! >> 4) << 4) | (rgb[p * 3 + 2]! >> 4);
}

function histogram(rgb: Buffer, pixels: Uint8Array): { counts: Float32Array; total: number } {
  const counts = new Float32Array(4096);
  let total = 0;
  for (let p = 0; p < pixels.length; p++) {
    if (!pixels[p]) continue;
    counts[colourBin(rgb, p)]! += 1;
    total++;
  }
  return { counts, total };
}

/** Share of the tapped object's colours learnt from the pixels nearest the tap, and of the rest from the far end of the blob. */
const SEED_RADIUS = 0.03;
const FAR_RADIUS = 0.25;

/**
 * Splits a blob of fused objects at the tap, by colour: a colour model of the tapped object
 * (seeded around the tap) against one of the rest of the blob (seeded far from it), refined a few
 * times from the region each round finds, as GrabCut does without its graph cut. Null when the
 * split is not a plausible object (nothing, or nearly the whole blob).
 */
function splitByColour(map: SaliencyMap, blob: Uint8Array, at: { x: number; y: number }): Uint8Array | null {
  const { width, height, rgb } = map;
  const side = Math.min(width, height);
  let inside: Uint8Array = new Uint8Array(blob.length), outside: Uint8Array = new Uint8Array(blob.length);
  let blobArea = 0;
  for (let p = 0; p < blob.length; p++) {
    if (!blob[p]) continue;
    blobArea++;
    const distance = Math.hypot((p % width) - at.x, Math.floor(p / width) - at.y);
    if (distance <= SEED_RADIUS * side) inside[p] = 1;
    else if (distance >= FAR_RADIUS * side) outside[p] = 1;
  }
  let region: Uint8Array | null = null;
  for (let round = 0; round < 3; round++) {
    const tapped = histogram(rgb, inside), rest = histogram(rgb, outside);
    if (!tapped.total || !rest.total) return null;
    const likely = new Uint8Array(blob.length);
    for (let p = 0; p < blob.length; p++) {
      if (!blob[p]) continue;
      const bin = colourBin(rgb, p);
      likely[p] = (tapped.counts[bin]! + 1) / (tapped.total + 4096) >= (rest.counts[bin]! + 1) / (rest.total + 4096) ? 1 : 0;
    }
    // Specks of the product's colours elsewhere in the blob are not the product: keep what touches the tap.
    const { labels } = connectedComponents(erode(dilate(likely, width, height, 2), width, height, 2), width, height);
    const label = labels[at.y * width + at.x]!;
    if (!label) return null;
    region = fillHoles(Uint8Array.from(labels, (l) => (l === label ? 1 : 0)), width, height);
    inside = region;
    outside = Uint8Array.from(blob, (b, p) => (b && !region![p] ? 1 : 0));
  }
  let area = 0;
  for (const value of region!) area += value;
  return area >= 0.01 * blob.length && area <= 0.85 * blobArea ? region : null;
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
  let covered = 0, total = 0;
  for (const edge of edges.filter((e) => e.inner)) {
    total += edge.length;
    for (let i = 0; i < edge.length; i++) if (group.members.has(labels[edge.at(i)]!)) covered++;
  }
  return total ? covered / total : 0;
}

function squareAround(point: Point, side: number, image: RawImage): Box {
  const width = Math.min(side, image.width), height = Math.min(side, image.height);
  const x = Math.round(clamp(point.x * image.width - width / 2, 0, image.width - width));
  const y = Math.round(clamp(point.y * image.height - height / 2, 0, image.height - height));
  return { x, y, width, height };
}

/**
 * The model's soft mask of the chosen object at the photo's resolution: other objects are cleared,
 * the object's soft rim (a little beyond its 0.5 outline) is kept for the refinement to decide.
 */
async function softMask(map: SaliencyMap, members: Uint8Array, image: RawImage): Promise<Uint8Array> {
  const { width, height, window } = map;
  const near = dilate(members, width, height, Math.max(2, Math.round(0.01 * Math.min(width, height))));
  const soft = Buffer.alloc(width * height);
  for (let p = 0; p < soft.length; p++) soft[p] = near[p] ? Math.round(map.mask[p]! * 255) : 0;
  const resized = await sharp(soft, { raw: { width, height, channels: 1 } }).resize(window.width, window.height, { fit: 'fill', kernel: 'linear' }).toColourspace('b-w').raw().toBuffer();
  if (window.width === image.width && window.height === image.height) return resized;
  const out = new Uint8Array(image.width * image.height);
  for (let y = 0; y < window.height; y++) out.set(resized.subarray(y * window.width, (y + 1) * window.width), (window.y + y) * image.width + window.x);
  return out;
}

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
async function lookCloserIfUnsure(model: SalientObjectModel, image: RawImage, first: Picked): Promise<Picked> {
  if (first.confidence >= SURE_OBJECT) return first;
  const found = boundingBox(first.members, first.map.width, first.map.height);
  if (!found) return first;
  const box = boxInPhoto(first.map, found);
  const window = grow(box, Math.round(CLOSER_MARGIN * Math.max(box.width, box.height)), image.width, image.height);
  if (window.width * window.height >= 0.8 * image.width * image.height) return first;
  const closer = await predictSaliency(model, image, window);
  const groups = salientGroups(closer);
  const sure = sureInCloser(first, closer, image);
  let best: SalientGroup | null = null, bestKept = 0;
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
    const fy = Math.min(first.map.height - 1, Math.floor(((closer.window.y + ((y + 0.5) / closer.height) * closer.window.height) / image.height) * first.map.height));
    for (let x = 0; x < closer.width; x++) {
      const fx = Math.min(first.map.width - 1, Math.floor(((closer.window.x + ((x + 0.5) / closer.width) * closer.window.width) / image.width) * first.map.width));
      const f = fy * first.map.width + fx;
      if (!first.members[f] || first.map.mask[f]! < 0.9) continue;
      pixels[y * closer.width + x] = 1;
      count++;
    }
  }
  return { pixels, count };
}

/** Share of the mask the model must be sure of (≥ 0.9) before weaker blobs are cut away. */
const SURE_CORE = 0.3;

/**
 * The group's pixels less the weakly salient blobs fused to it: a pebble touching a shoe, a
 * cushion behind a mug. Only what lies near a part the model is sure of is kept; an object the
 * model is unsure of all over is kept whole, as there is no sure part to keep instead.
 */
function confidentMembers(map: SaliencyMap, group: Uint8Array): Uint8Array {
  const { width, height, mask } = map;
  const members = group.slice(), sure = new Uint8Array(width * height);
  let area = 0, sureArea = 0;
  for (let p = 0; p < members.length; p++) {
    if (!members[p]) continue;
    area++;
    if (mask[p]! < 0.9) continue;
    sure[p] = 1;
    sureArea++;
  }
  if (sureArea < SURE_CORE * area) return members;
  const cores = connectedComponents(sure, width, height);
  const largest = Math.max(...cores.sizes);
  const kept = new Uint8Array(sure.length);
  for (let p = 0; p < kept.length; p++) kept[p] = cores.labels[p] && cores.sizes[cores.labels[p]! - 1]! >= 0.05 * largest ? 1 : 0;
  const near = dilate(kept, width, height, Math.max(2, Math.round(0.025 * Math.min(width, height))));
  for (let p = 0; p < members.length; p++) members[p] = members[p]! & near[p]!;
  return members;
}

/**
 * Alpha at the photo's resolution: the colour guided filter snaps the model's soft outline to the
 * photo's edges in a band around it; inside the band product pixels are copied untouched, edge
 * pixels lose the old background's colour, and shadow the product casts is dropped.
 */
function refine(image: RawImage, soft: Uint8Array): Segmentation {
  const { width, height, data } = image;
  const cutout = Buffer.from(data);
  for (let p = 3; p < cutout.length; p += 4) cutout[p] = 0;
  const mask = new Uint8Array(width * height);
  const found = boundingBox(soft, width, height, 128);
  if (!found) throw new EmptyImageError();
  const side = Math.min(width, height);
  const radius = Math.max(2, Math.round(side / 300));
  const margin = 4 * radius + 4;
  const box = grow(found, margin, width, height);
  const region = crop(data, width, box);
  const p = new Float32Array(box.width * box.height);
  for (let y = 0; y < box.height; y++) for (let x = 0; x < box.width; x++) p[y * box.width + x] = soft[(box.y + y) * width + box.x + x]! / 255;
  const alpha = bandAlpha(region, p, box.width, box.height, radius);
  unmixEdges(region, alpha, box.width, box.height, radius);
  for (let y = 0; y < box.height; y++) {
    for (let x = 0; x < box.width; x++) {
      const i = y * box.width + x, o = (box.y + y) * width + box.x + x;
      const a = alpha[i]!;
      if (a <= 0) continue;
      cutout[o * 4] = region[i * 4]!;
      cutout[o * 4 + 1] = region[i * 4 + 1]!;
      cutout[o * 4 + 2] = region[i * 4 + 2]!;
      cutout[o * 4 + 3] = Math.round(a * 255);
      mask[o] = a >= 0.5 ? 1 : 0;
    }
  }
  if (!boundingBox(mask, width, height)) throw new EmptyImageError();
  return { cutout, mask, width, height };
}

function bandAlpha(region: Uint8Array, p: Float32Array, width: number, height: number, radius: number): Float32Array {
  const n = width * height;
  const guide: [Float32Array, Float32Array, Float32Array] = [new Float32Array(n), new Float32Array(n), new Float32Array(n)];
  for (let i = 0; i < n; i++) for (let c = 0; c < 3; c++) guide[c]![i] = region[i * 4 + c]! / 255;
  const q = guidedFilter(guide, p, width, height, radius, 1e-3);
  const solid = new Uint8Array(n);
  for (let i = 0; i < n; i++) solid[i] = p[i]! >= 0.5 ? 1 : 0;
  const inside = erode(solid, width, height, radius);
  const reach = dilate(solid, width, height, 2 * radius);
  // The nearby background: pixels beyond the product's reach.
  const beyond = new Float32Array(n);
  for (let i = 0; i < n; i++) beyond[i] = reach[i] ? 0 : 1;
  const background = weightedMeans(region, beyond, width, height, 4 * radius);
  const alpha = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    if (inside[i] && p[i]! >= 0.9) alpha[i] = 1;
    else if (!reach[i] && p[i]! < 0.5) alpha[i] = 0;
    else alpha[i] = p[i]! < 0.5 && castShadow(region, i, background) ? 0 : clamp((q[i]! - 0.08) / 0.84, 0, 1);
  }
  return alpha;
}

/** Mean colour of the pixels with weight 1 within `span` of each pixel (RGB planes, NaN where there are none). */
function weightedMeans(region: Uint8Array, weights: Float32Array, width: number, height: number, span: number): Float32Array[] {
  const n = width * height;
  const counts = boxSum(weights, width, height, span);
  return [0, 1, 2].map((c) => {
    const plane = new Float32Array(n);
    for (let i = 0; i < n; i++) plane[i] = weights[i]! * region[i * 4 + c]!;
    const sums = boxSum(plane, width, height, span);
    for (let i = 0; i < n; i++) sums[i] = counts[i]! > 0.5 ? sums[i]! / counts[i]! : Number.NaN;
    return sums;
  });
}

/** A darker copy of the background around it, with the background's own hue: a shadow, not product. */
function castShadow(region: Uint8Array, i: number, background: Float32Array[]): boolean {
  const br = background[0]![i]!, bg = background[1]![i]!, bb = background[2]![i]!;
  if (Number.isNaN(br)) return false;
  const r = region[i * 4]!, g = region[i * 4 + 1]!, b = region[i * 4 + 2]!;
  const scale = (r * br + g * bg + b * bb) / Math.max(1, br * br + bg * bg + bb * bb);
  if (scale < 0.25 || scale > 0.97) return false;
  return Math.hypot(r - scale * br, g - scale * bg, b - scale * bb) < 10 + 0.04 * Math.hypot(br, bg, bb);
}

/**
 * A partly transparent edge pixel mixes product and background: F = (I − (1 − α)·B) / α, with B
 * the nearby background. Faint ones take the nearby product colour, as solving would amplify noise.
 */
function unmixEdges(region: Uint8Array, alpha: Float32Array, width: number, height: number, radius: number): void {
  const n = width * height, span = 3 * radius;
  const solid = new Float32Array(n), clear = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    solid[i] = alpha[i] === 1 ? 1 : 0;
    clear[i] = alpha[i] === 0 ? 1 : 0;
  }
  const product = weightedMeans(region, solid, width, height, span), background = weightedMeans(region, clear, width, height, span);
  for (let i = 0; i < n; i++) {
    const a = alpha[i]!;
    if (a <= 0 || a >= 1) continue;
    for (let c = 0; c < 3; c++) {
      const near = product[c]![i]!, behind = background[c]![i]!;
      const value = a < 0.35 && !Number.isNaN(near) ? near : Number.isNaN(behind) ? region[i * 4 + c]! : (region[i * 4 + c]! - (1 - a) * behind) / a;
      region[i * 4 + c] = Math.round(clamp(value, 0, 255));
    }
  }
}

function grow(box: Box, margin: number, width: number, height: number): Box {
  const x = Math.max(0, box.x - margin), y = Math.max(0, box.y - margin);
  return { x, y, width: Math.min(width, box.x + box.width + margin) - x, height: Math.min(height, box.y + box.height + margin) - y };
}

function crop(rgba: Uint8Array, width: number, box: Box): Uint8Array {
  const out = new Uint8Array(box.width * box.height * 4);
  for (let y = 0; y < box.height; y++) out.set(rgba.subarray(((box.y + y) * width + box.x) * 4, ((box.y + y) * width + box.x + box.width) * 4), y * box.width * 4);
  return out;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
