import { PLAN_REQUIRED_CODE, UPGRADE_URL } from '@prodshot/contracts';
import { Link } from 'react-router-dom';
import { ApiError } from '../../lib/api-client.js';

/** Why a feature (or more work) is out of reach, and the way to the plans that include it or to more credits. */
export function UpgradeNotice({
  message,
  upgradeUrl = UPGRADE_URL,
  action = 'Upgrade your plan',
}: {
  message: string;
  upgradeUrl?: string;
  action?: string;
}) {
  return (
    <p className="notice upgrade-notice" role="note">
      {message}{' '}
      <Link to={upgradeUrl} className="upgrade-link">
        {action}
      </Link>
    </p>
  );
}

/** A refusal because the seller's plan lacks the feature: its message and where to upgrade; null for any other failure. */
export function planRefusal(error: unknown): { message: string; upgradeUrl: string } | null {
  if (!(error instanceof ApiError) || error.code !== PLAN_REQUIRED_CODE) return null;
  return { message: error.message, upgradeUrl: error.upgradeUrl ?? UPGRADE_URL };
}
