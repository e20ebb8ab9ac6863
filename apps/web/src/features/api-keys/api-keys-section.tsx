import type { ApiKey, CreatedApiKey } from '@prodshot/contracts';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.js';
import { useApiKeys } from './api/get-api-keys.js';
import { useRevokeApiKey } from './api/revoke-api-key.js';
import { ApiKeyList } from './api-key-list.js';
import { CreateApiKeyForm } from './create-api-key-form.js';
import { NewApiKey } from './new-api-key.js';
import './api-keys.css';

/** Profile → API keys: make a key (shown once), see the keys in force and their last use, revoke one. */
export function ApiKeysSection() {
  const keys = useApiKeys();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const revoke = useRevokeApiKey({ onSettled: () => setRevoking(null) });

  return (
    <section className="card api-keys" aria-labelledby="api-keys-title">
      <h2 id="api-keys-title">API keys</h2>
      <p className="muted small">
        A key lets your shop platform or a script call Prodshot as you, with your credits: send it as <code>Authorization: Bearer &lt;key&gt;</code>. Keys cannot
        manage keys or payments.
      </p>
      <CreateApiKeyForm onCreated={setCreated} />
      {created && <NewApiKey created={created} onDone={() => setCreated(null)} />}
      <h3>Your keys</h3>
      {keys.isError && (
        <p className="form-error" role="alert">
          Failed to load your API keys. Please try again.
        </p>
      )}
      {revoke.isError && (
        <p className="form-error" role="alert">
          Failed to revoke the key: {revoke.error.message}
        </p>
      )}
      {keys.data && <ApiKeyList keys={keys.data.data} onRevoke={setRevoking} />}
      {revoking && (
        <ConfirmDialog
          title="Revoke this key?"
          message={`“${revoking.name}” (${revoking.prefix}…) stops working at once: anything still using it is refused. This cannot be undone.`}
          confirmLabel="Revoke"
          busy={revoke.isPending}
          onConfirm={() => revoke.mutate(revoking.id)}
          onCancel={() => setRevoking(null)}
        />
      )}
    </section>
  );
}
