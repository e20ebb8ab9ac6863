import { EmptyImageError } from '../../errors.js';
import type { Groups, SaliencyMap, SalientGroup } from './saliency-map.js';

/** Below this sureness nothing was found: refuse rather than charge for an empty shot. */
export const NOTHING = 0.2;
/** A salient thing spanning the frame is the surface itself unless the model is at least this sure of it… */
const SURE_SURFACE = 0.6;
/** …and when it covers this share of the frame: a wall fills it, boats behind a bag in a room do not (0.2). */
const SURFACE_SHARE = 1 / 3;

/** What the refusal of a bare surface says: the seller sees it, and the coach repeats it. */
export const BARE_SURFACE = 'it looks like a bare surface, with no product on it';

/**
 * Refuses an untapped photo with nothing to cut out, before any credit is held: the model marks
 * nothing, or is not even a fifth sure of the most salient thing, or that thing runs from one
 * edge of the frame to the opposite one, covers a third of it, the model is unsure of it, and
 * nothing else in the photo could be a product (something apart from the frame's edges that it is
 * at least a fifth sure of: a shoe in a room whose boats span the frame). A textured surface (a
 * brick wall) looks like that, a product photographed whole does not. Tapped photos are not
 * judged here: the seller has said where the product is.
 */
export function refuseIfEmpty(map: SaliencyMap, { groups }: Groups): void {
  const best = groups[0];
  if (!best) throw new EmptyImageError();
  const surface =
    best.confidence < SURE_SURFACE && best.area >= SURFACE_SHARE * map.width * map.height && spansFrame(map, best);
  if (surface && !groups.some((group) => group.confidence >= NOTHING && !spansFrame(map, group)))
    throw new EmptyImageError(BARE_SURFACE);
  if (best.confidence < NOTHING) throw new EmptyImageError();
}

function spansFrame(map: SaliencyMap, { box }: SalientGroup): boolean {
  return (box.x === 0 && box.x + box.width === map.width) || (box.y === 0 && box.y + box.height === map.height);
}
