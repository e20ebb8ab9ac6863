import type { CoachWarning } from '@prodshot/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../lib/api-client.js';
import { newIdempotencyKey } from '../../lib/idempotency.js';
import { queryKeys } from '../../lib/query-keys.js';
import { uploadImage } from '../uploads/index.js';

/** Uploads at once: enough to keep the line busy, few enough not to crowd the seller's other requests. */
const PARALLEL_UPLOADS = 3;

export interface DraftItem {
  /** Stable while the list changes (a removed photo, a retried upload). */
  key: string;
  file: File;
  previewUrl: string;
  status: 'uploading' | 'ready' | 'failed';
  imageId: string | null;
  error: string | null;
  productTitle: string;
  /** The photo coach's pixel warnings the upload came back with; the product checks follow on its subject. */
  coach: CoachWarning[];
}

/**
 * Uploads a batch's photos as soon as they are picked, a few at a time, each with its own
 * Idempotency-Key (a retry of one never stores it twice). The batch starts only once every kept
 * photo is stored, so the confirmation reserves exactly what will run.
 */
export function useBatchUploads(files: File[]) {
  const queryClient = useQueryClient();
  const [items, setItems] = useState<DraftItem[]>(() =>
    files.map((file, n) => ({
      key: `${n}-${file.name}`,
      file,
      previewUrl: URL.createObjectURL(file),
      status: 'uploading',
      imageId: null,
      error: null,
      productTitle: '',
      coach: [],
    })),
  );
  const keys = useRef(new Map<string, string>());
  const started = useRef(new Set<string>());

  const patch = useCallback(
    (key: string, change: Partial<DraftItem>) =>
      setItems((all) => all.map((item) => (item.key === key ? { ...item, ...change } : item))),
    [],
  );

  const uploadOne = useCallback(
    async (item: DraftItem) => {
      const idempotencyKey = keys.current.get(item.key) ?? newIdempotencyKey();
      keys.current.set(item.key, idempotencyKey);
      try {
        const image = await uploadImage(item.file, item.file.name, idempotencyKey);
        patch(item.key, { status: 'ready', imageId: image._id, coach: image.coach ?? [], error: null });
      } catch (error) {
        patch(item.key, { status: 'failed', error: errorMessage(error, 'This photo could not be uploaded.') });
      }
    },
    [patch],
  );

  // Each photo starts uploading once, PARALLEL_UPLOADS at a time, in the order picked.
  useEffect(() => {
    const running = items.filter((item) => item.status === 'uploading' && started.current.has(item.key)).length;
    const next = items
      .filter((item) => item.status === 'uploading' && !started.current.has(item.key))
      .slice(0, Math.max(0, PARALLEL_UPLOADS - running));
    for (const item of next) {
      started.current.add(item.key);
      void uploadOne(item).finally(() => started.current.delete(item.key));
    }
  }, [items, uploadOne]);

  useEffect(() => {
    if (items.length > 0 && items.every((item) => item.status !== 'uploading'))
      void queryClient.invalidateQueries({ queryKey: queryKeys.images });
  }, [items, queryClient]);

  // Object URLs go with the screen.
  const previews = useRef(items.map((item) => item.previewUrl));
  useEffect(() => () => previews.current.forEach((url) => URL.revokeObjectURL(url)), []);

  return {
    items,
    retitle: (key: string, productTitle: string) => patch(key, { productTitle }),
    remove: (key: string) => setItems((all) => all.filter((item) => item.key !== key)),
    retry: (key: string) => patch(key, { status: 'uploading', error: null }),
  };
}
