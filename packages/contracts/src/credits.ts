import { Type, type Static } from 'typebox';

/** A seller's two credit pools: the plan's (reset each period) and add-on packs' (kept). */
export const CreditBalance = Type.Object({
  subscriptionCredits: Type.Integer({ minimum: 0 }),
  addOnCredits: Type.Integer({ minimum: 0 }),
});
export type CreditBalance = Static<typeof CreditBalance>;
