import type { AddOnPack, AddOnPackId, PaidPlanId, Plan } from './plans.js';
import type { SubscriptionInfo } from './users.js';

/** The spec's customer data; its billing values are placeholders the server does not rely on. */
export interface CustomerData {
  email?: string;
  name?: string;
  billing?: { city?: string; country?: string; state?: string; street?: string; zipcode?: string };
}

/**
 * `POST /api/payments/subscription`. return_url is accepted for the spec's sake but the server
 * builds the return URLs from its public URL, so a request cannot send a payer elsewhere.
 */
export interface CreateSubscriptionRequest {
  planKey: PaidPlanId;
  customerData?: CustomerData;
  return_url?: string;
}

/** `POST /api/payments/credits`. */
export interface BuyCreditsRequest {
  planKey: AddOnPackId;
  customerData?: CustomerData;
  return_url?: string;
}

/**
 * Where the payer goes next: Stripe Checkout for a first purchase, or the Billing Portal when the
 * seller's subscription has a payment due or pending (never a second Checkout); null when nothing
 * is left to pay (local provider, or a plan change taking effect next cycle: see
 * SubscriptionInfo.pendingPlan and endDate).
 */
export interface PaymentLinkResponse {
  payment_link: string | null;
}

export interface PlansResponse {
  data: Plan[];
}

export interface AddOnPlansResponse {
  data: AddOnPack[];
}

export interface PortalSessionResponse {
  data: { url: string };
}

export interface CancelSubscriptionResponse {
  data: { message: string; subscription: SubscriptionInfo };
}

export const NO_ACTIVE_SUBSCRIPTION_MESSAGE = 'No active subscription found';
export const CANCEL_SUCCESS_MESSAGE = 'Your subscription has been successfully canceled.';

/** Where the payment provider sends the payer back (spec §4). */
export function subscriptionReturnPath(plan: PaidPlanId): string {
  return `/dashboard?subscription_status=success&plan=${plan}`;
}

export function addOnReturnPath(pack: AddOnPackId): string {
  return `/dashboard?addon_status=success&plan=${pack}`;
}

/** Where the payer lands after abandoning the provider's page. */
export function subscriptionCancelPath(plan: PaidPlanId): string {
  return `/dashboard?subscription_status=failed&plan=${plan}`;
}

export function addOnCancelPath(): string {
  return '/pricing#add-on';
}
