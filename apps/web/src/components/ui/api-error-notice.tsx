import { BUY_CREDITS_URL, UPGRADE_URL } from '@prodshot/contracts';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { ApiError, errorMessage } from '../../lib/api-client.js';
import { planRefusal, UpgradeNotice } from './upgrade-notice.js';

/** A 402: the API's message (the shortfall) and where to buy credits; null for any other failure. */
export function creditsRefusal(error: unknown): { message: string; buyCreditsUrl: string } | null {
  if (!(error instanceof ApiError) || error.status !== 402) return null;
  return { message: error.message, buyCreditsUrl: error.buyCreditsUrl ?? BUY_CREDITS_URL };
}

/**
 * Credits ran short: the reason, 'Buy credits' as the way on, and the plans beside it (the API's
 * message offers both). It comes into view as it appears: on a phone the button that was refused
 * may sit a screen away from where the notice lands.
 */
export function CreditsNotice({
  message,
  buyCreditsUrl = BUY_CREDITS_URL,
  className = '',
}: {
  message: string;
  buyCreditsUrl?: string;
  className?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' }), []);
  return (
    <div ref={box} className={`form-error credits-notice ${className}`.trim()} role="alert">
      <p>{message}</p>
      <p className="credits-notice-actions">
        <Link className="button button-small" to={buyCreditsUrl}>
          Buy credits
        </Link>
        <Link className="link-button" to={UPGRADE_URL}>
          See plans
        </Link>
      </p>
    </div>
  );
}

/**
 * A failed call as the seller can act on it: a 402 with 'Buy credits', a 403 plan_required with
 * 'Upgrade your plan', anything else as its message under `prefix` (or `fallback` without one).
 * A refusal never takes the prefix: 'Failed to get style recommendations: Not enough credits' blamed
 * the wrong step.
 */
export function ApiErrorNotice({
  error,
  fallback,
  prefix,
  small = false,
}: {
  error: unknown;
  fallback: string;
  prefix?: string;
  small?: boolean;
}) {
  const credits = creditsRefusal(error);
  if (credits) return <CreditsNotice {...credits} className={small ? 'small' : ''} />;
  const plan = planRefusal(error);
  if (plan) return <UpgradeNotice {...plan} />;
  // Under a prefix the error's own words follow it, as the spec's 'Failed to …: ...' rows read.
  const message = prefix && error instanceof Error ? error.message : errorMessage(error, fallback);
  return (
    <p className={small ? 'form-error small' : 'form-error'} role="alert">
      {prefix ? `${prefix}: ${message}` : message}
    </p>
  );
}
