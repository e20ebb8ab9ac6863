import sharp from 'sharp';
import { EmptyImageError } from '../../errors.js';
import type { RawImage } from '../../input/normalise-input.js';
import type { Box, Point, SubjectCandidate } from '../../types.js';
import type { SalientObjectModel } from '../saliency/salient-model.js';
import { guidedFilter } from './guided-filter.js';
import { boundingBox, boxSum, clamp, dilate, erode } from './mask-ops.js';
import { boxInPhoto, pointInMap, predictSaliency, salientGroups, type Groups, type SaliencyMap, type SalientGroup } from './saliency-map.js';
import type { Segmentation } from './segment.js';

/** What an ML cutout found besides the cutout: the tap step's inputs. */
export interface SubjectFindings {
  candidates: SubjectCandidate[];
  confidence: number;
  needsFocus: boolean;
}

export type MlCutout = Segmentation & SubjectFindings;

/** A second object with at least this share of the saliency makes the product unclear. */
const RIVAL_SCORE = 0.2;
/** Below this sureness the outline is a guess: ask for a tap. */
const UNSURE = 0.6;
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
  const picked = point ? await pickAt(model, image, full, found, point) : { map: full, labels: found.labels, group: best };
  if (picked.group.confidence < NOTHING) throw new EmptyImageError('no product could be found where you tapped');
  const rival = found.groups[1];
  return {
    soft: await groupMask(picked.map, picked.labels, picked.group, image),
    candidates: found.groups.map((group) => candidateOf(full, group, image)),
    confidence: round(picked.group.confidence),
    needsFocus: !point && ((rival !== undefined && rival.score >= RIVAL_SCORE) || best.confidence < UNSURE),
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

/**
 * The object under a tap. In a busy photo the model spreads its attention over everything, so
 * the tapped object is looked at again in a window around the tap, about twice its size, where
 * it is the obvious subject and the clutter around it mostly falls outside.
 */
async function pickAt(model: SalientObjectModel, image: RawImage, full: SaliencyMap, found: Groups, point: Point): Promise<{ map: SaliencyMap; labels: Int32Array; group: SalientGroup }> {
  const at = pointInMap(full, point, image)!;
  const tapped = groupAt(full, found, at);
  if (tapped && found.groups.length === 1) return { map: full, labels: found.labels, group: tapped };
  const short = Math.min(image.width, image.height);
  const objectSide = tapped ? Math.max(boxInPhoto(full, tapped.box).width, boxInPhoto(full, tapped.box).height) : 0.3 * short;
  const side = Math.round(clamp(2 * objectSide, 0.35 * short, short));
  const window = squareAround(point, side, image);
  const map = await predictSaliency(model, image, window);
  const local = salientGroups(map);
  const inWindow = groupAt(map, local, pointInMap(map, point, image)!);
  if (inWindow) return { map, labels: local.labels, group: inWindow };
  if (tapped) return { map: full, labels: found.labels, group: tapped };
  throw new EmptyImageError('no product could be found where you tapped');
}

function squareAround(point: Point, side: number, image: RawImage): Box {
  const width = Math.min(side, image.width), height = Math.min(side, image.height);
  const x = Math.round(clamp(point.x * image.width - width / 2, 0, image.width - width));
  const y = Math.round(clamp(point.y * image.height - height / 2, 0, image.height - height));
  return { x, y, width, height };
}

/**
 * The model's soft mask of one group at the photo's resolution: other objects are cleared, the
 * group's soft rim (a little beyond its 0.5 outline) is kept for the refinement to decide.
 */
async function groupMask(map: SaliencyMap, labels: Int32Array, group: SalientGroup, image: RawImage): Promise<Uint8Array> {
  const { width, height, window } = map;
  const members = new Uint8Array(width * height);
  for (let p = 0; p < members.length; p++) members[p] = group.members.has(labels[p]!) ? 1 : 0;
  const near = dilate(members, width, height, Math.max(2, Math.round(0.01 * Math.min(width, height))));
  const soft = Buffer.alloc(width * height);
  for (let p = 0; p < soft.length; p++) soft[p] = near[p] ? Math.round(map.mask[p]! * 255) : 0;
  const resized = await sharp(soft, { raw: { width, height, channels: 1 } }).resize(window.width, window.height, { fit: 'fill', kernel: 'linear' }).toColourspace('b-w').raw().toBuffer();
  if (window.width === image.width && window.height === image.height) return resized;
  const out = new Uint8Array(image.width * image.height);
  for (let y = 0; y < window.height; y++) out.set(resized.subarray(y * window.width, (y + 1) * window.width), (window.y + y) * image.width + window.x);
  return out;
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
  const background = backgroundMean(region, reach, width, height, radius);
  const alpha = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    if (inside[i] && p[i]! >= 0.9) alpha[i] = 1;
    else if (!reach[i] && p[i]! < 0.5) alpha[i] = 0;
    else alpha[i] = p[i]! < 0.5 && castShadow(region, i, background) ? 0 : clamp((q[i]! - 0.08) / 0.84, 0, 1);
  }
  return alpha;
}

/** Mean colour of the nearby pixels outside the product's reach (RGB planes, NaN where none are near). */
function backgroundMean(region: Uint8Array, reach: Uint8Array, width: number, height: number, radius: number): Float32Array[] {
  const n = width * height, span = 4 * radius;
  const weight = new Float32Array(n);
  for (let i = 0; i < n; i++) weight[i] = reach[i] ? 0 : 1;
  const counts = boxSum(weight, width, height, span);
  return [0, 1, 2].map((c) => {
    const plane = new Float32Array(n);
    for (let i = 0; i < n; i++) plane[i] = weight[i]! * region[i * 4 + c]!;
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
  const solidCount = boxSum(solid, width, height, span), clearCount = boxSum(clear, width, height, span);
  const means = (weights: Float32Array, counts: Float32Array) =>
    [0, 1, 2].map((c) => {
      const plane = new Float32Array(n);
      for (let i = 0; i < n; i++) plane[i] = weights[i]! * region[i * 4 + c]!;
      const sums = boxSum(plane, width, height, span);
      for (let i = 0; i < n; i++) sums[i] = counts[i]! > 0.5 ? sums[i]! / counts[i]! : Number.NaN;
      return sums;
    });
  const product = means(solid, solidCount), background = means(clear, clearCount);
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
