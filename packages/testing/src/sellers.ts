import { randomUUID } from 'node:crypto';
import type { CreditsRepository, Db } from '@prodshot/db';

/** One credit ledger row of a generation, by what it did and how many credits it moved (+ back, − taken). */
export interface LedgerMove {
  kind: string;
  credits: number;
}

export interface TestSellers {
  /** A user with `credits` add-on credits. */
  newUser(credits: number): Promise<string>;
  balance(userId: string): Promise<number>;
  /** The generation's credit ledger, oldest first. */
  ledger(generationId: string): Promise<LedgerMove[]>;
}

/** Sellers and their credits, written and read straight in the database, as the API's and the worker's medium tests start from. */
export function testSellers(db: Db, credits: CreditsRepository): TestSellers {
  return {
    async newUser(amount) {
      const { id } = await db
        .insertInto('users')
        .values({ clerk_id: `user_${randomUUID()}`, email: 'seller@example.com' })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (amount > 0) await credits.grantAddOn({ userId: id, amount, idempotencyKey: `grant:${id}` });
      return id;
    },
    async balance(userId) {
      const { subscriptionCredits, addOnCredits } = await credits.balance(userId);
      return subscriptionCredits + addOnCredits;
    },
    async ledger(generationId) {
      const rows = await db
        .selectFrom('credit_ledger')
        .select(['kind', 'subscription_delta', 'addon_delta'])
        .where('generation_id', '=', generationId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map((row) => ({ kind: row.kind, credits: row.subscription_delta + row.addon_delta }));
    },
  };
}
