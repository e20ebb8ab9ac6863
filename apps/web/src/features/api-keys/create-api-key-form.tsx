import { API_KEY_NAME_MAX_LENGTH, type ApiKeyScope, type CreatedApiKey } from '@prodshot/contracts';
import { useState, type FormEvent } from 'react';
import { useCreateApiKey } from './api/create-api-key.js';

const SCOPE_CHOICES: { scope: ApiKeyScope; label: string; hint: string }[] = [
  { scope: 'generate', label: 'Generate', hint: 'upload photos, start and change generations (spends your credits)' },
  { scope: 'read', label: 'Read', hint: 'list and download your photos and shots' },
];

/** Name and scopes of a new key; the key made goes to `onCreated`, to be shown once. */
export function CreateApiKeyForm({ onCreated }: { onCreated: (created: CreatedApiKey) => void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>(['generate', 'read']);
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateApiKey({
    onCreated: (created) => {
      setName('');
      onCreated(created);
    },
  });

  function toggle(scope: ApiKeyScope, on: boolean) {
    setScopes((current) => (on ? [...current, scope] : current.filter((s) => s !== scope)));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setProblem('Give the key a name.');
    if (scopes.length === 0) return setProblem('Choose at least one scope.');
    setProblem(null);
    // In the order the API lists them, whatever order they were ticked in.
    create.mutate({ name: name.trim(), scopes: SCOPE_CHOICES.map((c) => c.scope).filter((s) => scopes.includes(s)) });
  }

  const error = problem ?? (create.isError ? `Failed to create the key: ${create.error.message}` : null);
  return (
    <form className="api-key-form" onSubmit={submit} noValidate>
      <label className="field">
        <span>Key name</span>
        <input
          name="api-key-name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          maxLength={API_KEY_NAME_MAX_LENGTH}
          placeholder="e.g. Shop sync"
        />
      </label>
      <fieldset className="api-key-scopes">
        <legend>Scopes</legend>
        {SCOPE_CHOICES.map(({ scope, label, hint }) => (
          <label key={scope} className="api-key-scope">
            <input
              type="checkbox"
              name="scope"
              value={scope}
              checked={scopes.includes(scope)}
              onChange={(event) => toggle(scope, event.target.checked)}
            />
            <span>
              <strong>{label}</strong> <span className="muted">— {hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="button" disabled={create.isPending}>
        {create.isPending ? 'Creating…' : 'Create key'}
      </button>
    </form>
  );
}
