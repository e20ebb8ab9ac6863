import type { CreatedWebhookEndpoint, WebhookEndpoint } from '@prodshot/contracts';
import { SecretHoldersSection } from '../../components/ui/secret-holders-section.js';
import { useDeleteWebhook } from './api/delete-webhook.js';
import { useWebhooks } from './api/get-webhooks.js';
import { CreateWebhookForm } from './create-webhook-form.js';
import { NewWebhookSecret } from './new-webhook-secret.js';
import { WebhookList } from './webhook-list.js';
import './webhooks.css';

/** Profile → Webhooks: add an endpoint (its secret shown once), see each one's deliveries and send one again, delete an endpoint. */
export function WebhooksSection() {
  return (
    <SecretHoldersSection<WebhookEndpoint, CreatedWebhookEndpoint>
      name="webhooks"
      title="Webhooks"
      intro={
        <>
          Prodshot POSTs each event you choose to your URL as JSON, signed in the <code>Prodshot-Signature</code> header
          with the endpoint's secret, and tries again for 24 hours until your server answers 2xx. URLs must be https and
          public. Deliveries cost no credits.
        </>
      }
      createForm={(onCreated) => <CreateWebhookForm onCreated={onCreated} />}
      shownOnce={(created, onDone) => <NewWebhookSecret created={created} onDone={onDone} />}
      listTitle="Your endpoints"
      items={useWebhooks()}
      loadFailure="Failed to load your webhook endpoints. Please try again."
      empty="No webhook endpoints yet."
      list={(endpoints, onDelete) => <WebhookList endpoints={endpoints} onDelete={onDelete} />}
      removal={{
        useRemove: useDeleteWebhook,
        failure: 'Failed to delete the endpoint',
        confirmTitle: 'Delete this endpoint?',
        confirmLabel: 'Delete',
        confirmMessage: (endpoint) =>
          `${endpoint.url} gets no more events, and deliveries still waiting are not sent. This cannot be undone.`,
      }}
    />
  );
}
