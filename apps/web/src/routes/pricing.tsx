import { ADDON_PACKS, alreadySubscribedMessage, PLANS, type PaidPlanId } from '@prodshot/contracts';
import { useEffect } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { useAuthState } from '../features/auth/auth-context.js';
import { authPath } from '../features/auth/return-path.js';
import { useSubscription } from '../features/credits/api/get-subscription.js';
import { planLines } from '../features/credits/plan-lines.js';
import { formatPrice } from '../lib/format.js';
import './pricing.css';

const FAQ = [
  {
    q: 'What counts as an image?',
    a: 'Each generated image uses one credit, whichever path made it: a template, a custom prompt or a smart style. Prompt enhancement, on the plans that include it, uses none.',
  },
  { q: 'Can I change my plan?', a: 'Yes. Plan changes take effect at the start of the next billing cycle.' },
  {
    q: 'What if I run out of images?',
    a: 'Buy additional images at $0.06 each in packs of 100, 500 or 1000. Add-on credits never expire.',
  },
  { q: 'Which payment methods do you accept?', a: 'Cards, PayPal and selected crypto.' },
  { q: 'Can I cancel?', a: 'Any time from your profile. Your credits stay until the end of the paid period.' },
];

export function PricingPage() {
  const auth = useAuthState();
  const subscription = useSubscription();
  const navigate = useNavigate();
  const location = useLocation();

  useEffect(() => {
    if (location.hash === '#add-on') document.getElementById('add-on')?.scrollIntoView();
  }, [location.hash]);

  function choose(plan: PaidPlanId) {
    // A signed-out seller comes back to this plan's checkout once signed in (or signed up).
    if (auth.status !== 'signed-in') return navigate(authPath('sign-in', `/checkout?plan=${plan}`));
    const current = subscription.data?.subscription;
    if (current?.status === 'active' && current.plan === plan) {
      window.alert(alreadySubscribedMessage(plan));
      return;
    }
    navigate(`/checkout?plan=${plan}`);
  }

  const currentPlan = subscription.data?.subscription.status === 'active' ? subscription.data.subscription.plan : null;
  return (
    <div className="pricing">
      <header className="page-header center">
        <h1>Simple pricing for every seller</h1>
        <p className="lead">Pick a monthly plan. Top up with additional images whenever you need more.</p>
      </header>
      <ul className="plans">
        {PLANS.map((plan) => (
          <li key={plan.id} className={plan.badge ? 'plan card plan-featured' : 'plan card'}>
            {plan.badge && <span className="badge">{plan.badge}</span>}
            <h2>{plan.name}</h2>
            <p className="price">
              {formatPrice(plan.priceCents)}
              <span>/month</span>
            </p>
            <ul className="checklist">
              {planLines(plan).map((line) => (
                <li key={line.text} className={line.included ? undefined : 'excluded'}>
                  {!line.included && <span className="sr-only">Not included: </span>}
                  {line.text}
                </li>
              ))}
            </ul>
            <button
              type="button"
              className={plan.badge ? 'button button-block' : 'button button-ghost button-block'}
              onClick={() => choose(plan.id)}
            >
              {currentPlan === plan.id ? 'Current plan' : `Choose ${plan.name}`}
            </button>
          </li>
        ))}
      </ul>

      <section id="add-on" className="section addon card" aria-labelledby="addon-title">
        <h2 id="addon-title">Need more images?</h2>
        <p className="muted">Additional images cost $0.06 each and never expire.</p>
        <ul className="packs">
          {ADDON_PACKS.map((pack) => (
            <li key={pack.id}>
              <strong>{pack.credits} images</strong>
              <span>{formatPrice(pack.priceCents)}</span>
              <Link
                className="button button-ghost"
                to={
                  auth.status === 'signed-in'
                    ? `/checkout/addon?plan=${pack.id}`
                    : authPath('sign-in', `/checkout/addon?plan=${pack.id}`)
                }
              >
                Buy {pack.credits}
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <section className="section faq narrow" aria-labelledby="faq-title">
        <h2 id="faq-title">Frequently asked questions</h2>
        {FAQ.map((item) => (
          <details key={item.q}>
            <summary>{item.q}</summary>
            <p>{item.a}</p>
          </details>
        ))}
      </section>
    </div>
  );
}
