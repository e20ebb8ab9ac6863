import { EXPORT_PRESETS, type ExportPresetId } from '@prodshot/contracts';
import { useCallback, useState } from 'react';

/** The presets a checklist can be read against: the marketplaces (a transparent cutout is no marketplace). */
export const MARKETPLACES = (['amazon', 'etsy', 'shopify', 'instagram-post', 'instagram-story'] as const).map(
  (id) => EXPORT_PRESETS[id],
);

const STORAGE_KEY = 'prodshot.marketplace';

function stored(): ExportPresetId {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return MARKETPLACES.find((preset) => preset.id === value)?.id ?? 'amazon';
  } catch {
    return 'amazon';
  }
}

/** The marketplace the seller sells on: chosen once, remembered for every result after. */
export function useMarketplace(): [ExportPresetId, (id: ExportPresetId) => void] {
  const [marketplace, setMarketplace] = useState<ExportPresetId>(stored);
  const choose = useCallback((id: ExportPresetId) => {
    setMarketplace(id);
    try {
      localStorage.setItem(STORAGE_KEY, id);
    } catch {
      // Private modes may refuse storage: the choice then lasts for this page only.
    }
  }, []);
  return [marketplace, choose];
}

/** A preset's frame in words: '2000 × 2000 px', or the cutout's own size. */
export function frameOf(id: ExportPresetId): string {
  const { width, height } = EXPORT_PRESETS[id];
  return width && height ? `${width} × ${height} px` : 'product size';
}

export const FORMAT_LABELS = { png: 'PNG', jpeg: 'JPEG', webp: 'WebP' } as const;
