import type { CreatedWebhookEndpoint } from '@prodshot/contracts';
import { useState } from 'react';

type CopyState = 'idle' | 'copied' | 'failed';

/** The signing secret of the endpoint just added: the only time it is ever shown. */
export function NewWebhookSecret({ created, onDone }: { created: CreatedWebhookEndpoint; onDone: () => void }) {
  const [copy, setCopy] = useState<CopyState>('idle');

  async function copySecret() {
    try {
      await navigator.clipboard.writeText(created.secret);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  }

  return (
    <div className="webhook-new" role="region" aria-labelledby="webhook-new-title">
      <h3 id="webhook-new-title">Signing secret for {created.url}</h3>
      <p>
        Verify each delivery's <code>Prodshot-Signature</code> with it. Copy it now and keep it somewhere safe: it will not be shown again.
      </p>
      <div className="webhook-secret">
        <code data-testid="new-webhook-secret">{created.secret}</code>
        <button type="button" className="button button-small" onClick={() => void copySecret()}>
          Copy
        </button>
      </div>
      <p className="small" role="status">
        {copy === 'copied' ? 'Copied to the clipboard.' : copy === 'failed' ? 'Could not copy: select the secret and copy it yourself.' : ''}
      </p>
      <button type="button" className="button button-ghost button-small" onClick={onDone}>
        I have copied it
      </button>
    </div>
  );
}
