import {
  MAX_TAPS,
  OUTLINE_CONFIRM_LABEL,
  OUTLINE_PROMPT,
  type Focus,
  type FocusInput,
  type SubjectDto,
} from '@prodshot/contracts';
import { useState, type MouseEvent } from 'react';
import { Spinner } from '../../components/ui/spinner.js';
import { focusAt, pictureBox } from './image-box.js';
import { useOutlineActions } from './api/outline.js';
import { TapMarkers, TapToolbar, withTap, type TapMode } from './outline-taps.js';
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

/**
 * What a paid call sends as `focus`: the taps the seller fixed the outline with (what they saw cut
 * out), else the page's own tap from the tap step, else nothing: the server then uses the outline
 * the seller confirmed, or the engine's sure pick.
 */
export function focusToSend(subject: SubjectDto | undefined, pageFocus: Focus | null): FocusInput | undefined {
  return subject?.outline?.focus ?? pageFocus ?? undefined;
}

export interface OutlineCheckProps {
  subject: SubjectDto | undefined;
  /** Once generation has started, the outline is only shown. */
  locked?: boolean;
}

/**
 * What Prodshot took for the product, before any credit is held: the cutout on a checkerboard.
 * Each tap on it keeps or removes what it lands on (up to MAX_TAPS, the last undoable), marked
 * where it was made, and the outline is made again for the whole list; an unsure outline asks to
 * be confirmed.
 */
export function OutlineCheck({ subject, locked = false }: OutlineCheckProps) {
  const outline = subject?.status === 'ready' ? subject.outline : null;
  const actions = useOutlineActions(subject?.imageId ?? null);
  const [mode, setMode] = useState<TapMode>('keep');
  if (!outline?.url) return null;
  // While the outline is made again, the taps sent for it show; then those it was made for.
  const taps = (actions.remake.isPending ? actions.remake.variables : outline.focus) ?? [];
  const active = !locked && !actions.busy;
  const tappable = active && taps.length < MAX_TAPS;

  function tap(event: MouseEvent<HTMLImageElement>) {
    if (!tappable) return;
    const picture = pictureBox(event.currentTarget);
    const point = picture && focusAt(event.clientX, event.clientY, picture);
    const next = point && withTap(taps, { ...point, keep: mode === 'keep' });
    if (next) actions.remake.mutate(next);
  }

  const reasons = outline.reasons.map((reason) => DOUBTS[reason]).filter(Boolean);
  return (
    <div className="outline-check" data-testid="outline-check">
      <p className="outline-prompt">{OUTLINE_PROMPT}</p>
      {!locked && (
        <TapToolbar
          mode={mode}
          onMode={setMode}
          count={taps.length}
          onUndo={() => actions.remake.mutate(taps.slice(0, -1))}
          busy={actions.busy}
        />
      )}
      <div className={`outline-frame${tappable ? ' outline-frame-active' : ''}`}>
        <img
          src={outline.url}
          alt="Your product as Prodshot cut it out"
          className="outline-cutout"
          draggable={false}
          onClick={tap}
        />
        <TapMarkers taps={taps} />
        {actions.remake.isPending && (
          <div className="tap-pending">
            <Spinner label={OUTLINE_REMAKING} showLabel />
          </div>
        )}
      </div>
      {outline.needsConfirmation && (
        <>
          <p className="notice small" role="status">
            We are not sure this is all of your product{reasons.length ? `: ${reasons.join(', ')}` : ''}. Check it, then
            confirm or tap your product to fix it.
          </p>
          <button
            type="button"
            className="button button-ghost"
            onClick={() => actions.confirm.mutate()}
            disabled={!active}
          >
            {OUTLINE_CONFIRM_LABEL}
          </button>
        </>
      )}
      {outline.confirmed && <p className="muted small">Confirmed: your shots use this outline.</p>}
      {outline.focus && !outline.confirmed && (
        <p className="muted small">
          Fixed with your {outline.focus.length === 1 ? 'tap' : 'taps'}: your shots use this outline.
        </p>
      )}
      {actions.error && (
        <p className="form-error" role="alert">
          {actions.error instanceof Error && actions.error.message ? actions.error.message : OUTLINE_FAILED}
        </p>
      )}
    </div>
  );
}
