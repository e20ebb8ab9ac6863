import { NO_ACTIVE_SUBSCRIPTION_MESSAGE, planAllowance, planLabel, usagePercent } from '@prodshot/contracts';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.js';
import { Spinner } from '../../components/ui/spinner.js';
import { ApiError } from '../../lib/api-client.js';
import { formatDate } from '../../lib/format.js';
import { useCancelSubscription } from './api/cancel-subscription.js';
import { useBillingPortal } from './api/create-portal-session.js';
import { totalCredits, useSubscription } from './api/get-subscription.js';
import { CancelledSecondNote, PlanChangeNote } from './plan-change.js';
import './subscription.css';

type Message = { type: 'ok' | 'error'; text: string };

/** Cancelling the plan: asked for on the card, confirmed in a dialog, told in the card. */
export function useCancelFlow() {
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<Message | null>(null);
  const cancel = useCancelSubscription({
    onSuccess: () => {
      setConfirming(false);
      setMessage({ type: 'ok', text: 'Your subscription has been successfully canceled.' });
    },
    onError: (caught) => {
      setConfirming(false);
      // The helper's message (the server's, or 'Server error: {status}') is for the log; the screen says one of two things.
      console.error('cancel subscription failed', caught);
      const noSub = caught instanceof ApiError && caught.message === NO_ACTIVE_SUBSCRIPTION_MESSAGE;
      setMessage({
        type: 'error',
        text: noSub ? NO_ACTIVE_SUBSCRIPTION_MESSAGE : 'Failed to cancel subscription. Please try again.',
      });
    },
  });
  return { confirming, setConfirming, message, cancel };
}

type CancelFlow = ReturnType<typeof useCancelFlow>;

export function CancelSubscriptionDialog({ flow }: { flow: CancelFlow }) {
  if (!flow.confirming) return null;
  return (
    <ConfirmDialog
      title="Cancel your subscription?"
      message="Your plan stops renewing. Credits you already have stay until the end of the paid period."
      confirmLabel="Cancel subscription"
      busy={flow.cancel.isPending}
      onConfirm={() => flow.cancel.mutate()}
      onCancel={() => flow.setConfirming(false)}
    />
  );
}

/** The profile's plan, its dates, the credits and the month's usage, with the ways to change them. */
export function SubscriptionCard({ flow }: { flow: CancelFlow }) {
  const subscription = useSubscription();
  const portal = useBillingPortal('/pricing');
  const sub = subscription.data;
  const plan = sub?.subscription.plan ?? 'none';
  const ending = sub?.subscription.cancelAtPeriodEnd || sub?.subscription.status === 'canceled';
  const usage = usagePercent(plan, sub?.subscriptionCredits ?? 0);
  return (
    <section className="card" aria-labelledby="subscription-title">
      <h2 id="subscription-title">Subscription</h2>
      {subscription.isPending ? (
        <Spinner label="Loading subscription" />
      ) : (
        <>
          <dl className="facts">
            <div>
              <dt>Plan</dt>
              <dd data-testid="profile-plan">{planLabel(plan)}</dd>
            </div>
            <div>
              <dt>Status</dt>
              <dd className={`status status-${sub?.subscription.status ?? 'none'}`}>
                {sub?.subscription.status ?? 'none'}
              </dd>
            </div>
            <div>
              <dt>Started</dt>
              <dd>{formatDate(sub?.subscription.startDate)}</dd>
            </div>
            <div>
              <dt>{ending ? 'Ends' : 'Renews'}</dt>
              <dd>{formatDate(sub?.subscription.endDate)}</dd>
            </div>
          </dl>
          <PlanChangeNote subscription={sub?.subscription} />
          <CancelledSecondNote second={sub?.cancelledSecondSubscription} />
          <h3>Credits</h3>
          <dl className="facts">
            <div>
              <dt>Subscription credits</dt>
              <dd>{sub?.subscriptionCredits ?? 0}</dd>
            </div>
            <div>
              <dt>Add-on credits</dt>
              <dd>{sub?.addOnCredits ?? 0}</dd>
            </div>
            <div>
              <dt>Total</dt>
              <dd>{totalCredits(sub)}</dd>
            </div>
          </dl>
          <div className="usage">
            <div className="usage-label">
              <span>Monthly usage</span>
              <span>
                {usage}% of {planAllowance(plan)} images
              </span>
            </div>
            <div
              className="usage-bar"
              role="progressbar"
              aria-label="Monthly usage"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={usage}
            >
              <span style={{ width: `${usage}%` }} />
            </div>
          </div>
          {flow.message && (
            <p
              className={flow.message.type === 'ok' ? 'form-ok' : 'form-error'}
              role={flow.message.type === 'ok' ? 'status' : 'alert'}
            >
              {flow.message.text}
            </p>
          )}
          {portal.error && (
            <p className="form-error" role="alert">
              {portal.error}
            </p>
          )}
          <div className="actions">
            {plan !== 'none' && (
              <button type="button" className="button" onClick={portal.open} disabled={portal.opening}>
                {portal.opening ? 'Opening…' : 'Manage Plan'}
              </button>
            )}
            <Link to="/pricing" className="button button-ghost">
              Change plan
            </Link>
            <Link to="/pricing#add-on" className="button button-ghost">
              Buy Credits
            </Link>
            {sub?.subscription.status === 'active' && (
              <button type="button" className="button button-danger" onClick={() => flow.setConfirming(true)}>
                Cancel
              </button>
            )}
          </div>
        </>
      )}
    </section>
  );
}
