import type { CSSProperties } from 'react';
import './count-choice.css';

/** One credit per image (docs/decisions.md), whatever the mode. */
export function creditCost(count: number): string {
  return `${count} ${count === 1 ? 'credit' : 'credits'}`;
}

/** How many images (or styles) to make, 1 to `max`, with what they cost shown before the click. */
export function CountChoice({
  name,
  legend,
  max,
  count,
  onCount,
}: {
  name: string;
  legend: string;
  max: number;
  count: number;
  onCount: (count: number) => void;
}) {
  const counts = Array.from({ length: max }, (_, index) => index + 1);
  return (
    <>
      <fieldset className="count-options">
        <legend>{legend}</legend>
        <div className="count-row" style={{ '--counts': max } as CSSProperties}>
          {counts.map((n) => (
            <label key={n} className={n === count ? 'count-option selected' : 'count-option'}>
              <input type="radio" name={name} value={n} checked={n === count} onChange={() => onCount(n)} />
              <span>{n}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <p className="auto-cost" aria-live="polite">
        Cost: <strong>{creditCost(count)}</strong>
      </p>
    </>
  );
}
