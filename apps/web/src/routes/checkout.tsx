import { alreadySubscribedMessage, findPlan, isPaidPlanId, subscriptionReturnPath } from '@prodshot/contracts';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { Spinner } from '../components/ui/spinner.js';
import { PLACEHOLDER_BILLING, useCheckoutFlow } from '../features/credits/checkout-flow.js';
import { PaymentError } from '../features/credits/payment-error.js';
import { createSubscription } from '../features/credits/api/create-subscription.js';
import { useSubscription } from '../features/credits/api/get-subscription.js';
import { useProfile } from '../features/profile/api/get-profile.js';
import { formatDate, formatPrice } from '../lib/format.js';

export function CheckoutPage() {
  const [params] = useSearchParams();
  const planId = params.get('plan');
  const subscription = useSubscription();
  const profile = useProfile();
  const navigate = useNavigate();
  const { phase, reason, run } = useCheckoutFlow('/dashboard?subscription=success');

  if (!isPaidPlanId(planId)) return <Navigate to="/pricing" replace />;
  const plan = findPlan(planId)!;
  if (subscription.isPending) return <Spinner label="Loading your subscription" fullPage />;
  const current = subscription.data?.subscription;
  // Once paid, the screen stays on 'Redirecting to Payment...' whatever the subscription reads meanwhile:
  // local payments grant at once, and the counter's read brings the plan just bought within 500 ms.
  const paying = phase === 'processing' || phase === 'redirecting';
  if (!paying && current?.status === 'active' && current.plan === planId) {
    return (
      <section className="narrow center-card card">
        <h1>Checkout</h1>
        <p role="alert">{alreadySubscribedMessage(planId)}</p>
        <button type="button" className="button" onClick={() => navigate('/dashboard')}>
          Go to dashboard
        </button>
      </section>
    );
  }

  const pay = () =>
    run((idempotencyKey) =>
      createSubscription(
        planId,
        { email: profile.data?.email, name: profile.data?.name, billing: PLACEHOLDER_BILLING },
        `${window.location.origin}${subscriptionReturnPath(planId)}`,
        idempotencyKey,
      ),
    );

  return (
    <section className="narrow card checkout">
      <Link to="/pricing" className="back-link">
        ← Back to pricing
      </Link>
      <h1>Checkout</h1>
      <div className="summary">
        <div>
          <h2>{plan.label}</h2>
          <p className="muted">{plan.monthlyCredits} images a month, billed monthly</p>
        </div>
        <p className="price">
          {formatPrice(plan.priceCents)}
          <span>/month</span>
        </p>
      </div>
      {current?.status === 'active' && current.plan !== 'none' && current.plan !== planId && (
        <p className="notice">
          Your new plan takes effect at the start of your next billing cycle
          {current.endDate ? `, on ${formatDate(current.endDate)}` : ''}.
        </p>
      )}
      {phase === 'error' && <PaymentError reason={reason} />}
      <button
        type="button"
        className="button button-block button-large"
        onClick={pay}
        disabled={phase === 'processing' || phase === 'redirecting'}
      >
        {phase === 'processing'
          ? 'Processing...'
          : phase === 'redirecting'
            ? 'Redirecting to Payment...'
            : `Subscribe to ${plan.name}`}
      </button>
      <p className="muted small center">Payment is handled securely by our payment provider.</p>
    </section>
  );
}
