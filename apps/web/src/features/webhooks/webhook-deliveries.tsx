import type { WebhookDelivery } from '@prodshot/contracts';
import { formatDateTime } from '../../lib/format.js';
import { useDeliveries } from './api/get-deliveries.js';
import { useSendAgain } from './api/send-again.js';
import { EVENT_NAMES } from './event-names.js';

const STATUS_NAMES: Record<WebhookDelivery['status'], string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
};

function attemptsText(delivery: WebhookDelivery): string {
  const tries = `${delivery.attempts} ${delivery.attempts === 1 ? 'attempt' : 'attempts'}`;
  if (delivery.status === 'pending' && delivery.nextAttemptAt && delivery.attempts > 0)
    return `${tries} · next ${formatDateTime(delivery.nextAttemptAt)}`;
  return tries;
}

/** An endpoint's latest deliveries: event, status, attempts, last error and time, each with "Send again". */
export function WebhookDeliveries({ endpointId, label }: { endpointId: string; label: string }) {
  const deliveries = useDeliveries(endpointId);
  const again = useSendAgain(endpointId);
  if (deliveries.isError) return <p className="form-error">Failed to load the deliveries.</p>;
  if (!deliveries.data) return <p className="muted small">Loading deliveries…</p>;
  if (deliveries.data.data.length === 0) return <p className="muted small">No deliveries yet.</p>;
  return (
    <>
      {again.isError && (
        <p className="form-error" role="alert">
          Failed to send it again: {again.error.message}
        </p>
      )}
      <ul className="webhook-deliveries" aria-label={`Deliveries to ${label}`}>
        {deliveries.data.data.map((delivery) => (
          <li key={delivery.id} className="webhook-delivery">
            <div className="webhook-delivery-head">
              <strong>{EVENT_NAMES[delivery.eventType]}</strong>
              <span className={`webhook-status webhook-status-${delivery.status}`}>
                {STATUS_NAMES[delivery.status]}
              </span>
            </div>
            <p className="muted small">
              {formatDateTime(delivery.lastAttemptAt ?? delivery.createdAt)} · {attemptsText(delivery)}
              {delivery.lastStatusCode !== null && ` · HTTP ${delivery.lastStatusCode}`}
            </p>
            {delivery.lastError && delivery.status !== 'delivered' && (
              <p className="small webhook-error">{delivery.lastError}</p>
            )}
            <button
              type="button"
              className="button button-ghost button-small webhook-send-again"
              onClick={() => again.mutate(delivery.id)}
              disabled={again.isPending && again.variables === delivery.id}
              aria-label={`Send again: ${EVENT_NAMES[delivery.eventType]} of ${formatDateTime(delivery.createdAt)}`}
            >
              Send again
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
