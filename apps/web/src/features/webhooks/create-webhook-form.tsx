import {
  WEBHOOK_EVENTS,
  WEBHOOK_URL_MAX_LENGTH,
  type CreatedWebhookEndpoint,
  type WebhookEventType,
} from '@prodshot/contracts';
import { useState, type FormEvent } from 'react';
import { useCreateWebhook } from './api/create-webhook.js';
import { EVENT_NAMES } from './event-names.js';

const DEFAULT_THRESHOLD = '10';

/** URL, events and (for credits.low) a threshold of a new endpoint; the endpoint made goes to `onCreated`, its secret to be shown once. */
export function CreateWebhookForm({ onCreated }: { onCreated: (created: CreatedWebhookEndpoint) => void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>(['generation.completed', 'generation.failed']);
  const [threshold, setThreshold] = useState(DEFAULT_THRESHOLD);
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateWebhook({
    onCreated: (created) => {
      setUrl('');
      onCreated(created);
    },
  });
  const wantsCreditsLow = events.includes('credits.low');

  function toggle(event: WebhookEventType, on: boolean) {
    setEvents((current) => (on ? [...current, event] : current.filter((e) => e !== event)));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!url.trim()) return setProblem('Enter the URL to send events to.');
    if (events.length === 0) return setProblem('Choose at least one event.');
    const credits = Number(threshold);
    if (wantsCreditsLow && !(Number.isInteger(credits) && credits >= 1))
      return setProblem('Set the credits threshold to a whole number of 1 or more.');
    setProblem(null);
    // In the order the API lists them, whatever order they were ticked in.
    create.mutate({
      url: url.trim(),
      events: WEBHOOK_EVENTS.filter((e) => events.includes(e)),
      ...(wantsCreditsLow ? { creditsLowThreshold: credits } : {}),
    });
  }

  const error = problem ?? (create.isError ? `Failed to add the endpoint: ${create.error.message}` : null);
  return (
    <form className="webhook-form" onSubmit={submit} noValidate>
      <label className="field">
        <span>Endpoint URL</span>
        <input
          name="webhook-url"
          type="url"
          inputMode="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          maxLength={WEBHOOK_URL_MAX_LENGTH}
          placeholder="https://example.com/prodshot-webhook"
        />
      </label>
      <fieldset className="webhook-events">
        <legend>Events</legend>
        {WEBHOOK_EVENTS.map((type) => (
          <label key={type} className="webhook-event">
            <input
              type="checkbox"
              name="event"
              value={type}
              checked={events.includes(type)}
              onChange={(e) => toggle(type, e.target.checked)}
            />
            <span>
              {EVENT_NAMES[type]} <code className="muted">{type}</code>
            </span>
          </label>
        ))}
      </fieldset>
      {wantsCreditsLow && (
        <label className="field webhook-threshold">
          <span>Send credits.low below this many credits</span>
          <input
            name="credits-low-threshold"
            type="number"
            min={1}
            step={1}
            inputMode="numeric"
            value={threshold}
            onChange={(e) => setThreshold(e.target.value)}
          />
        </label>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="button" disabled={create.isPending}>
        {create.isPending ? 'Adding…' : 'Add endpoint'}
      </button>
    </form>
  );
}
