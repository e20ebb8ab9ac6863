import { BUY_CREDITS_URL, UPGRADE_URL } from '@prodshot/contracts';
import { planRefusal, UpgradeNotice } from '../../components/ui/upgrade-notice.js';
import { ApiError, errorMessage } from '../../lib/api-client.js';

/** What went wrong in the editor, and whether the way on is more credits or a plan (a 402 or a 403 plan_required). */
export interface EditorProblem {
  message: string;
  refusal?: { kind: 'credits' } | { kind: 'plan'; upgradeUrl: string };
}

export function problemOf(caught: unknown, fallback: string): EditorProblem {
  const plan = planRefusal(caught);
  if (plan) return { message: plan.message, refusal: { kind: 'plan', upgradeUrl: plan.upgradeUrl } };
  if (caught instanceof ApiError && caught.status === 402)
    return { message: caught.message, refusal: { kind: 'credits' } };
  return { message: errorMessage(caught, fallback) };
}

/**
 * The problem where the seller looks, with the button out of it: a refusal for want of credits
 * offers credits, or a plan to a seller who has none (add-on credits come on top of a plan).
 */
export function EditorProblemNotice({ problem, planless }: { problem: EditorProblem; planless: boolean }) {
  const { message, refusal } = problem;
  if (!refusal) {
    return (
      <p className="form-error" role="alert">
        {message}
      </p>
    );
  }
  const way =
    refusal.kind === 'plan'
      ? { upgradeUrl: refusal.upgradeUrl }
      : planless
        ? { upgradeUrl: UPGRADE_URL, action: 'Pick a plan' }
        : { upgradeUrl: BUY_CREDITS_URL, action: 'Buy credits' };
  return (
    <div role="alert">
      <UpgradeNotice message={message} {...way} />
    </div>
  );
}
