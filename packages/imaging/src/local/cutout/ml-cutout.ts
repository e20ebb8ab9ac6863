import sharp from 'sharp';
import { EmptyImageError } from '../../errors.js';
import type { RawImage } from '../../input/normalise-input.js';
import type { Point, SubjectCandidate } from '../../types.js';
import type { SalientObjectModel } from '../saliency/salient-model.js';
import { lookCloserIfUnsure } from './closer-look.js';
import { dilate } from './mask-ops.js';
import { chosen } from './picked-object.js';
import { refine } from './refine-alpha.js';
import { boxInPhoto, predictSaliency, salientGroups, type SaliencyMap, type SalientGroup } from './saliency-map.js';
import type { Segmentation } from './segment.js';
import { pickAt } from './tap-pick.js';

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

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
