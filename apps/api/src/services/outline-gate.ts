import { OUTLINE_UNCONFIRMED_MESSAGE, outlineNeedsConfirmation, type Focus } from '@prodshot/contracts';
import type { ImageRow } from '@prodshot/db';
import { HttpError } from './http-error.js';

/**
 * The focus a generation from this upload uses: the call's own tap, else the one the seller fixed
 * the outline with (none: the engine's pick, the outline they confirmed or that it was sure of).
 */
export function chosenFocus(image: ImageRow, focus: Focus | undefined): Focus | undefined {
  return focus ?? image.outline?.focus ?? undefined;
}

/**
 * chosenFocus for a call that holds credits: an unsure outline the seller has neither confirmed
 * nor fixed is 409 `outline_unconfirmed` before anything is reserved. A call's own focus is the
 * seller's choice, as the tap step makes it. An upload whose outline is not made yet is not held
 * back: the upload screens wait for it, and API clients keep today's behaviour.
 */
export function paidFocus(image: ImageRow, focus: Focus | undefined): Focus | undefined {
  if (!focus && outlineNeedsConfirmation(image.outline)) throw new HttpError(409, OUTLINE_UNCONFIRMED_MESSAGE, 'outline_unconfirmed', { imageId: image.id });
  return chosenFocus(image, focus);
}
