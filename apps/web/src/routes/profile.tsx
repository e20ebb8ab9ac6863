import { NAME_REQUIRED_MESSAGE, NO_ACTIVE_SUBSCRIPTION_MESSAGE, planAllowance, planLabel, usagePercent, type SubscriptionResponse } from '@prodshot/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { ConfirmDialog } from '../components/ui/confirm-dialog.js';
import { Spinner } from '../components/ui/spinner.js';
import { PlanChangeNote } from '../features/credits/plan-change.js';
import { useBillingPortal } from '../features/credits/use-billing-portal.js';
import { totalCredits, useSubscription } from '../features/credits/use-subscription.js';
import { FallbackImage } from '../features/uploads/fallback-image.js';
import { toUploadItem, type UploadItem } from '../features/uploads/upload-items.js';
import { api, ApiError } from '../lib/api-client.js';
import { formatDate } from '../lib/format.js';
import { queryKeys } from '../lib/query-keys.js';
import { UploadFirstPhoto } from '../components/ui/empty-state.js';

const PROFILE_UPLOADS = 6;

export function ProfilePage() {
  const queryClient = useQueryClient();
  const profile = useQuery({ queryKey: queryKeys.profile, queryFn: api.profile });
  const subscription = useSubscription();
  const portal = useBillingPortal('/pricing');
  const images = useQuery({ queryKey: queryKeys.images, queryFn: api.images });
  const [name, setName] = useState('');
  const [message, setMessage] = useState<{ type: 'ok' | 'error'; text: string } | null>(null);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [deleting, setDeleting] = useState<UploadItem | null>(null);
  const [subMessage, setSubMessage] = useState<{ type: 'ok' | 'error'; text: string } | null>(null);

  useEffect(() => {
    if (profile.data) setName(profile.data.name);
  }, [profile.data]);

  const save = useMutation({
    mutationFn: (value: string) => api.updateProfile(value),
    onSuccess: (updated) => {
      queryClient.setQueryData(queryKeys.profile, updated);
      setMessage({ type: 'ok', text: 'Profile updated successfully' });
    },
    onError: () => setMessage({ type: 'error', text: 'Failed to update profile. Please try again.' }),
  });

  const cancel = useMutation({
    mutationFn: api.cancelSubscription,
    onSuccess: (response) => {
      setConfirmCancel(false);
      // Spec §4: the status reads canceled at once, whatever the refetch brings later.
      queryClient.setQueryData<SubscriptionResponse>(queryKeys.subscription, (current) =>
        current ? { ...current, isActive: false, subscription: { ...current.subscription, ...response.data.subscription, status: 'canceled' } } : current,
      );
      setSubMessage({ type: 'ok', text: 'Your subscription has been successfully canceled.' });
    },
    onError: (caught) => {
      setConfirmCancel(false);
      // The helper's message (the server's, or 'Server error: {status}') is for the log; the screen says one of two things.
      console.error('cancel subscription failed', caught);
      const noSub = caught instanceof ApiError && caught.message === NO_ACTIVE_SUBSCRIPTION_MESSAGE;
      setSubMessage({ type: 'error', text: noSub ? NO_ACTIVE_SUBSCRIPTION_MESSAGE : 'Failed to cancel subscription. Please try again.' });
    },
  });

  const remove = useMutation({
    mutationFn: (item: UploadItem) => api.deleteImage(item.imageId),
    onSuccess: () => {
      setDeleting(null);
      void queryClient.invalidateQueries({ queryKey: queryKeys.images });
    },
    onError: () => {
      setDeleting(null);
      setMessage({ type: 'error', text: 'Failed to delete image. Please try again.' });
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setMessage(null);
    if (!name.trim()) return setMessage({ type: 'error', text: NAME_REQUIRED_MESSAGE });
    save.mutate(name.trim());
  }

  if (profile.isPending) return <Spinner label="Loading profile" fullPage />;
  const sub = subscription.data;
  const plan = sub?.subscription.plan ?? 'none';
  const ending = sub?.subscription.cancelAtPeriodEnd || sub?.subscription.status === 'canceled';
  const usage = usagePercent(plan, sub?.subscriptionCredits ?? 0);
  const uploads = (images.data?.data ?? []).map(toUploadItem).slice(0, PROFILE_UPLOADS);

  return (
    <div className="profile">
      <header className="page-header">
        <Link to="/dashboard" className="back-link">
          ← Back to Dashboard
        </Link>
        <h1>Your Profile</h1>
      </header>
      {profile.isError && (
        <p className="form-error" role="alert">
          Failed to load profile data. Please try again.
        </p>
      )}
      <div className="profile-grid">
        <form className="card" onSubmit={submit} noValidate>
          <h2>Profile</h2>
          <label className="field">
            <span>Name</span>
            <input name="name" value={name} onChange={(event) => setName(event.target.value)} maxLength={200} aria-invalid={message?.text === NAME_REQUIRED_MESSAGE} />
          </label>
          <label className="field">
            <span>Email</span>
            <input name="email" value={profile.data?.email ?? ''} readOnly aria-describedby="email-note" />
          </label>
          <p id="email-note" className="muted small">
            Email cannot be changed. Please update it in your account with the authentication provider.
          </p>
          {message && (
            <p className={message.type === 'ok' ? 'form-ok' : 'form-error'} role={message.type === 'ok' ? 'status' : 'alert'}>
              {message.text}
            </p>
          )}
          <button type="submit" className="button" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save changes'}
          </button>
        </form>

        <section className="card" aria-labelledby="subscription-title">
          <h2 id="subscription-title">Subscription</h2>
          {subscription.isPending ? (
            <Spinner label="Loading subscription" />
          ) : (
            <>
              <dl className="facts">
                <div>
                  <dt>Plan</dt>
                  <dd data-testid="profile-plan">{planLabel(plan)}</dd>
                </div>
                <div>
                  <dt>Status</dt>
                  <dd className={`status status-${sub?.subscription.status ?? 'none'}`}>{sub?.subscription.status ?? 'none'}</dd>
                </div>
                <div>
                  <dt>Started</dt>
                  <dd>{formatDate(sub?.subscription.startDate)}</dd>
                </div>
                <div>
                  <dt>{ending ? 'Ends' : 'Renews'}</dt>
                  <dd>{formatDate(sub?.subscription.endDate)}</dd>
                </div>
              </dl>
              <PlanChangeNote subscription={sub?.subscription} />
              <h3>Credits</h3>
              <dl className="facts">
                <div>
                  <dt>Subscription credits</dt>
                  <dd>{sub?.subscriptionCredits ?? 0}</dd>
                </div>
                <div>
                  <dt>Add-on credits</dt>
                  <dd>{sub?.addOnCredits ?? 0}</dd>
                </div>
                <div>
                  <dt>Total</dt>
                  <dd>{totalCredits(sub)}</dd>
                </div>
              </dl>
              <div className="usage">
                <div className="usage-label">
                  <span>Monthly usage</span>
                  <span>
                    {usage}% of {planAllowance(plan)} images
                  </span>
                </div>
                <div className="usage-bar" role="progressbar" aria-label="Monthly usage" aria-valuemin={0} aria-valuemax={100} aria-valuenow={usage}>
                  <span style={{ width: `${usage}%` }} />
                </div>
              </div>
              {subMessage && (
                <p className={subMessage.type === 'ok' ? 'form-ok' : 'form-error'} role={subMessage.type === 'ok' ? 'status' : 'alert'}>
                  {subMessage.text}
                </p>
              )}
              {portal.error && (
                <p className="form-error" role="alert">
                  {portal.error}
                </p>
              )}
              <div className="actions">
                {plan !== 'none' && (
                  <button type="button" className="button" onClick={portal.open} disabled={portal.opening}>
                    {portal.opening ? 'Opening…' : 'Manage Plan'}
                  </button>
                )}
                <Link to="/pricing" className="button button-ghost">
                  Change plan
                </Link>
                <Link to="/pricing#add-on" className="button button-ghost">
                  Buy Credits
                </Link>
                {sub?.subscription.status === 'active' && (
                  <button type="button" className="button button-danger" onClick={() => setConfirmCancel(true)}>
                    Cancel
                  </button>
                )}
              </div>
            </>
          )}
        </section>
      </div>

      <section className="section" aria-labelledby="recent-uploads-title">
        <div className="sidebar-head">
          <h2 id="recent-uploads-title">Recent uploads</h2>
          <Link to="/all-uploads">View All</Link>
        </div>
        {uploads.length === 0 ? (
          <UploadFirstPhoto message="No uploads yet" />
        ) : (
          <ul className="image-grid image-grid-6">
            {uploads.map((item) => (
              <li key={item.imageId} className="card tile">
                <div className="tile-image">
                  <FallbackImage id={item.id} image={item} alt={item.name} />
                </div>
                <div className="tile-meta">
                  <span className="tile-name" title={item.name}>
                    {item.name}
                  </span>
                </div>
                <button type="button" className="link-button danger small" onClick={() => setDeleting(item)}>
                  Delete
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>

      {confirmCancel && (
        <ConfirmDialog
          title="Cancel your subscription?"
          message="Your plan stops renewing. Credits you already have stay until the end of the paid period."
          confirmLabel="Cancel subscription"
          busy={cancel.isPending}
          onConfirm={() => cancel.mutate()}
          onCancel={() => setConfirmCancel(false)}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title="Delete this image?"
          message={`“${deleting.name}” and its stored files will be deleted. Generated shots stay in your history.`}
          confirmLabel="Delete"
          busy={remove.isPending}
          onConfirm={() => remove.mutate(deleting)}
          onCancel={() => setDeleting(null)}
        />
      )}
    </div>
  );
}
