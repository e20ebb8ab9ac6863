import type { Tap } from '@prodshot/contracts';
import { EmptyImageError } from '../../errors.js';
import type { RawImage } from '../../input/normalise-input.js';
import type { SubjectCandidate } from '../../types.js';
import type { SalientObjectModel } from '../saliency/salient-model.js';
import { lookCloserIfUnsure } from './closer-look.js';
import { refuseIfEmpty } from './empty-photo.js';
import { keepFaintLoops } from './faint-parts.js';
import { withoutFloorLines } from './floor-lines.js';
import { dropTapped, missedPart, pixelOf, SOLID, underFinger } from './honour-taps.js';
import { impliedKeep } from './implied-keep.js';
import { bytesFrom } from './mask-ops.js';
import { chosen, membersOf, softMask } from './picked-object.js';
import { refine } from './refine-alpha.js';
import { regainedFromFused } from './regained-parts.js';
import {
  boxInPhoto,
  pointInMap,
  predictSaliency,
  salientGroups,
  type Groups,
  type SaliencyMap,
  type SalientGroup,
} from './saliency-map.js';
import type { Segmentation } from './segment.js';
import { groupAt, pickAt } from './tap-pick.js';
import { bridgeFaintTwins, bridgeTwins } from './twin-bridge.js';

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

/** The object the model found (or the tap chose): its soft mask at the photo's resolution, and the findings. */
export interface Subject extends SubjectFindings {
  /** 0..255, the model's mask of the chosen object only, resized to the photo. */
  soft: Uint8Array;
}

/** Finds the product with the salient-object model: which object, how sure, and whether to ask. */
export async function findSubject(
  model: SalientObjectModel,
  image: RawImage,
  taps: readonly Tap[] = [],
): Promise<Subject> {
  const full = await predictSaliency(model, image);
  const found = salientGroups(full);
  const drops = taps.filter((tap) => !tap.keep);
  let keeps = taps.filter((tap) => tap.keep);
  // A keep tap says where the product is: only the object under it is judged (a small product the model barely saw is no empty photo).
  if (!keeps.length) refuseIfEmpty(full, found);
  const best = found.groups[0]!;
  const undropped = found.groups.find((group) => !drops.some((tap) => onGroup(full, found, group, tap, image)));
  // Drop taps on every object the model drew, and no keep tap: the product is fused with what they drop, so where it is must be worked out.
  if (!keeps.length && drops.length && !undropped) {
    const implied = await impliedKeep(image, await softMask(chosen(full, found.labels, best), image), drops);
    if (implied) keeps = [{ ...implied, keep: true }];
  }
  // The first keep tap on an object the model drew chooses the product; a tap beside everything only adds what it is on.
  const first = keeps.find((tap) => groupAt(full, found, pointInMap(full, tap, image)!)) ?? keeps[0];
  const picked = first
    ? await pickAt(model, image, full, found, first, drops)
    : await lookCloserIfUnsure(model, image, chosen(full, found.labels, undropped ?? best));
  const candidates = found.groups.filter(
    (group, index) => index === 0 || group.area >= RIVAL_AREA * full.width * full.height,
  );
  let soft = bridgeTwins(image, await softMask(keepFaintLoops(bridgeFaintTwins(picked)), image));
  // A window drew the product apart from what the drop taps remove, but may have lost a part of it the whole photo's run drew fused.
  const tappedGroup = first ? groupAt(full, found, pointInMap(full, first, image)!) : null;
  const fused = tappedGroup && drops.some((tap) => onGroup(full, found, tappedGroup, tap, image)) ? tappedGroup : null;
  if (fused && picked.map !== full)
    soft = regainedFromFused(image, soft, await softMask(chosen(full, found.labels, fused), image), drops);
  for (const tap of keeps.filter((t) => t !== first)) soft = await keepTapped(model, image, full, found, soft, tap);
  // A product a window drew clear of every drop tap has left what they drop behind; one taken from the whole photo's
  // object they are on (told apart by colour, or that object itself) may keep a part of it farther than a finger from them.
  const dropsOnIt = drops.some((tap) => nearSoft(soft, tap, image)) || (fused !== null && picked.map === full);
  if (dropsOnIt) soft = await dropTapped(image, soft, keeps, drops, await objectsUnder(full, found, drops, image));
  return {
    soft: withoutFloorLines(soft, image),
    candidates: candidates.map((group) => candidateOf(full, group, image)),
    confidence: round(picked.confidence),
    needsFocus: !taps.length && (candidates.length > 1 || best.confidence < UNSURE),
  };
}

