import type { AcceptedResponse, SmartGenerateRequest } from '@prodshot/contracts';
import { useMutation } from '@tanstack/react-query';
import { keyed, request } from '../../../lib/api-client.js';
import { retryTransient } from '../../../lib/idempotency.js';

/** Starts a smart run: analysis, style recommendations, then one shot per style. */
export const smartGenerate = (body: SmartGenerateRequest, idempotencyKey: string) =>
  request<AcceptedResponse>('POST', '/images/smart-generate-product-shots', body, { headers: keyed(idempotencyKey) });

export function useSmartGenerate({
  onStarted,
  onError,
}: {
  onStarted: (generationId: string) => void;
  onError: (caught: Error) => void;
}) {
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: SmartGenerateRequest; idempotencyKey: string }) =>
      smartGenerate(body, idempotencyKey),
    retry: retryTransient,
    onSuccess: ({ data }) => onStarted(data.generationId),
    onError,
  });
}
