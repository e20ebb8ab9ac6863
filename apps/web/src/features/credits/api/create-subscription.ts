import type { CreateSubscriptionRequest, PaidPlanId, PaymentLinkResponse } from '@prodshot/contracts';
import { keyed, request } from '../../../lib/api-client.js';
import { paymentCall } from './payment-call.js';

const CREATE_SUBSCRIPTION_FAILED = 'Error creating subscription';

/** Subscribes to a paid plan: the answer's payment link is where the seller pays, null when nothing is owed now. */
export const createSubscription = (
  planKey: PaidPlanId,
  customerData: CreateSubscriptionRequest['customerData'],
  returnUrl: string,
  idempotencyKey: string,
) =>
  paymentCall(
    () =>
      request<PaymentLinkResponse>(
        'POST',
        '/payments/subscription',
        { planKey, customerData, return_url: returnUrl } satisfies CreateSubscriptionRequest,
        {
          headers: keyed(idempotencyKey),
          statusMessage: 'server-error',
        },
      ),
    CREATE_SUBSCRIPTION_FAILED,
  );
