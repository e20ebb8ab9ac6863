import { OUTPUTS_PER_REQUEST_MAX } from '@prodshot/contracts';
import { CountChoice } from '../../components/ui/count-choice.js';
import './editor.css';

/** Auto mode (docs/product-spec.md §4): the engine picks the scene; the seller picks how many images, and sees what they cost. */
export function AutoPanel({ count, onCount }: { count: number; onCount: (count: number) => void }) {
  return (
    <div className="auto-panel">
      <p className="auto-intro">We read your product&apos;s kind and colours and pick the scene that suits it best.</p>
      <CountChoice
        name="auto-count"
        legend="Number of images"
        max={OUTPUTS_PER_REQUEST_MAX}
        count={count}
        onCount={onCount}
      />
    </div>
  );
}
