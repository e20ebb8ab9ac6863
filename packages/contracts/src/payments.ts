import { Type, type Static } from 'typebox';
import { AddOnPack, Plan, type AddOnPackId, type PaidPlanId } from './plans.js';
import { SubscriptionInfo } from './users.js';

/** The spec's customer data; its billing values are placeholders the server does not rely on. */
export const CustomerData = Type.Object({
  email: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  billing: Type.Optional(
    Type.Object({
      city: Type.Optional(Type.String()),
      country: Type.Optional(Type.String()),
      state: Type.Optional(Type.String()),
      street: Type.Optional(Type.String()),
      zipcode: Type.Optional(Type.String()),
    }),
  ),
});
export type CustomerData = Static<typeof CustomerData>;

/**
 * A purchase names its plan or pack as a string: an unknown one is refused with its own message
 * ('Unknown plan'), not by validation. Customer data is accepted as any object, since nothing reads it.
 */
function purchaseRequest<Key extends string>() {
  return Type.Object({
    planKey: Type.Unsafe<Key>(Type.String({ maxLength: 40 })),
    customerData: Type.Optional(Type.Unsafe<CustomerData>(Type.Object({}, { description: 'CustomerData' }))),
    return_url: Type.Optional(Type.String({ maxLength: 2048 })),
  });
}

/**
 * `POST /api/payments/subscription`. return_url is accepted for the spec's sake but the server
 * builds the return URLs from its public URL, so a request cannot send a payer elsewhere.
 */
export const CreateSubscriptionRequest = purchaseRequest<PaidPlanId>();
export type CreateSubscriptionRequest = Static<typeof CreateSubscriptionRequest>;

/** `POST /api/payments/credits`. */
export const BuyCreditsRequest = purchaseRequest<AddOnPackId>();
export type BuyCreditsRequest = Static<typeof BuyCreditsRequest>;

/**
 * Where the payer goes next: Stripe Checkout for a first purchase, or the Billing Portal when the
 * seller's subscription has a payment due or pending (never a second Checkout); null when nothing
 * is left to pay (local provider, or a plan change taking effect next cycle: see
 * SubscriptionInfo.pendingPlan and endDate).
 */
export const PaymentLinkResponse = Type.Object({ payment_link: Type.Union([Type.String(), Type.Null()]) });
export type PaymentLinkResponse = Static<typeof PaymentLinkResponse>;

export const PlansResponse = Type.Object({ data: Type.Array(Plan) });
export type PlansResponse = Static<typeof PlansResponse>;

export const AddOnPlansResponse = Type.Object({ data: Type.Array(AddOnPack) });
export type AddOnPlansResponse = Static<typeof AddOnPlansResponse>;

export const PortalSessionResponse = Type.Object({ data: Type.Object({ url: Type.String() }) });
export type PortalSessionResponse = Static<typeof PortalSessionResponse>;

export const CancelSubscriptionResponse = Type.Object({
  data: Type.Object({ message: Type.String(), subscription: SubscriptionInfo }),
});
export type CancelSubscriptionResponse = Static<typeof CancelSubscriptionResponse>;

/** `POST /api/webhooks/stripe`: Stripe reads only the status; duplicate says the event id was applied before. */
export const WebhookReceipt = Type.Object({ received: Type.Literal(true), duplicate: Type.Boolean() });
export type WebhookReceipt = Static<typeof WebhookReceipt>;

export const NO_ACTIVE_SUBSCRIPTION_MESSAGE = 'No active subscription found';
export const CANCEL_SUCCESS_MESSAGE = 'Your subscription has been successfully canceled.';

/** Where the payment provider sends the payer back (docs/product-spec.md §4). */
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
