import type { CreatedWebhookEndpoint, WebhookEndpoint } from '@prodshot/contracts';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.js';
import { useDeleteWebhook } from './api/delete-webhook.js';
import { useWebhooks } from './api/get-webhooks.js';
import { CreateWebhookForm } from './create-webhook-form.js';
import { NewWebhookSecret } from './new-webhook-secret.js';
import { WebhookList } from './webhook-list.js';
import './webhooks.css';

/** Profile → Webhooks: add an endpoint (its secret shown once), see each one's deliveries and send one again, delete an endpoint. */
export function WebhooksSection() {
  const endpoints = useWebhooks();
  const [created, setCreated] = useState<CreatedWebhookEndpoint | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);
  const remove = useDeleteWebhook({ onSettled: () => setDeleting(null) });

  return (
    <section className="card webhooks" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhooks</h2>
      <p className="muted small">
        Prodshot POSTs each event you choose to your URL as JSON, signed in the <code>Prodshot-Signature</code> header with the endpoint's secret, and tries again
        for 24 hours until your server answers 2xx. URLs must be https and public. Deliveries cost no credits.
      </p>
      <CreateWebhookForm onCreated={setCreated} />
      {created && <NewWebhookSecret created={created} onDone={() => setCreated(null)} />}
      <h3>Your endpoints</h3>
      {endpoints.isError && (
        <p className="form-error" role="alert">
          Failed to load your webhook endpoints. Please try again.
        </p>
      )}
      {remove.isError && (
        <p className="form-error" role="alert">
          Failed to delete the endpoint: {remove.error.message}
        </p>
      )}
      {endpoints.data && <WebhookList endpoints={endpoints.data.data} onDelete={setDeleting} />}
      {deleting && (
        <ConfirmDialog
          title="Delete this endpoint?"
          message={`${deleting.url} gets no more events, and deliveries still waiting are not sent. This cannot be undone.`}
          confirmLabel="Delete"
          busy={remove.isPending}
          onConfirm={() => remove.mutate(deleting.id)}
          onCancel={() => setDeleting(null)}
        />
      )}
    </section>
  );
}
