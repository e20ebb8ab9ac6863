import { planLabel, type SubscriptionResponse } from '@prodshot/contracts';
import { useRef, useState, type FocusEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { PlanChangeNote } from './plan-change.js';
import { totalCredits } from './api/get-subscription.js';

/**
 * Total credits, or '...' while loading; a click goes to /pricing, hovering opens 'Credit Details'.
 * Once loading ends without data (the fetch failed, docs/product-spec.md §8), it reads plan none and 0 credits.
 * A touch screen has no hover (a tap would go straight to /pricing): there the first tap opens the
 * panel, a second goes to /pricing, and a tap elsewhere closes it. Mouse and keyboard are unchanged.
 */
export function CreditCounter({ data, loading }: { data: SubscriptionResponse | undefined; loading: boolean }) {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  // Whether the press now ending is a touch, and whether the panel was open before it began: the
  // emulated hover and focus a tap brings open the panel before its click arrives.
  const touch = useRef<{ wasOpen: boolean } | null>(null);
  const total = loading ? '...' : String(totalCredits(data));
  return (
    <div
      className="credit-counter"
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
      onBlur={(event) => closeUnlessInside(event, setOpen)}
    >
      <button
        type="button"
        className="credit-button"
        onPointerDown={(event) => {
          touch.current = event.pointerType === 'touch' ? { wasOpen: open } : null;
        }}
        onClick={() => {
          const tap = touch.current;
          touch.current = null;
          if (tap && !tap.wasOpen) return setOpen(true);
          navigate('/pricing');
        }}
        onFocus={() => setOpen(true)}
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

/** Focus leaving the counter closes its panel; moving within it (to the panel) does not. */
function closeUnlessInside(event: FocusEvent<HTMLDivElement>, setOpen: (open: boolean) => void): void {
  if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
}
