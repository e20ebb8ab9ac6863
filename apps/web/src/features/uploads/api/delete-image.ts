import type { DeleteImageResponse } from '@prodshot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client.js';
import { queryKeys } from '../../../lib/query-keys.js';
import type { UploadItem } from '../upload-items.js';

export const deleteImage = (id: string) => request<DeleteImageResponse>('DELETE', `/images/${encodeURIComponent(id)}`);

/** Deletes an upload; the upload lists are read again once it is gone. */
export function useDeleteImage({ onSettled, onError }: { onSettled: () => void; onError: () => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (item: UploadItem) => deleteImage(item.imageId),
    onSuccess: () => {
      onSettled();
      void queryClient.invalidateQueries({ queryKey: queryKeys.images });
    },
    onError: () => {
      onSettled();
      onError();
    },
  });
}
