import { planLabel, type SubscriptionResponse } from '@prodshot/contracts';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { PlanChangeNote } from './plan-change.js';
import { totalCredits } from './use-subscription.js';

/**
 * Total credits, or '...' while loading; a click goes to /pricing, hovering opens 'Credit Details'.
 * Once loading ends without data (the fetch failed, spec §8), it reads plan none and 0 credits.
 */
export function CreditCounter({ data, loading }: { data: SubscriptionResponse | undefined; loading: boolean }) {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const total = loading ? '...' : String(totalCredits(data));
  return (
    <div className="credit-counter" onMouseEnter={() => setOpen(true)} onMouseLeave={() => setOpen(false)}>
      <button
        type="button"
        className="credit-button"
        onClick={() => navigate('/pricing')}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        aria-describedby={open ? 'credit-details' : undefined}
      >
        <span aria-hidden="true" className="credit-icon">
          ◆
        </span>
        <span data-testid="credit-total">{total}</span>
        <span className="sr-only"> credits</span>
      </button>
      {open && (
        <div className="credit-panel" id="credit-details" role="tooltip">
          <h3>Credit Details</h3>
          {loading ? (
            <p>Loading credits...</p>
          ) : (
            <dl>
              <div>
                <dt>Plan</dt>
                <dd>{planLabel(data?.subscription.plan ?? 'none')}</dd>
              </div>
              <div>
                <dt>Subscription credits</dt>
                <dd>{data?.subscriptionCredits ?? 0}</dd>
              </div>
              <div>
                <dt>Add-on credits</dt>
                <dd>{data?.addOnCredits ?? 0}</dd>
              </div>
            </dl>
          )}
          {data && <PlanChangeNote subscription={data.subscription} />}
        </div>
      )}
    </div>
  );
}
