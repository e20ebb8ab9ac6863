import type { ApiKey, CreatedApiKey } from '@prodshot/contracts';
import { SecretHoldersSection } from '../../components/ui/secret-holders-section.js';
import { useApiKeys } from './api/get-api-keys.js';
import { useRevokeApiKey } from './api/revoke-api-key.js';
import { ApiKeyList } from './api-key-list.js';
import { CreateApiKeyForm } from './create-api-key-form.js';
import { NewApiKey } from './new-api-key.js';
import './api-keys.css';

/** Profile → API keys: make a key (shown once), see the keys in force and their last use, revoke one. */
export function ApiKeysSection() {
  return (
    <SecretHoldersSection<ApiKey, CreatedApiKey>
      name="api-keys"
      title="API keys"
      intro={
        <>
          A key lets your shop platform or a script call Prodshot as you, with your credits: send it as{' '}
          <code>Authorization: Bearer &lt;key&gt;</code>. Keys cannot manage keys or payments.
        </>
      }
      createForm={(onCreated) => <CreateApiKeyForm onCreated={onCreated} />}
      shownOnce={(created, onDone) => <NewApiKey created={created} onDone={onDone} />}
      listTitle="Your keys"
      items={useApiKeys()}
      loadFailure="Failed to load your API keys. Please try again."
      empty="No API keys yet."
      list={(keys, onRevoke) => <ApiKeyList keys={keys} onRevoke={onRevoke} />}
      removal={{
        useRemove: useRevokeApiKey,
        failure: 'Failed to revoke the key',
        confirmTitle: 'Revoke this key?',
        confirmLabel: 'Revoke',
        confirmMessage: (key) =>
          `“${key.name}” (${key.prefix}…) stops working at once: anything still using it is refused. This cannot be undone.`,
      }}
    />
  );
}
