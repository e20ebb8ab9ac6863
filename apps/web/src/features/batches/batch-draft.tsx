import { batchCost, batchPath } from '@prodshot/contracts';
import { useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { CreditsNotice, creditsRefusal } from '../../components/ui/api-error-notice.js';
import { errorMessage } from '../../lib/api-client.js';
import { newIdempotencyKey } from '../../lib/idempotency.js';
import { totalCredits, useSubscription } from '../credits/index.js';
import { outlineHolds, useSubjects } from '../subject/index.js';
import { useCreateBatch } from './api/create-batch.js';
import { BatchChoiceFields, INITIAL_CHOICE, toChoice, type ChoiceDraft } from './batch-choice.js';
import { PhotoSupport, photoRefused, refusedBlocker } from './photo-support.js';
import { useBatchUploads, type DraftItem } from './use-batch-uploads.js';

export const OUTLINES_WAIT =
  "Check each photo's outline marked “Is this your product?” and confirm it or tap to fix it.";

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The batch before it starts: every photo (uploading as soon as picked) with its title, one choice
 * for all, the total in credits and the seller's balance, and one confirmation that reserves it all.
 * `hintsFor` is where per-photo quality hints (the photo coach) go, under each photo.
 */
export function BatchDraft({ files, hintsFor }: { files: File[]; hintsFor?: (item: DraftItem) => ReactNode }) {
  const navigate = useNavigate();
  const { items, retitle, remove, retry } = useBatchUploads(files);
  const [draft, setDraft] = useState<ChoiceDraft>(INITIAL_CHOICE);
  const subscription = useSubscription();
  // One key per confirmation: a retried or double-clicked confirm starts (and charges) one batch.
  const confirmKey = useRef(newIdempotencyKey());

  const choice = toChoice(draft);
  const cost = choice ? batchCost(choice, items.length) : 0;
  const balance = subscription.data ? totalCredits(subscription.data) : null;
  const shortfall = balance !== null && cost > balance ? cost - balance : 0;
  const uploading = items.some((item) => item.status === 'uploading');
  const failed = items.some((item) => item.status === 'failed');
  // A photo whose unsure outline the seller has neither confirmed nor fixed holds the whole batch: nothing is reserved before.
  const subjects = useSubjects(items.map((item) => item.imageId ?? null));
  const outlineWaits = subjects.some((subject) => outlineHolds(subject, null));
  // A photo read as a kind not shot yet holds the batch too: it is taken out before anything is charged.
  const refused = subjects.flatMap((subject, n) => (photoRefused(subject) ? [n + 1] : []));

  const start = useCreateBatch({
    onSuccess: ({ data }) => navigate(batchPath(data.batchId), { replace: true }),
    // Credits moved elsewhere meanwhile: the balance shown (and so the shortfall) is read again.
    onError: () => {
      confirmKey.current = newIdempotencyKey();
    },
  });
  const confirm = () =>
    start.mutate({
      body: {
        items: items.map((item) => ({
          imageId: item.imageId!,
          ...(item.productTitle.trim() ? { productTitle: item.productTitle.trim() } : {}),
        })),
        choice: choice!,
      },
      idempotencyKey: confirmKey.current,
    });
  const refusedForCredits = creditsRefusal(start.error) !== null;

  const blocker =
    items.length === 0
      ? 'Add at least one photo.'
      : uploading
        ? 'Uploading your photos…'
        : failed
          ? 'Retry or remove the photos that failed to upload.'
          : refused.length > 0
            ? refusedBlocker(refused)
            : outlineWaits
              ? OUTLINES_WAIT
              : !choice
                ? 'Describe the scene first.'
                : null;

  return (
    <div className="batch-draft">
      <ul className="batch-items" aria-label="Photos in this batch">
        {items.map((item, n) => (
          <li key={item.key} className={`batch-item card batch-item-${item.status}`} data-testid="batch-item">
            <img
              src={item.previewUrl}
              alt={`Photo ${n + 1}: ${item.file.name}`}
              className="batch-thumb"
              width={96}
              height={96}
            />
            <div className="batch-item-body">
              <label className="batch-title">
                <span className="sr-only">Product title for photo {n + 1}</span>
                <input
                  type="text"
                  value={item.productTitle}
                  maxLength={200}
                  placeholder="Product title (optional)"
                  onChange={(event) => retitle(item.key, event.target.value)}
                />
              </label>
              <p className="muted small batch-item-status" aria-live="polite">
                {item.status === 'uploading' ? 'Uploading…' : item.status === 'ready' ? item.file.name : item.error}
              </p>
              {item.imageId && <PhotoSupport subject={subjects[n]} place={n + 1} onRemove={() => remove(item.key)} />}
              {hintsFor && <div className="batch-item-hints">{hintsFor(item)}</div>}
            </div>
            <div className="batch-item-actions">
              {item.status === 'failed' && (
                <button type="button" className="button button-small button-ghost" onClick={() => retry(item.key)}>
                  Retry
                </button>
              )}
              <button
                type="button"
                className="link-button"
                onClick={() => remove(item.key)}
                aria-label={`Remove photo ${n + 1}`}
              >
                Remove
              </button>
            </div>
          </li>
        ))}
      </ul>

      <div className="batch-confirm card">
        <BatchChoiceFields draft={draft} onChange={setDraft} />
        <p className="batch-cost" data-testid="batch-cost">
          <strong>Total: {plural(cost, 'credit')}</strong>{' '}
          <span className="muted">
            for {plural(items.length, 'photo')}
            {balance !== null && <> · you have {plural(balance, 'credit')}</>}
          </span>
        </p>
        {(shortfall > 0 || refusedForCredits) && (
          <CreditsNotice
            message={
              refusedForCredits && shortfall === 0
                ? errorMessage(start.error, '')
                : `You need ${plural(shortfall, 'more credit')} for this batch.`
            }
          />
        )}
        {start.isError && !refusedForCredits && (
          <p className="form-error" role="alert">
            {errorMessage(start.error, 'The batch could not be started. Please try again.')}
          </p>
        )}
        <button
          type="button"
          className="button button-large button-block"
          disabled={blocker !== null || shortfall > 0 || start.isPending}
          onClick={confirm}
        >
          {start.isPending ? 'Starting…' : `Confirm and start · ${plural(cost, 'credit')}`}
        </button>
        {blocker && <p className="muted small">{blocker}</p>}
      </div>
    </div>
  );
}
