import { cleanProductTitle, type ImageDto, type ImageResponse } from '@prodshot/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { request } from '../../../lib/api-client.js';
import { queryKeys } from '../../../lib/query-keys.js';

/** Names the upload's product (blank clears it): download names and the engine's hints use it. */
export const setImageTitle = (id: string, productTitle: string) =>
  request<ImageResponse>('PUT', `/images/${encodeURIComponent(id)}/title`, { productTitle });

/**
 * Saves an upload's title when it differs from the one stored, and keeps the cached image (and the
 * upload list) in step, so every screen names the product the same way. Answers the image as saved,
 * or undefined when the title was already stored.
 */
export function useSaveProductTitle(): (
  image: Pick<ImageDto, '_id'> & Partial<Pick<ImageDto, 'productTitle'>>,
  title: string,
) => Promise<ImageDto | undefined> {
  const queryClient = useQueryClient();
  return useCallback(
    async (image, title) => {
      const known =
        image.productTitle !== undefined
          ? image.productTitle
          : queryClient.getQueryData<ImageResponse>(queryKeys.image(image._id))?.data.productTitle;
      const stored = cleanProductTitle(known);
      if (cleanProductTitle(title) === stored) return undefined;
      const { data } = await setImageTitle(image._id, title);
      queryClient.setQueryData(queryKeys.image(data._id), { data });
      void queryClient.invalidateQueries({ queryKey: queryKeys.images });
      return data;
    },
    [queryClient],
  );
}
