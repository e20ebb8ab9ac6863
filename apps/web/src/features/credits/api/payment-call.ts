import type { PaymentLinkResponse } from '@prodshot/contracts';
import { ApiError, NoResponseError } from '../../../lib/api-client.js';

const PAYMENT_NO_RESPONSE = 'No response received from payment server';

/**
 * docs/product-spec.md §8's payment helpers: the server's message or 'Server error: {status}', 'No response received
 * from payment server' when nothing came back, and `otherwise` for anything else (a request that
 * could not be made, an answer without its payment link).
 */
export async function paymentCall(
  call: () => Promise<PaymentLinkResponse>,
  otherwise: string,
): Promise<PaymentLinkResponse> {
  let answer: PaymentLinkResponse;
  try {
    answer = await call();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof NoResponseError) throw new Error(PAYMENT_NO_RESPONSE, { cause: error });
    throw new Error(otherwise, { cause: error });
  }
  const link: unknown = (answer as Partial<PaymentLinkResponse> | undefined)?.payment_link;
  if (link !== null && typeof link !== 'string') throw new Error(otherwise);
  return answer;
}
