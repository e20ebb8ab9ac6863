import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { newIdempotencyKey } from '../../lib/idempotency.js';
import { queryKeys } from '../../lib/query-keys.js';

export type CheckoutPhase = 'idle' | 'processing' | 'redirecting' | 'error';
/** docs/product-spec.md §4: 'Redirecting to Payment...' stays up this long before leaving. */
export const REDIRECT_DELAY_MS = 500;
/** The spec's placeholder billing values: the payment provider collects the real ones. */
export const PLACEHOLDER_BILLING = { city: 'N/A', country: 'US', state: 'N/A', street: 'N/A', zipcode: '00000' };

/** idle → processing → redirecting → 500 ms → the payment link, or `fallback` when there is none. */
export function useCheckoutFlow(fallback: string) {
  const [phase, setPhase] = useState<CheckoutPhase>('idle');
  /** The payment helper's own message (docs/product-spec.md §8, 'Create subscription'), under the screen's. */
  const [reason, setReason] = useState<string | null>(null);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  /** One click, one key: a double submit of the same click cannot buy twice. */
  async function run(pay: (idempotencyKey: string) => Promise<{ payment_link: string | null }>) {
    setPhase('processing');
    setReason(null);
    try {
      const { payment_link: link } = await pay(newIdempotencyKey());
      // Local payments grant at once: the counter must show the new credits on arrival.
      void queryClient.invalidateQueries({ queryKey: queryKeys.subscription });
      setPhase('redirecting');
      timer.current = setTimeout(() => {
        if (link) window.location.assign(link);
        else navigate(fallback);
      }, REDIRECT_DELAY_MS);
    } catch (error) {
      console.error('payment failed', error);
      setReason(error instanceof Error ? error.message : null);
      setPhase('error');
    }
  }
  return { phase, reason, run };
}
