import { PRODUCT_TITLE_MAX_LENGTH } from '@prodshot/contracts';
import { useId } from 'react';

/** The seller's name for the product: optional, it names the downloads and tells the engine what it is. */
export function ProductTitleField({
  value,
  onChange,
  onCommit,
}: {
  value: string;
  onChange: (title: string) => void;
  /** Called when the seller leaves the field or presses Enter: where the title is saved at once. */
  onCommit?: () => void;
}) {
  const id = useId();
  return (
    <div className="field product-title">
      <label htmlFor={`${id}-input`}>Product title (optional)</label>
      <input
        id={`${id}-input`}
        name="productTitle"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onCommit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') onCommit?.();
        }}
        maxLength={PRODUCT_TITLE_MAX_LENGTH}
        placeholder="e.g. Blue ceramic mug"
        autoComplete="off"
        aria-describedby={`${id}-hint`}
      />
      <span id={`${id}-hint`} className="muted small field-hint">
        Names your downloads and tells us what the product is.
      </span>
    </div>
  );
}