/**
 * Adds a further keep tap's object: the object the model drew under it, else the part of the
 * tap's colour it missed (a strap, a handle), else the object the model draws in windows around
 * the tap, as for a first tap (the second lens of sunglasses the whole photo's run missed). A tap
 * on the product already, or on nothing any of them finds, changes nothing.
 */
async function keepTapped(
  model: SalientObjectModel,
  image: RawImage,
  full: SaliencyMap,
  found: Groups,
  soft: Uint8Array,
  tap: Tap,
): Promise<Uint8Array> {
  if (onSoft(soft, tap, image)) return soft;
  const group = groupAt(full, found, pointInMap(full, tap, image)!);
  if (group) return withAdded(soft, await softMask(chosen(full, found.labels, group), image));
  const missed = await missedPart(image, soft, tap);
  if (missed) return missed;
  try {
    return withAdded(soft, await softMask(await pickAt(model, image, full, found, tap), image));
  } catch (error) {
    if (error instanceof EmptyImageError) return soft;
    throw error;
  }
}

/** Whether a tap lands on the mask's solid part. */
function onSoft(soft: Uint8Array, tap: Tap, image: RawImage): boolean {
  const { x, y } = pixelOf(tap, image);
  return soft[y * image.width + x]! >= SOLID;
}

/** Whether a tap lands within a finger's width (FINGER of the short side) of the mask's solid part. */
function nearSoft(soft: Uint8Array, tap: Tap, image: RawImage): boolean {
  return underFinger(tap, image).some((p) => soft[p]! >= SOLID);
}

function withAdded(soft: Uint8Array, added: Uint8Array): Uint8Array {
  return soft.map((value, p) => Math.max(value, added[p]!));
}

/** The objects the model drew under some taps, 0/1 at the photo's resolution. */
async function objectsUnder(
  full: SaliencyMap,
  found: Groups,
  taps: readonly Tap[],
  image: RawImage,
): Promise<Uint8Array> {
  const members = new Uint8Array(full.width * full.height);
  for (const group of found.groups.filter((g) => taps.some((tap) => onGroup(full, found, g, tap, image)))) {
    const own = membersOf(found.labels, group);
    for (let p = 0; p < members.length; p++) members[p] = members[p]! | own[p]!;
  }
  const soft = await softMask({ map: full, members, confidence: 0 }, image);
  return bytesFrom(soft, (v) => (v >= 128 ? 1 : 0));
}

/** Whether a tap lands on one of the group's pixels. */
function onGroup(full: SaliencyMap, found: Groups, group: SalientGroup, tap: Tap, image: RawImage): boolean {
  const at = pointInMap(full, tap, image)!;
  return group.members.has(found.labels[at.y * full.width + at.x]!);
}

/** Cuts the product out of a photo with the salient-object model, refined at the photo's resolution. */
export async function mlCutout(
  model: SalientObjectModel,
  image: RawImage,
  taps: readonly Tap[] = [],
): Promise<MlCutout> {
  const { soft, ...findings } = await findSubject(model, image, taps);
  return { ...refine(image, soft), ...findings };
}

function candidateOf(map: SaliencyMap, group: SalientGroup, image: RawImage): SubjectCandidate {
  const box = boxInPhoto(map, group.box);
  const x = map.window.x + ((group.point.x + 0.5) / map.width) * map.window.width;
  const y = map.window.y + ((group.point.y + 0.5) / map.height) * map.window.height;
  return { box, point: { x: round(x / image.width), y: round(y / image.height) }, score: round(group.score) };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
