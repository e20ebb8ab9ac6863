import type { WebhookEndpoint } from '@prodshot/contracts';
import { formatDate } from '../../lib/format.js';
import { EVENT_NAMES } from './event-names.js';
import { WebhookDeliveries } from './webhook-deliveries.js';

/** The seller's endpoints: URL, events, threshold, and each one's recent deliveries. */
export function WebhookList({ endpoints, onDelete }: { endpoints: WebhookEndpoint[]; onDelete: (endpoint: WebhookEndpoint) => void }) {
  if (endpoints.length === 0) return <p className="muted">No webhook endpoints yet.</p>;
  return (
    <ul className="webhook-list" aria-label="Your webhook endpoints">
      {endpoints.map((endpoint) => (
        <li key={endpoint.id} className="webhook-item">
          <div className="webhook-item-head">
            <code className="webhook-url">{endpoint.url}</code>
            <button type="button" className="button button-ghost button-small" onClick={() => onDelete(endpoint)} aria-label={`Delete ${endpoint.url}`}>
              Delete
            </button>
          </div>
          <p className="muted small">
            {endpoint.events.map((type) => EVENT_NAMES[type]).join(', ')}
            {endpoint.creditsLowThreshold !== null && ` (below ${endpoint.creditsLowThreshold} credits)`} · Added {formatDate(endpoint.createdAt)}
          </p>
          <details className="webhook-deliveries-box">
            <summary>Recent deliveries</summary>
            <WebhookDeliveries endpointId={endpoint.id} label={endpoint.url} />
          </details>
        </li>
      ))}
    </ul>
  );
}
