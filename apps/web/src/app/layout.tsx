import { planLabel } from '@prodshot/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { useAuthState } from '../features/auth/auth-context.js';
import { CreditCounter } from '../features/credits/credit-counter.js';
import { PlanChangeNote } from '../features/credits/plan-change.js';
import { useBillingPortal } from '../features/credits/use-billing-portal.js';
import { totalCredits, useSubscription } from '../features/credits/use-subscription.js';
import { api } from '../lib/api-client.js';
import { queryKeys } from '../lib/query-keys.js';

export function Layout() {
  const auth = useAuthState();
  const signedIn = auth.status === 'signed-in';
  const subscription = useSubscription();
  // The spec's 'Manage Plan' went to /checkout, which sends a seller without a plan on to /pricing.
  const portal = useBillingPortal('/checkout');
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  const navigate = useNavigate();

  useEffect(() => {
    setMenuOpen(false);
    window.scrollTo(0, 0);
  }, [location.pathname]);

  async function signOut() {
    await auth.signOut();
    navigate('/');
  }

  return (
    <div className="page">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="header">
        <div className="header-inner">
          <Link to="/" className="brand" aria-label="Prodshot home">
            <span className="brand-mark" aria-hidden="true" />
            Prodshot
          </Link>
          <nav className="nav" aria-label="Main">
            <NavLink to="/" end>
              Home
            </NavLink>
            <NavLink to="/pricing">Pricing</NavLink>
            {signedIn && <NavLink to="/dashboard">Dashboard</NavLink>}
          </nav>
          <div className="header-actions">
            {signedIn ? (
              <>
                <CreditCounter data={subscription.data} loading={subscription.isPending} />
                <UserMenu onSignOut={signOut} />
              </>
            ) : auth.status === 'signed-out' ? (
              <>
                <Link to="/sign-in" className="button button-ghost">
                  Sign in
                </Link>
                <Link to="/sign-up" className="button">
                  Get Started
                </Link>
              </>
            ) : null}
          </div>
          <button
            type="button"
            className="menu-toggle"
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            onClick={() => setMenuOpen((open) => !open)}
          >
            <span aria-hidden="true">{menuOpen ? '✕' : '☰'}</span>
          </button>
        </div>
        {menuOpen && (
          <nav id="mobile-menu" className="mobile-menu" aria-label="Mobile">
            <NavLink to="/" end>
              Home
            </NavLink>
            <NavLink to="/pricing">Pricing</NavLink>
            {signedIn ? (
              <>
                <NavLink to="/dashboard">Dashboard</NavLink>
                <div className="mobile-credits">
                  <p>
                    Credits: <strong>{subscription.isPending ? '...' : totalCredits(subscription.data)}</strong>
                  </p>
                  {subscription.data && (
                    <>
                      <p className="muted small">{planLabel(subscription.data.subscription.plan)}</p>
                      <PlanChangeNote subscription={subscription.data.subscription} />
                    </>
                  )}
                </div>
                <button type="button" className="button" onClick={portal.open} disabled={portal.opening}>
                  {portal.opening ? 'Opening…' : 'Manage Plan'}
                </button>
                {portal.error && (
                  <p className="form-error" role="alert">
                    {portal.error}
                  </p>
                )}
                <Link to="/pricing#add-on" className="button button-ghost">
                  Buy Credits
                </Link>
                <Link to="/profile">Profile</Link>
                <button type="button" className="link-button" onClick={signOut}>
                  Sign out
                </button>
              </>
            ) : (
              <>
                <Link to="/sign-in">Sign in</Link>
                <Link to="/sign-up" className="button">
                  Get Started
                </Link>
              </>
            )}
          </nav>
        )}
      </header>
      <main className="main" id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <footer className="footer">
        <div className="footer-inner">
          <div>
            <p className="brand">
              <span className="brand-mark" aria-hidden="true" />
              Prodshot
            </p>
            <p className="muted">Studio-quality product shots from an ordinary photo.</p>
          </div>
          <nav aria-label="Footer">
            <Link to="/pricing">Pricing</Link>
            <Link to="/sign-up">Sign up</Link>
            <Link to="/terms-of-service">Terms of Service</Link>
            <Link to="/privacy-policy">Privacy Policy</Link>
          </nav>
          <p className="muted">© {new Date().getFullYear()} Prodshot</p>
        </div>
      </footer>
    </div>
  );
}

function UserMenu({ onSignOut }: { onSignOut: () => void }) {
  const profile = useQuery({ queryKey: queryKeys.profile, queryFn: api.profile });
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent | KeyboardEvent) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !ref.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);
  const name = profile.data?.name ?? '';
  const initials =
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((part) => part[0]!.toUpperCase())
      .join('') || '•';
  return (
    <div className="user-menu" ref={ref}>
      <button type="button" className="avatar" aria-haspopup="menu" aria-expanded={open} aria-label="User menu" onClick={() => setOpen((o) => !o)}>
        {initials}
      </button>
      {open && (
        <div className="user-dropdown" role="menu">
          <p className="user-name">{name}</p>
          <p className="muted small">{profile.data?.email}</p>
          <Link role="menuitem" to="/profile" onClick={() => setOpen(false)}>
            Profile
          </Link>
          <Link role="menuitem" to="/all-uploads" onClick={() => setOpen(false)}>
            All uploads
          </Link>
          <button role="menuitem" type="button" className="link-button" onClick={onSignOut}>
            Sign out
          </button>
        </div>
      )}
    </div>
  );
}
