import { sql } from 'kysely';
import type { Db } from '../database.js';
import type { CancelledSecondSubscriptionRow, PlanId, SubscriptionRow, SubscriptionsTable } from '../schema.js';

export interface SubscriptionWrite {
  plan: Exclude<PlanId, 'none'>;
  status: string;
  provider: SubscriptionsTable['provider'];
  providerCustomerId?: string | null;
  providerSubscriptionId?: string | null;
  currentPeriodStart?: Date | null;
  currentPeriodEnd?: Date | null;
}

export interface CancelledSecond {
  userId: string;
  providerSubscriptionId: string;
  keptSubscriptionId: string;
  plan: Exclude<PlanId, 'none'>;
  refunded: boolean;
}

export interface SubscriptionPatch {
  plan?: PlanId;
  status?: string;
  pendingPlan?: PlanId | null;
  cancelAtPeriodEnd?: boolean;
  providerCustomerId?: string | null;
  currentPeriodStart?: Date | null;
  currentPeriodEnd?: Date | null;
  providerEventAt?: Date;
}

/** One subscription row per user (unique user_id): buying again replaces the plan in place. */
export class SubscriptionsRepository {
  constructor(private readonly db: Db) {}

  async findByUserId(userId: string): Promise<SubscriptionRow | undefined> {
    return this.db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  async findByProviderSubscriptionId(providerSubscriptionId: string): Promise<SubscriptionRow | undefined> {
    return this.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('provider_subscription_id', '=', providerSubscriptionId)
      .executeTakeFirst();
  }

  /** Activation: the user's row becomes this plan, clearing any earlier cancellation or pending change. */
  async activate(userId: string, write: SubscriptionWrite): Promise<SubscriptionRow> {
    const values = {
      plan: write.plan,
      status: write.status,
      provider: write.provider,
      provider_customer_id: write.providerCustomerId ?? null,
      provider_subscription_id: write.providerSubscriptionId ?? null,
      pending_plan: null,
      cancel_at_period_end: false,
      current_period_start: write.currentPeriodStart ?? null,
      current_period_end: write.currentPeriodEnd ?? null,
    };
    return this.db
      .insertInto('subscriptions')
      .values({ user_id: userId, ...values })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({
          ...values,
          // An event that carries no period must not erase the one a previous event stored.
          current_period_start: (eb) =>
            eb.fn.coalesce('excluded.current_period_start', 'subscriptions.current_period_start'),
          current_period_end: (eb) => eb.fn.coalesce('excluded.current_period_end', 'subscriptions.current_period_end'),
          provider_customer_id: (eb) =>
            eb.fn.coalesce('excluded.provider_customer_id', 'subscriptions.provider_customer_id'),
          // Event order is per provider subscription: another subscription starts with none applied.
          provider_event_at: sql`case when subscriptions.provider_subscription_id is not distinct from excluded.provider_subscription_id then subscriptions.provider_event_at end`,
          updated_at: new Date(),
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async update(id: string, patch: SubscriptionPatch): Promise<SubscriptionRow | undefined> {
    return this.db
      .updateTable('subscriptions')
      .set({
        ...(patch.plan !== undefined ? { plan: patch.plan } : {}),
        ...(patch.status !== undefined ? { status: patch.status } : {}),
        ...(patch.pendingPlan !== undefined ? { pending_plan: patch.pendingPlan } : {}),
        ...(patch.cancelAtPeriodEnd !== undefined ? { cancel_at_period_end: patch.cancelAtPeriodEnd } : {}),
        ...(patch.providerCustomerId !== undefined ? { provider_customer_id: patch.providerCustomerId } : {}),
        ...(patch.currentPeriodStart !== undefined ? { current_period_start: patch.currentPeriodStart } : {}),
        ...(patch.currentPeriodEnd !== undefined ? { current_period_end: patch.currentPeriodEnd } : {}),
        ...(patch.providerEventAt !== undefined ? { provider_event_at: patch.providerEventAt } : {}),
        updated_at: new Date(),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * Records a second subscription cancelled for a seller; true the first time (so it is counted and
   * logged once). A later refund of it (its delayed payment arrived after the cancel) marks it refunded.
   */
  async recordCancelledSecond(second: CancelledSecond): Promise<boolean> {
    const existing = await this.db
      .selectFrom('cancelled_second_subscriptions')
      .select('refunded')
      .where('provider_subscription_id', '=', second.providerSubscriptionId)
      .executeTakeFirst();
    if (existing) {
      if (second.refunded && !existing.refunded) {
        await this.db
          .updateTable('cancelled_second_subscriptions')
          .set({ refunded: true })
          .where('provider_subscription_id', '=', second.providerSubscriptionId)
          .execute();
      }
      return false;
    }
    await this.db
      .insertInto('cancelled_second_subscriptions')
      .values({
        provider_subscription_id: second.providerSubscriptionId,
        user_id: second.userId,
        kept_subscription_id: second.keptSubscriptionId,
        plan: second.plan,
        refunded: second.refunded,
      })
      .execute();
    return true;
  }

  async latestCancelledSecond(userId: string): Promise<CancelledSecondSubscriptionRow | undefined> {
    return this.db
      .selectFrom('cancelled_second_subscriptions')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
  }
}
