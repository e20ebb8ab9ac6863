import { OUTPUTS_PER_REQUEST_MAX } from '@prodshot/contracts';

const COUNTS = Array.from({ length: OUTPUTS_PER_REQUEST_MAX }, (_, index) => index + 1);

/** One credit per image (decisions.md), whatever the mode. */
export function creditCost(count: number): string {
  return `${count} ${count === 1 ? 'credit' : 'credits'}`;
}

/** Auto mode (spec §4): the engine picks the scene; the seller picks how many images, and sees what they cost. */
export function AutoPanel({ count, onCount }: { count: number; onCount: (count: number) => void }) {
  return (
    <div className="auto-panel">
      <p className="auto-intro">We read your product&apos;s kind and colours and pick the scene that suits it best.</p>
      <fieldset className="count-options">
        <legend>Number of images</legend>
        <div className="count-row">
          {COUNTS.map((n) => (
            <label key={n} className={n === count ? 'count-option selected' : 'count-option'}>
              <input type="radio" name="auto-count" value={n} checked={n === count} onChange={() => onCount(n)} />
              <span>{n}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <p className="auto-cost" aria-live="polite">
        Cost: <strong>{creditCost(count)}</strong>
      </p>
    </div>
  );
}
