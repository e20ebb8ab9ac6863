import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from './confirm-dialog.js';

/** Removing one item: the feature's mutation hook (told when it settles), and the words of its errors and confirm. */
export interface Removal<Item> {
  useRemove: (options: { onSettled: () => void }) => UseMutationResult<unknown, Error, string>;
  /** Shown before the server's message when removing fails: "Failed to revoke the key". */
  failure: string;
  confirmTitle: string;
  confirmLabel: string;
  confirmMessage: (item: Item) => string;
}

/**
 * A Profile card for things the seller makes that hold a secret shown once (API keys, webhook
 * endpoints): the form, the secret just made, the list, and removal behind a confirm.
 */
export function SecretHoldersSection<Item extends { id: string }, Created>({
  name,
  title,
  intro,
  createForm,
  shownOnce,
  listTitle,
  items,
  loadFailure,
  empty,
  list,
  removal,
}: {
  /** The section's class and the stem of its heading's id. */
  name: string;
  title: string;
  intro: ReactNode;
  createForm: (onCreated: (created: Created) => void) => ReactNode;
  shownOnce: (created: Created, onDone: () => void) => ReactNode;
  listTitle: string;
  items: UseQueryResult<{ data: Item[] }>;
  loadFailure: string;
  /** What the list says while there is nothing in it. */
  empty: string;
  list: (items: Item[], onRemove: (item: Item) => void) => ReactNode;
  removal: Removal<Item>;
}) {
  const [created, setCreated] = useState<Created | null>(null);
  const [removing, setRemoving] = useState<Item | null>(null);
  const remove = removal.useRemove({ onSettled: () => setRemoving(null) });

  return (
    <section className={`card ${name}`} aria-labelledby={`${name}-title`}>
      <h2 id={`${name}-title`}>{title}</h2>
      <p className="muted small">{intro}</p>
      {createForm(setCreated)}
      {created !== null && shownOnce(created, () => setCreated(null))}
      <h3>{listTitle}</h3>
      {items.isError && (
        <p className="form-error" role="alert">
          {loadFailure}
        </p>
      )}
      {remove.isError && (
        <p className="form-error" role="alert">
          {removal.failure}: {remove.error.message}
        </p>
      )}
      {items.data &&
        (items.data.data.length === 0 ? <p className="muted">{empty}</p> : list(items.data.data, setRemoving))}
      {removing && (
        <ConfirmDialog
          title={removal.confirmTitle}
          message={removal.confirmMessage(removing)}
          confirmLabel={removal.confirmLabel}
          busy={remove.isPending}
          onConfirm={() => remove.mutate(removing.id)}
          onCancel={() => setRemoving(null)}
        />
      )}
    </section>
  );
}
