import { cleanProductTitle, PRODUCT_TITLE_MAX_LENGTH, type ImageDto } from '@prodshot/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useId } from 'react';
import { api } from '../../lib/api-client.js';
import { queryKeys } from '../../lib/query-keys.js';

/** The seller's name for the product: optional, it names the downloads and tells the engine what it is. */
export function ProductTitleField({ value, onChange, onCommit }: {
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

/**
 * Saves an upload's title when it differs from the one stored, and keeps the cached image (and the
 * upload list) in step, so every screen names the product the same way.
 */
export function useSaveProductTitle(): (image: Pick<ImageDto, '_id'> & Partial<Pick<ImageDto, 'productTitle'>>, title: string) => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(
    async (image, title) => {
      const known = image.productTitle !== undefined ? image.productTitle : queryClient.getQueryData<{ data: ImageDto }>(queryKeys.image(image._id))?.data.productTitle;
      const stored = cleanProductTitle(known);
      if (cleanProductTitle(title) === stored) return;
      const { data } = await api.setImageTitle(image._id, title);
      queryClient.setQueryData(queryKeys.image(data._id), { data });
      void queryClient.invalidateQueries({ queryKey: queryKeys.images });
    },
    [queryClient],
  );
}
