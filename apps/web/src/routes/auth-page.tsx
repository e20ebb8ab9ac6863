import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { Spinner } from '../components/ui/spinner.js';
import { useAuthState } from '../features/auth/auth-context.js';
import { authPath, clearPendingReturnPath, pendingReturnPath } from '../features/auth/return-path.js';
import { errorMessage } from '../lib/api-client.js';

const ClerkForm = lazy(() => import('../features/auth/clerk-forms.js'));

export function AuthPage({ kind }: { kind: 'sign-in' | 'sign-up' }) {
  const auth = useAuthState();
  const [params] = useSearchParams();
  // Only same-site paths: a crafted redirect_url must not send a fresh session elsewhere.
  const [redirect] = useState(() => pendingReturnPath(params.get('redirect_url')));

  if (auth.status === 'loading') return <Spinner label="Loading" fullPage />;
  if (auth.status === 'signed-in') return <SignedIn redirect={redirect} />;
  return (
    <div className="auth-page">
      {auth.mode === 'clerk' ? (
        <Suspense fallback={<Spinner label="Loading sign-in" />}>
          <ClerkForm kind={kind} redirect={redirect} />
        </Suspense>
      ) : (
        <EmbeddedForm kind={kind} redirect={redirect} />
      )}
    </div>
  );
}

function SignedIn({ redirect }: { redirect: string }) {
  useEffect(clearPendingReturnPath, []);
  return <Navigate to={redirect} replace />;
}

function EmbeddedForm({ kind, redirect }: { kind: 'sign-in' | 'sign-up'; redirect: string }) {
  const { signInEmbedded } = useAuthState();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!signInEmbedded) return;
    setBusy(true);
    setError(null);
    try {
      await signInEmbedded(email.trim(), name.trim() || email.split('@')[0] || 'Prodshot user');
      navigate(redirect, { replace: true });
    } catch (caught) {
      setError(errorMessage(caught, 'Sign-in failed. Please try again.'));
      setBusy(false);
    }
  }

  const isSignUp = kind === 'sign-up';
  return (
    <form className="auth-card card" onSubmit={submit} aria-labelledby="auth-title">
      <h1 id="auth-title">{isSignUp ? 'Create your account' : 'Sign in'}</h1>
      <p className="muted">{isSignUp ? 'to continue to Prodshot' : 'Welcome back! Please sign in to continue'}</p>
      <label className="field">
        <span>Full name</span>
        <input
          name="name"
          autoComplete="name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          required={isSignUp}
          maxLength={200}
        />
      </label>
      <label className="field">
        <span>Email address</span>
        <input
          name="email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
          maxLength={320}
        />
      </label>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="button button-block" disabled={busy}>
        {busy ? 'Signing in…' : 'Continue'}
      </button>
      <p className="auth-switch">
        {isSignUp ? (
          <>
            Already have an account? <a href={authPath('sign-in', redirect)}>Sign in</a>
          </>
        ) : (
          <>
            Don&apos;t have an account? <a href={authPath('sign-up', redirect)}>Sign up</a>
          </>
        )}
      </p>
      <p className="auth-note">
        Development sign-in: no password is needed while no authentication provider is configured.
      </p>
    </form>
  );
}
