import type { ImageDto } from '@prodshot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { keyed, request } from '../../../lib/api-client.js';
import { retryTransient } from '../../../lib/idempotency.js';
import { queryKeys } from '../../../lib/query-keys.js';
import { useSaveProductTitle } from './set-image-title.js';

/** Stores a photo as a new upload; the key makes a retried send store it once. */
export function uploadImage(file: Blob, name: string | undefined, idempotencyKey: string) {
  const form = new FormData();
  if (name) form.append('name', name);
  form.append('image', file, name ?? 'upload');
  return request<ImageDto>('POST', '/images/upload', form, { headers: keyed(idempotencyKey) });
}

/**
 * The dashboard's upload of a chosen file: the editor then reads the upload from the cache, fresh as
 * it is, rather than asking again, and the upload list is read again.
 */
export function useUploadImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, idempotencyKey }: { file: File; idempotencyKey: string }) =>
      uploadImage(file, file.name, idempotencyKey),
    retry: retryTransient,
    onSuccess: (image) => {
      queryClient.setQueryData(queryKeys.image(image._id), { data: image });
      return queryClient.invalidateQueries({ queryKey: queryKeys.images });
    },
  });
}

/**
 * The smart page's upload: stored, checked, and named before the run starts (the engine reads the
 * stored title as its hint; a title that could not be saved costs only that hint). The upload is
 * then in the cache for the screens that show it.
 */
export function useUploadNamedImage({
  onUploaded,
  onError,
}: {
  onUploaded: (image: ImageDto) => void;
  onError: (caught: Error) => void;
}) {
  const queryClient = useQueryClient();
  const saveTitle = useSaveProductTitle();
  return useMutation({
    mutationFn: async ({ file, title, idempotencyKey }: { file: File; title: string; idempotencyKey: string }) => {
      const uploaded = await uploadImage(file, file.name, idempotencyKey);
      if (!uploaded?._id || !uploaded.fileId) throw new Error('invalid');
      // The titled image, when the title was saved: the bare upload answer would name downloads by file.
      return (await saveTitle(uploaded, title).catch(() => undefined)) ?? uploaded;
    },
    retry: retryTransient,
    onSuccess: (uploaded) => {
      queryClient.setQueryData(queryKeys.image(uploaded._id), { data: uploaded });
      onUploaded(uploaded);
      void queryClient.invalidateQueries({ queryKey: queryKeys.images });
    },
    onError,
  });
}
