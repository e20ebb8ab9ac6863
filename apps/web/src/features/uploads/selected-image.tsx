import type { RefObject } from 'react';
import { ProductTitleField } from '../../components/ui/product-title-field.js';
import './uploads.css';

/** The photo the seller goes on with: its preview, its name and product title, and a way back to choosing. */
export function SelectedImage({
  cardRef,
  preview,
  name,
  title,
  onTitle,
  onChooseAnother,
}: {
  cardRef: RefObject<HTMLDivElement | null>;
  preview: string;
  name: string | undefined;
  title: string;
  onTitle: (title: string) => void;
  onChooseAnother: () => void;
}) {
  return (
    <div className="selected card" ref={cardRef} tabIndex={-1} role="group" aria-label="Selected image">
      <img
        src={preview}
        alt={`Selected image ${name ?? ''}`.trim()}
        className="selected-preview"
        width={256}
        height={256}
      />
      <div className="selected-meta">
        <p className="selected-name">{name}</p>
        <ProductTitleField value={title} onChange={onTitle} />
        <button type="button" className="link-button" onClick={onChooseAnother}>
          Choose another image
        </button>
      </div>
    </div>
  );
}
