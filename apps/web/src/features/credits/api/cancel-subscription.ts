import type { CancelSubscriptionResponse, SubscriptionResponse } from '@prodshot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client.js';
import { queryKeys } from '../../../lib/query-keys.js';

export const cancelSubscription = () =>
  request<CancelSubscriptionResponse>('POST', '/payments/cancel-subscription', {}, { statusMessage: 'server-error' });

/** Cancels the plan; docs/product-spec.md §4: the status reads canceled at once, whatever the refetch brings later. */
export function useCancelSubscription({
  onSuccess,
  onError,
}: {
  onSuccess: () => void;
  onError: (caught: Error) => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelSubscription,
    onSuccess: (response) => {
      queryClient.setQueryData<SubscriptionResponse>(queryKeys.subscription, (current) =>
        current
          ? {
              ...current,
              isActive: false,
              subscription: { ...current.subscription, ...response.data.subscription, status: 'canceled' },
            }
          : current,
      );
      onSuccess();
    },
    onError,
  });
}
