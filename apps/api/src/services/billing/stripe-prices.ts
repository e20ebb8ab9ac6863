import Stripe from 'stripe';
import { isPaidPlanId, type AddOnPack, type PaidPlanId, type Plan } from '@prodshot/contracts';

/** What Stripe sells for one plan or pack: one product, and one price found by its lookup_key. */
export interface PriceSpec {
  productId: string;
  productName: string;
  /** Names the amount too: a price edited in packages/contracts becomes a new Stripe price (their amounts are immutable). */
  lookupKey: string;
  unitAmount: number;
  recurring: { interval: 'month' } | null;
  metadata: Record<string, string>;
}

export function planPrice(plan: Plan): PriceSpec {
  return {
    productId: `prodshot_plan_${plan.id}`,
    productName: `Prodshot ${plan.label}`,
    lookupKey: `prodshot_plan_${plan.id}_${plan.priceCents}_${plan.interval}`,
    unitAmount: plan.priceCents,
    recurring: { interval: plan.interval },
    metadata: { plan: plan.id },
  };
}

export function addOnPrice(pack: AddOnPack): PriceSpec {
  return {
    productId: `prodshot_${pack.id}`,
    productName: `Prodshot ${pack.name}`,
    lookupKey: `prodshot_${pack.id}_${pack.priceCents}`,
    unitAmount: pack.priceCents,
    recurring: null,
    metadata: { addon: pack.id },
  };
}

/** The plan a subscription item's price sells, whoever changed it (our update or the Billing Portal). */
export function planOfPrice(price: Pick<Stripe.Price, 'metadata'> | null | undefined): PaidPlanId | null {
  const plan = price?.metadata?.plan;
  return isPaidPlanId(plan) ? plan : null;
}

/**
 * Stripe price ids for our plans and packs: looked up by lookup_key, created once when missing,
 * then remembered for the life of the process. Creation carries idempotency keys and a fixed
 * product id, so processes racing to create the same price end up with one.
 */
export class StripePrices {
  private readonly ids = new Map<string, Promise<string>>();

  constructor(private readonly stripe: Stripe) {}

  id(spec: PriceSpec): Promise<string> {
    let id = this.ids.get(spec.lookupKey);
    if (!id) {
      id = this.findOrCreate(spec);
      this.ids.set(spec.lookupKey, id);
      // A failed lookup is not remembered: the next purchase asks again.
      id.catch(() => this.ids.delete(spec.lookupKey));
    }
    return id;
  }

  private async findOrCreate(spec: PriceSpec): Promise<string> {
    const found = await this.stripe.prices.list({ lookup_keys: [spec.lookupKey], active: true, limit: 1 });
    if (found.data[0]) return found.data[0].id;
    await this.ensureProduct(spec);
    const price = await this.stripe.prices.create(
      {
        product: spec.productId,
        currency: 'usd',
        unit_amount: spec.unitAmount,
        ...(spec.recurring ? { recurring: spec.recurring } : {}),
        lookup_key: spec.lookupKey,
        metadata: spec.metadata,
      },
      { idempotencyKey: `prodshot-price:${spec.lookupKey}` },
    );
    return price.id;
  }

  private async ensureProduct(spec: PriceSpec): Promise<void> {
    try {
      await this.stripe.products.create(
        { id: spec.productId, name: spec.productName, metadata: spec.metadata },
        { idempotencyKey: `prodshot-product:${spec.productId}` },
      );
    } catch (error) {
      // The product outlives its prices: a new amount reuses it.
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_already_exists'))
        throw error;
    }
  }
}
