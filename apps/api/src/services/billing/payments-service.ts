import {
  alreadySubscribedMessage,
  CANCEL_SUCCESS_MESSAGE,
  findAddOnPack,
  findPlan,
  NO_ACTIVE_SUBSCRIPTION_MESSAGE,
  type CancelSubscriptionResponse,
  type PaymentLinkResponse,
  type PortalSessionResponse,
} from '@prodshot/contracts';
import type { Repositories } from '@prodshot/db';
import type { AuthUser } from '../auth-user.js';
import { holdsPlan, isActive, subscriptionInfo } from './subscription-lifecycle.js';
import { HttpError } from '../http-error.js';
import type { PaymentsProvider } from './payments-provider.js';

/** The seller's purchases and subscription changes, whichever payment provider runs them. */
export class PaymentsService {
  constructor(
    private readonly repos: Repositories,
    private readonly provider: PaymentsProvider,
  ) {}

  async subscribe(user: AuthUser, planKey: string, idempotencyKey: string | undefined): Promise<PaymentLinkResponse> {
    const plan = findPlan(planKey);
    if (!plan) throw new HttpError(400, 'Unknown plan', 'unknown_plan');
    const current = await this.repos.subscriptions.findByUserId(user.id);
    if (holdsPlan(current, plan.id)) throw new HttpError(409, alreadySubscribedMessage(plan.id), 'already_subscribed');
    const result = await this.provider.subscribe({ user, plan, current, idempotencyKey });
    return { payment_link: result.paymentLink };
  }

  async buyAddOn(user: AuthUser, packKey: string, idempotencyKey: string | undefined): Promise<PaymentLinkResponse> {
    const pack = findAddOnPack(packKey);
    if (!pack) throw new HttpError(400, 'Unknown add-on pack', 'unknown_plan');
    const current = await this.repos.subscriptions.findByUserId(user.id);
    const result = await this.provider.buyAddOn({ user, pack, current, idempotencyKey });
    return { payment_link: result.paymentLink };
  }

  async portalSession(user: AuthUser): Promise<PortalSessionResponse> {
    const current = await this.repos.subscriptions.findByUserId(user.id);
    const url = await this.provider.portalSession({ user, current });
    if (!url) throw new HttpError(404, 'No billing account found', 'no_billing_account');
    return { data: { url } };
  }

  async cancel(user: AuthUser): Promise<CancelSubscriptionResponse> {
    const current = await this.repos.subscriptions.findByUserId(user.id);
    if (!isActive(current)) throw new HttpError(404, NO_ACTIVE_SUBSCRIPTION_MESSAGE, 'no_active_subscription');
    await this.provider.cancelAtPeriodEnd(current);
    const updated = await this.repos.subscriptions.findByUserId(user.id);
    return { data: { message: CANCEL_SUCCESS_MESSAGE, subscription: subscriptionInfo(updated) } };
  }
}
