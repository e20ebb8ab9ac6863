import type { AddOnPackId, BuyCreditsRequest, PaymentLinkResponse } from '@prodshot/contracts';
import { keyed, request } from '../../../lib/api-client.js';
import { paymentCall } from './payment-call.js';

const BUY_CREDITS_FAILED = 'Error purchasing credits';

/** Buys an add-on pack: the answer's payment link is where the seller pays, null when granted at once. */
export const buyCredits = (
  planKey: AddOnPackId,
  customerData: BuyCreditsRequest['customerData'],
  returnUrl: string,
  idempotencyKey: string,
) =>
  paymentCall(
    () =>
      request<PaymentLinkResponse>(
        'POST',
        '/payments/credits',
        { planKey, customerData, return_url: returnUrl } satisfies BuyCreditsRequest,
        {
          headers: keyed(idempotencyKey),
          statusMessage: 'server-error',
        },
      ),
    BUY_CREDITS_FAILED,
  );
