import { OUTLINE_CONFIRM_LABEL, OUTLINE_PROMPT, type SubjectDto } from '@prodshot/contracts';
import type { MouseEvent } from 'react';
import { Spinner } from '../../components/ui/spinner.js';
import { focusAt, pictureBox } from './image-box.js';
import { useOutlineActions } from './api/outline.js';
import './outline-check.css';

export const OUTLINE_REMAKING = 'Cutting out your product…';
const OUTLINE_FAILED = 'Could not cut out your product there. Tap it again.';

/** Why the engine doubts the outline, in a seller's words. */
const DOUBTS: Record<string, string> = {
  touches_frame: 'it runs into the edge of the photo',
  several_parts: 'it is in several pieces',
  large_share: 'it fills most of the photo',
  low_score: 'the photo is hard to read',
  several_objects: 'the photo holds more than one object',
};

/** Whether the generate button waits: an unsure outline the seller has neither confirmed nor fixed, and no tap of the page's own. */
export function outlineHolds(subject: SubjectDto | undefined, pageFocus: unknown): boolean {
  return Boolean(subject?.outline?.needsConfirmation) && !pageFocus;
}

export interface OutlineCheckProps {
  subject: SubjectDto | undefined;
  /** Once generation has started, the outline is only shown. */
  locked?: boolean;
}

/**
 * What Prodshot took for the product, before any credit is held: the cutout on a checkerboard.
 * Tapping it sends the tap and shows the outline for it; an unsure outline asks to be confirmed.
 */
export function OutlineCheck({ subject, locked = false }: OutlineCheckProps) {
  const outline = subject?.status === 'ready' ? subject.outline : null;
  const actions = useOutlineActions(subject?.imageId ?? null);
  if (!outline?.url) return null;
  const active = !locked && !actions.busy;

  function tap(event: MouseEvent<HTMLImageElement>) {
    if (!active) return;
    const picture = pictureBox(event.currentTarget);
    const focus = picture && focusAt(event.clientX, event.clientY, picture);
    if (focus) actions.remake.mutate(focus);
  }

  const reasons = outline.reasons.map((reason) => DOUBTS[reason]).filter(Boolean);
  return (
    <div className="outline-check" data-testid="outline-check">
      <p className="outline-prompt">{OUTLINE_PROMPT}</p>
      <div className={`outline-frame${active ? ' outline-frame-active' : ''}`}>
        <img src={outline.url} alt="Your product as Prodshot cut it out" className="outline-cutout" draggable={false} onClick={tap} />
        {actions.remake.isPending && (
          <div className="tap-pending">
            <Spinner label={OUTLINE_REMAKING} showLabel />
          </div>
        )}
      </div>
      {outline.needsConfirmation && (
        <>
          <p className="notice small" role="status">
            We are not sure this is all of your product{reasons.length ? `: ${reasons.join(', ')}` : ''}. Check it, then confirm or tap your product to fix it.
          </p>
          <button type="button" className="button button-ghost" onClick={() => actions.confirm.mutate()} disabled={!active}>
            {OUTLINE_CONFIRM_LABEL}
          </button>
        </>
      )}
      {outline.confirmed && <p className="muted small">Confirmed: your shots use this outline.</p>}
      {outline.focus && !outline.confirmed && <p className="muted small">Fixed with your tap: your shots use this outline.</p>}
      {actions.error && (
        <p className="form-error" role="alert">
          {actions.error instanceof Error && actions.error.message ? actions.error.message : OUTLINE_FAILED}
        </p>
      )}
    </div>
  );
}
