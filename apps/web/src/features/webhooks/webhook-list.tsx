import type { WebhookEndpoint } from '@prodshot/contracts';
import { useState } from 'react';
import { formatDate } from '../../lib/format.js';
import { EVENT_NAMES } from './event-names.js';
import { WebhookDeliveries } from './webhook-deliveries.js';

/** The seller's endpoints (at least one): URL, events, threshold, and each one's recent deliveries. */
export function WebhookList({
  endpoints,
  onDelete,
}: {
  endpoints: WebhookEndpoint[];
  onDelete: (endpoint: WebhookEndpoint) => void;
}) {
  return (
    <ul className="webhook-list" aria-label="Your webhook endpoints">
      {endpoints.map((endpoint) => (
        <li key={endpoint.id} className="webhook-item">
          <div className="webhook-item-head">
            <code className="webhook-url">{endpoint.url}</code>
            <button
              type="button"
              className="button button-ghost button-small"
              onClick={() => onDelete(endpoint)}
              aria-label={`Delete ${endpoint.url}`}
            >
              Delete
            </button>
          </div>
          <p className="muted small">
            {endpoint.events.map((type) => EVENT_NAMES[type]).join(', ')}
            {endpoint.creditsLowThreshold !== null && ` (below ${endpoint.creditsLowThreshold} credits)`} · Added{' '}
            {formatDate(endpoint.createdAt)}
          </p>
          <RecentDeliveries endpoint={endpoint} />
        </li>
      ))}
    </ul>
  );
}

/** An endpoint's deliveries, read (and kept fresh) only while the seller has them open. */
function RecentDeliveries({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [open, setOpen] = useState(false);
  const panelId = `webhook-deliveries-${endpoint.id}`;
  return (
    <div className="webhook-deliveries-box">
      <button
        type="button"
        className="webhook-deliveries-toggle"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
      >
        Recent deliveries
      </button>
      <div id={panelId}>{open && <WebhookDeliveries endpointId={endpoint.id} label={endpoint.url} />}</div>
    </div>
  );
}
