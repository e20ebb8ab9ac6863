import type { CreatedApiKey } from '@prodshot/contracts';
import { useState } from 'react';

type CopyState = 'idle' | 'copied' | 'failed';

/** The key just made, in full: the only time it is ever shown. */
export function NewApiKey({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const [copy, setCopy] = useState<CopyState>('idle');

  async function copyKey() {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  }

  return (
    <div className="api-key-new" role="region" aria-labelledby="api-key-new-title">
      <h3 id="api-key-new-title">Your new key “{created.name}”</h3>
      <p>Copy it now and keep it somewhere safe: it will not be shown again.</p>
      <div className="api-key-secret">
        <code data-testid="new-api-key">{created.key}</code>
        <button type="button" className="button button-small" onClick={() => void copyKey()}>
          Copy
        </button>
      </div>
      <p className="small" role="status">
        {copy === 'copied' ? 'Copied to the clipboard.' : copy === 'failed' ? 'Could not copy: select the key and copy it yourself.' : ''}
      </p>
      <button type="button" className="button button-ghost button-small" onClick={onDone}>
        I have copied it
      </button>
    </div>
  );
}
