import { NAME_REQUIRED_MESSAGE, type UserProfile } from '@prodshot/contracts';
import { useEffect, useState, type FormEvent } from 'react';
import { useUpdateProfile } from './api/update-profile.js';

export type ProfileMessage = { type: 'ok' | 'error'; text: string };

/** The seller's name (editable) and email (the sign-in provider's); `message` is the profile's one line of news. */
export function ProfileForm({
  profile,
  message,
  onMessage,
}: {
  profile: UserProfile | undefined;
  message: ProfileMessage | null;
  onMessage: (message: ProfileMessage | null) => void;
}) {
  const [name, setName] = useState('');
  useEffect(() => {
    if (profile) setName(profile.name);
  }, [profile]);

  const save = useUpdateProfile({
    onSuccess: () => onMessage({ type: 'ok', text: 'Profile updated successfully' }),
    onError: () => onMessage({ type: 'error', text: 'Failed to update profile. Please try again.' }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    onMessage(null);
    if (!name.trim()) return onMessage({ type: 'error', text: NAME_REQUIRED_MESSAGE });
    save.mutate(name.trim());
  }

  return (
    <form className="card" onSubmit={submit} noValidate>
      <h2>Profile</h2>
      <label className="field">
        <span>Name</span>
        <input
          name="name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          maxLength={200}
          aria-invalid={message?.text === NAME_REQUIRED_MESSAGE}
        />
      </label>
      <label className="field">
        <span>Email</span>
        <input name="email" value={profile?.email ?? ''} readOnly aria-describedby="email-note" />
      </label>
      <p id="email-note" className="muted small">
        Email cannot be changed. Please update it in your account with the authentication provider.
      </p>
      {message && (
        <p
          className={message.type === 'ok' ? 'form-ok' : 'form-error'}
          role={message.type === 'ok' ? 'status' : 'alert'}
        >
          {message.text}
        </p>
      )}
      <button type="submit" className="button" disabled={save.isPending}>
        {save.isPending ? 'Saving…' : 'Save changes'}
      </button>
    </form>
  );
}
