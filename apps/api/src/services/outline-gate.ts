import {
  OUTLINE_UNCONFIRMED_MESSAGE,
  outlineNeedsConfirmation,
  storedTaps,
  tapsOf,
  type FocusInput,
  type Tap,
} from '@prodshot/contracts';
import type { ImageRow } from '@prodshot/db';
import { HttpError } from './http-error.js';

/**
 * The taps a generation from this upload uses, read here once for every call: the call's own
 * `focus` (a lone point is one keep tap), else the taps the seller fixed the outline with (none:
 * the engine's pick, the outline they confirmed or that it was sure of).
 */
export function chosenTaps(image: ImageRow, focus: FocusInput | undefined): Tap[] | undefined {
  return tapsOf(focus) ?? storedTaps(image.outline?.focus);
}

/**
 * chosenTaps for a call that holds credits: an unsure outline the seller has neither confirmed
 * nor fixed is 409 `outline_unconfirmed` before anything is reserved. A call's own focus is the
 * seller's choice, as the tap step makes it. An upload whose outline is not made yet is not held
 * back: the upload screens wait for it, and API clients keep today's behaviour.
 */
export function paidTaps(image: ImageRow, focus: FocusInput | undefined): Tap[] | undefined {
  if (!focus && outlineNeedsConfirmation(image.outline))
    throw new HttpError(409, OUTLINE_UNCONFIRMED_MESSAGE, 'outline_unconfirmed', { imageId: image.id });
  return chosenTaps(image, focus);
}
