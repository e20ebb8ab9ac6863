import type { CreatedWebhookEndpoint } from '@prodshot/contracts';
import { ShownOnce } from '../../components/ui/shown-once.js';

/** The signing secret of the endpoint just added: the only time it is ever shown. */
export function NewWebhookSecret({ created, onDone }: { created: CreatedWebhookEndpoint; onDone: () => void }) {
  return (
    <ShownOnce
      titleId="webhook-new-title"
      title={`Signing secret for ${created.url}`}
      intro={
        <>
          Verify each delivery's <code>Prodshot-Signature</code> with it. Copy it now and keep it somewhere safe: it
          will not be shown again.
        </>
      }
      secret={created.secret}
      noun="secret"
      testId="new-webhook-secret"
      classNames={{ panel: 'webhook-new', secret: 'webhook-secret' }}
      onDone={onDone}
    />
  );
}
