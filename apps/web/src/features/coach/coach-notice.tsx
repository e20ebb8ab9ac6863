import type { CoachWarning } from '@prodshot/contracts';
import { useId } from 'react';
import './coach.css';

export interface CoachNoticeProps {
  /** The upload's coach warnings, as its DTO or its subject carries them. Nothing shows without any. */
  warnings: readonly CoachWarning[] | undefined;
  /** Generate with this photo as it is; without it, the screen's own generate button is the way on. */
  onGoAhead?: () => void;
  /** Drop this photo for another. */
  onChooseAnother?: () => void;
  /** While the go-ahead is under way, its button waits. */
  busy?: boolean;
  /** The run has started with this photo: the tips are for the next one. */
  afterStart?: boolean;
}

/**
 * The photo coach before credits are spent: what is wrong with the photo and the one thing to do
 * about each, with going ahead anyway always open (warnings never block).
 */
export function CoachNotice({
  warnings,
  onGoAhead,
  onChooseAnother,
  busy = false,
  afterStart = false,
}: CoachNoticeProps) {
  const titleId = useId();
  if (!warnings?.length) return null;
  const when = afterStart ? 'for your next photo' : 'before you spend credits';
  return (
    <section className="coach" aria-labelledby={titleId}>
      <h2 className="coach-title" id={titleId}>
        {warnings.length === 1 ? `A tip ${when}` : `${warnings.length} tips ${when}`}
      </h2>
      <ul className="coach-list">
        {warnings.map((warning) => (
          <li key={warning.code} className="coach-item" data-code={warning.code}>
            <p className="coach-message">{warning.message}</p>
            <p className="coach-advice">{warning.advice}</p>
          </li>
        ))}
      </ul>
      {/* A refused photo cannot go ahead as it is: its warning repeats the refusal, not a tip to weigh. */}
      {!afterStart && !warnings.some((warning) => warning.code === 'no_product') && (
        <p className="coach-footer small">These are tips, not blocks: you can go ahead with this photo as it is.</p>
      )}
      {(onGoAhead || onChooseAnother) && (
        <div className="coach-actions">
          {onGoAhead && (
            <button type="button" className="button" onClick={onGoAhead} disabled={busy}>
              Go ahead anyway
            </button>
          )}
          {onChooseAnother && (
            <button type="button" className="button button-ghost" onClick={onChooseAnother} disabled={busy}>
              Choose another photo
            </button>
          )}
        </div>
      )}
    </section>
  );
}

/**
 * One photo's tips in one line, where a screen lists several photos (a batch): what is wrong, with
 * the advice a tap away, so three photos with one problem read as three short lines, not three notices.
 */
export function CoachLine({ warnings }: { warnings: readonly CoachWarning[] | undefined }) {
  if (!warnings?.length) return null;
  return (
    <details className="coach-line">
      <summary>
        <span className="coach-line-label">{warnings.length === 1 ? 'Tip:' : `${warnings.length} tips:`}</span>{' '}
        {warnings.map((warning) => warning.message).join(' ')}
      </summary>
      <ul className="coach-list">
        {warnings.map((warning) => (
          <li key={warning.code} className="coach-item" data-code={warning.code}>
            <p className="coach-advice">{warning.advice}</p>
          </li>
        ))}
      </ul>
    </details>
  );
}
