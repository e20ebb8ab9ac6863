import type { PortalSessionResponse } from '@prodshot/contracts';
import { useMutation } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router-dom';
import { ApiError, request } from '../../../lib/api-client.js';

export const createPortalSession = () => request<PortalSessionResponse>('POST', '/payments/portal-session');

const NO_BILLING_ACCOUNT = 'no_billing_account';

/**
 * Opens the payment provider's billing page (invoices, card, plan). A seller without a billing
 * account, or already on the page the provider names, goes to `fallback` instead.
 */
export function useBillingPortal(fallback: string) {
  const navigate = useNavigate();
  const location = useLocation();
  const portal = useMutation({
    mutationFn: createPortalSession,
    onSuccess: ({ data }) => {
      const target = new URL(data.url, window.location.href);
      if (target.origin !== window.location.origin) return window.location.assign(target.href);
      // Without a payment processor the 'portal' is a page of this app: opened in place, not reloaded.
      navigate(target.pathname === location.pathname ? fallback : `${target.pathname}${target.search}${target.hash}`);
    },
    onError: (caught) => {
      if (caught instanceof ApiError && caught.code === NO_BILLING_ACCOUNT) navigate(fallback);
    },
  });
  const failed = portal.isError && !(portal.error instanceof ApiError && portal.error.code === NO_BILLING_ACCOUNT);
  return {
    open: () => portal.mutate(),
    opening: portal.isPending,
    error: failed ? 'Could not open your billing page. Please try again.' : null,
  };
}
