import { historyDays, PLANS, type PlanId } from '@prodshot/contracts';
import { sql, type Expression, type RawBuilder } from 'kysely';
import { SETTLED } from './settled-statuses.js';

/**
 * The plan whose history the subscription row aliased `s` keeps (all nulls when the user has none):
 * its plan while paid for (active, trialing, or cancelled with the paid period still running) and
 * while a failed renewal is still being retried (past_due, unpaid), none otherwise. Expired files
 * are deleted for good, so a card that failed once must not cost a seller their history. The same
 * rule as the API's historyPlan.
 */
const PLAN_IN_FORCE = sql<PlanId>`case
  when s.plan <> 'none' and (s.status in ('active', 'trialing', 'past_due', 'unpaid') or (s.cancel_at_period_end and s.current_period_end > now())) then s.plan
  else 'none' end`;

function cutoffOf(days: number | null): RawBuilder<Date> {
  return days === null
    ? sql<Date>`'-infinity'::timestamptz`
    : sql<Date>`now() - make_interval(days => ${sql.lit(days)})`;
}

/** Rows created before this moment are past the history of the plan in force ('-infinity' keeps all of it). */
const CUTOFF = sql<Date>`case ${PLAN_IN_FORCE} ${sql.join(
  PLANS.map((plan) => sql`when ${sql.lit(plan.id)} then ${cutoffOf(plan.historyDays)}`),
  sql` `,
)} else ${cutoffOf(historyDays('none'))} end`;

/** No plan keeps less than this: rows younger than it are never expired, whoever owns them. */
const SHORTEST_DAYS = Math.min(
  ...(['none', ...PLANS.map((plan) => plan.id)] as PlanId[]).map((plan) => historyDays(plan) ?? Infinity),
);

/** The oldest `created_at` the user's history keeps, as a scalar subquery. */
export function historyCutoff(userId: Expression<string> | string): RawBuilder<Date> {
  return sql<Date>`(select ${CUTOFF} from users u left join subscriptions s on s.user_id = u.id where u.id = ${userId})`;
}

/**
 * The user's history shows the generation (the row of `table`, a name or an alias): made within
 * their plan's history, or not settled yet, as the purge never deletes one still running.
 */
export function generationInHistory(userId: Expression<string> | string, table = 'generations'): RawBuilder<boolean> {
  return sql<boolean>`(${sql.ref(`${table}.created_at`)} >= ${historyCutoff(userId)} or ${sql.ref(`${table}.status`)} not in (${sql.join(SETTLED)}))`;
}

/** Every user with the oldest `created_at` their history keeps, as a table `(user_id, cutoff)`. */
export function historyCutoffs(): RawBuilder<{ user_id: string; cutoff: Date }> {
  return sql`(select u.id as user_id, ${CUTOFF} as cutoff from users u left join subscriptions s on s.user_id = u.id)`;
}

/** Only rows older than the shortest history can be expired: lets the purge read the created_at index. */
export function olderThanShortestHistory(column: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(column)} < ${cutoffOf(Number.isFinite(SHORTEST_DAYS) ? SHORTEST_DAYS : null)}`;
}
