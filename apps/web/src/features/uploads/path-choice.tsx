import type { Ref } from 'react';
import './uploads.css';

/** The two ways on from a chosen photo: the smart flow or the manual editor. */
export function PathChoice({
  ref,
  onSmart,
  onManual,
  uploading,
}: {
  ref?: Ref<HTMLDivElement>;
  onSmart: () => void;
  onManual: () => void;
  uploading: boolean;
}) {
  return (
    <div className="paths" ref={ref}>
      <div className="path card">
        <h2>Smart Generation</h2>
        <p className="muted">We analyse your product and design four styles for it automatically.</p>
        <button type="button" className="button button-block" onClick={onSmart}>
          Continue with Smart Upload
        </button>
      </div>
      <div className="path card">
        <h2>Manual Generation</h2>
        <p className="muted">Pick one of nine templates or describe your own background.</p>
        <button type="button" className="button button-ghost button-block" onClick={onManual} disabled={uploading}>
          {uploading ? 'Uploading…' : 'Continue with Manual Design'}
        </button>
      </div>
    </div>
  );
}
