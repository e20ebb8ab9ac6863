import { ADDON_PACKS, addOnReturnPath, findAddOnPack, type AddOnPackId } from '@prodshot/contracts';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { PLACEHOLDER_BILLING, useCheckoutFlow } from '../features/credits/checkout-flow.js';
import { PaymentError } from '../features/credits/payment-error.js';
import { buyCredits } from '../features/credits/api/buy-credits.js';
import { useProfile } from '../features/profile/api/get-profile.js';
import { formatPrice } from '../lib/format.js';

export function CheckoutAddonPage() {
  const [params] = useSearchParams();
  const [packId, setPackId] = useState<AddOnPackId>(findAddOnPack(params.get('plan'))?.id ?? 'addon-100');
  const profile = useProfile();
  const { phase, reason, run } = useCheckoutFlow('/dashboard?addon=success');

  const pay = () =>
    run((idempotencyKey) =>
      buyCredits(
        packId,
        { email: profile.data?.email, name: profile.data?.name, billing: PLACEHOLDER_BILLING },
        `${window.location.origin}${addOnReturnPath(packId)}`,
        idempotencyKey,
      ),
    );

  return (
    <section className="narrow card checkout">
      <Link to="/pricing#add-on" className="back-link">
        ← Back to pricing
      </Link>
      <h1>Purchase Additional Credits</h1>
      <p className="muted">Additional images cost $0.06 each and never expire.</p>
      <fieldset className="pack-options">
        <legend className="sr-only">Choose a pack</legend>
        {ADDON_PACKS.map((pack) => (
          <label key={pack.id} className={pack.id === packId ? 'pack-option selected' : 'pack-option'}>
            <input
              type="radio"
              name="pack"
              value={pack.id}
              checked={pack.id === packId}
              onChange={() => setPackId(pack.id)}
            />
            <span>{pack.credits} images</span>
            <strong>{formatPrice(pack.priceCents)}</strong>
          </label>
        ))}
      </fieldset>
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
            : 'Buy Credits'}
      </button>
    </section>
  );
}
