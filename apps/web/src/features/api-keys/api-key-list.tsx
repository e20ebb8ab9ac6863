import type { ApiKey } from '@prodshot/contracts';
import { formatDate, formatDateTime } from '../../lib/format.js';

const SCOPE_NAMES: Record<ApiKey['scopes'][number], string> = { generate: 'Generate', read: 'Read' };

function lastUse(key: ApiKey): string {
  if (!key.lastUsedAt) return 'Never used';
  return `Last used ${formatDateTime(key.lastUsedAt)}${key.lastUsedAddress ? ` from ${key.lastUsedAddress}` : ''}`;
}

/** The seller's keys in force (at least one): what each may do, how it starts, and when and from where it was last used. */
export function ApiKeyList({ keys, onRevoke }: { keys: ApiKey[]; onRevoke: (key: ApiKey) => void }) {
  return (
    <ul className="api-key-list" aria-label="Your API keys">
      {keys.map((key) => (
        <li key={key.id} className="api-key-item">
          <div className="api-key-head">
            <strong className="api-key-name">{key.name}</strong>
            <span className="api-key-badges">
              {key.scopes.map((scope) => (
                <span key={scope} className="api-key-badge">
                  {SCOPE_NAMES[scope]}
                </span>
              ))}
            </span>
          </div>
          <code className="api-key-prefix">{key.prefix}…</code>
          <p className="muted small api-key-dates">
            Created {formatDate(key.createdAt)} · {lastUse(key)}
          </p>
          <button
            type="button"
            className="button button-ghost button-small api-key-revoke"
            onClick={() => onRevoke(key)}
            aria-label={`Revoke ${key.name}`}
          >
            Revoke
          </button>
        </li>
      ))}
    </ul>
  );
}
