import { MAX_TAPS, type Tap } from '@prodshot/contracts';
import { percent } from './image-box.js';
import './outline-taps.css';

/** What the seller's next tap on the outline does: keep (add) what it lands on, or remove it. */
export type TapMode = 'keep' | 'remove';

export const TAPS_FULL = `${MAX_TAPS} taps is the most: undo one to tap again.`;

const MODE_HINT: Record<TapMode, string> = {
  keep: 'Tap a part of your product that is missing to add it.',
  remove: 'Tap anything that is not your product to remove it.',
};

/** The taps with one more at the end, or null once MAX_TAPS are made. */
export function withTap(taps: readonly Tap[], tap: Tap): Tap[] | null {
  return taps.length >= MAX_TAPS ? null : [...taps, tap];
}

export interface TapToolbarProps {
  mode: TapMode;
  onMode: (mode: TapMode) => void;
  count: number;
  onUndo: () => void;
  /** While the outline is remade, Undo waits for it. */
  busy: boolean;
}

/** Keep or Remove for the next tap, Undo for the last one, and how many of the eight are made. */
export function TapToolbar({ mode, onMode, count, onUndo, busy }: TapToolbarProps) {
  return (
    <div className="tap-toolbar">
      <div className="tap-modes" role="group" aria-label="What your next tap does">
        <button
          type="button"
          className="tap-mode tap-mode-keep"
          aria-pressed={mode === 'keep'}
          onClick={() => onMode('keep')}
        >
          <span aria-hidden="true">+</span> Keep
        </button>
        <button
          type="button"
          className="tap-mode tap-mode-remove"
          aria-pressed={mode === 'remove'}
          onClick={() => onMode('remove')}
        >
          <span aria-hidden="true">−</span> Remove
        </button>
      </div>
      <button
        type="button"
        className="button button-ghost button-small"
        onClick={onUndo}
        disabled={busy || count === 0}
      >
        Undo
      </button>
      <span className="muted small tap-count">
        {count} of {MAX_TAPS} taps
      </span>
      <p className="muted small tap-mode-hint">{count >= MAX_TAPS ? TAPS_FULL : MODE_HINT[mode]}</p>
    </div>
  );
}

/** Each tap where it was made on the photo: a green + keeps, a red − removes; read out in order. */
export function TapMarkers({ taps }: { taps: readonly Tap[] }) {
  if (taps.length === 0) return null;
  return (
    <ol className="tap-dots" aria-label="Your taps on the photo">
      {taps.map((tap, index) => (
        <li
          key={index}
          className={`tap-dot ${tap.keep ? 'tap-dot-keep' : 'tap-dot-remove'}`}
          style={{ left: percent(tap.x), top: percent(tap.y) }}
        >
          <span aria-hidden="true">{tap.keep ? '+' : '−'}</span>
          <span className="sr-only">
            {tap.keep ? 'Keep' : 'Remove'} tap {index + 1}
          </span>
        </li>
      ))}
    </ol>
  );
}
