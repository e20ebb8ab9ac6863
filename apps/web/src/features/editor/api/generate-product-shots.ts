import type { AcceptedResponse, ProductShotRequest, ShotBackground } from '@prodshot/contracts';
import { useMutation } from '@tanstack/react-query';
import { keyed, request, RESPOND_ASYNC } from '../../../lib/api-client.js';
import { retryTransient } from '../../../lib/idempotency.js';

/**
 * ProductShotRequest's static type reads backgroundType as undefined (its TypeBox union is built from a
 * widened array), so it is typed here from ShotBackground (a template handle or 'auto').
 */
export type ShotRequest = Omit<ProductShotRequest, 'backgroundType'> & { backgroundType?: ShotBackground };

/** Starts template, custom or auto shots: 202 with the generation id, the shots arrive over the socket. */
export const generateProductShots = (body: ShotRequest, idempotencyKey: string) =>
  request<AcceptedResponse>('POST', '/images/generate-product-shots', body, {
    headers: { ...keyed(idempotencyKey), ...RESPOND_ASYNC },
  });

/** Starts the shots; the API answers at once with the generation's id, the shots arrive over the socket. */
export function useGenerateProductShots<Context>({
  onMutate,
  onStarted,
  onError,
}: {
  onMutate: () => void;
  onStarted: (generationId: string, context: Context) => void;
  onError: (caught: Error) => void;
}) {
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: ShotRequest; context: Context; idempotencyKey: string }) =>
      generateProductShots(body, idempotencyKey),
    retry: retryTransient,
    onMutate,
    onSuccess: ({ data }, { context }) => onStarted(data.generationId, context),
    onError,
  });
}
