import { planLabel } from '@prodshot/contracts';
import { Suspense, useEffect, useRef, type ReactNode } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { Spinner } from '../components/ui/spinner.js';
import { useAuthState } from '../features/auth/auth-context.js';
import { CreditCounter } from '../features/credits/credit-counter.js';
import { PlanChangeNote } from '../features/credits/plan-change.js';
import { useBillingPortal } from '../features/credits/api/create-portal-session.js';
import { totalCredits, useSubscription } from '../features/credits/api/get-subscription.js';
import { useMenu } from '../features/menu/use-menu.js';
import { useProfile } from '../features/profile/api/get-profile.js';
import { useRouteFocus, useRouteTitle } from './route-effects.js';

export function Layout() {
  const auth = useAuthState();
  const signedIn = auth.status === 'signed-in';
  const subscription = useSubscription();
  // The spec's 'Manage Plan' went to /checkout, which sends a seller without a plan on to /pricing.
  const portal = useBillingPortal('/checkout');
  const mobileMenu = useMenu();
  const { setOpen: setMobileMenuOpen } = mobileMenu;
  const location = useLocation();
  const navigate = useNavigate();
  const main = useRef<HTMLElement>(null);
  useRouteTitle();
  useRouteFocus(main);

  useEffect(() => {
    setMobileMenuOpen(false);
    window.scrollTo(0, 0);
  }, [location.pathname, setMobileMenuOpen]);

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
            aria-label={mobileMenu.open ? 'Close menu' : 'Open menu'}
            {...mobileMenu.toggleProps}
          >
            <span aria-hidden="true">{mobileMenu.open ? '✕' : '☰'}</span>
          </button>
        </div>
        {mobileMenu.open && (
          <nav id="mobile-menu" className="mobile-menu" aria-label="Mobile">
            {signedIn && (
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
            )}
            <ul className="mobile-menu-items" aria-label="Menu" {...mobileMenu.menuProps}>
              <MenuItem>
                <NavLink role="menuitem" tabIndex={-1} to="/" end>
                  Home
                </NavLink>
              </MenuItem>
              <MenuItem>
                <NavLink role="menuitem" tabIndex={-1} to="/pricing">
                  Pricing
                </NavLink>
              </MenuItem>
              {signedIn ? (
                <>
                  <MenuItem>
                    <NavLink role="menuitem" tabIndex={-1} to="/dashboard">
                      Dashboard
                    </NavLink>
                  </MenuItem>
                  <MenuItem>
                    {/* aria-disabled: a disabled item would drop focus out of the menu while the portal opens. */}
                    <button
                      role="menuitem"
                      tabIndex={-1}
                      type="button"
                      className="button"
                      onClick={() => {
                        if (!portal.opening) portal.open();
                      }}
                      aria-disabled={portal.opening}
                    >
                      {portal.opening ? 'Opening…' : 'Manage Plan'}
                    </button>
                  </MenuItem>
                  <MenuItem>
                    <Link role="menuitem" tabIndex={-1} to="/pricing#add-on" className="button button-ghost">
                      Buy Credits
                    </Link>
                  </MenuItem>
                  <MenuItem>
                    <Link role="menuitem" tabIndex={-1} to="/profile">
                      Profile
                    </Link>
                  </MenuItem>
                  <MenuItem>
                    <button role="menuitem" tabIndex={-1} type="button" className="link-button" onClick={signOut}>
                      Sign out
                    </button>
                  </MenuItem>
                </>
              ) : (
                <>
                  <MenuItem>
                    <Link role="menuitem" tabIndex={-1} to="/sign-in">
                      Sign in
                    </Link>
                  </MenuItem>
                  <MenuItem>
                    <Link role="menuitem" tabIndex={-1} to="/sign-up" className="button">
                      Get Started
                    </Link>
                  </MenuItem>
                </>
              )}
            </ul>
            {portal.error && (
              <p className="form-error" role="alert">
                {portal.error}
              </p>
            )}
          </nav>
        )}
      </header>
      <main className="main" id="main" tabIndex={-1} ref={main}>
        <Suspense fallback={<Spinner label="Loading the page" fullPage />}>
          <Outlet />
        </Suspense>
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

function MenuItem({ children }: { children: ReactNode }) {
  return <li role="none">{children}</li>;
}

function UserMenu({ onSignOut }: { onSignOut: () => void }) {
  const profile = useProfile();
  const menu = useMenu();
  const name = profile.data?.name ?? '';
  const initials =
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((part) => part[0]!.toUpperCase())
      .join('') || '•';
  return (
    <div className="user-menu">
      {/* Named by its own text, so what a speech user reads on it (the initials) is part of its name. */}
      <button type="button" className="avatar" {...menu.toggleProps}>
        {initials} <span className="sr-only">user menu</span>
      </button>
      {menu.open && (
        <div className="user-dropdown">
          <p className="user-name">{name}</p>
          <p className="muted small">{profile.data?.email}</p>
          <ul className="user-menu-items" aria-label="User menu" {...menu.menuProps}>
            <MenuItem>
              <Link role="menuitem" tabIndex={-1} to="/profile" onClick={() => menu.setOpen(false)}>
                Profile
              </Link>
            </MenuItem>
            <MenuItem>
              <Link role="menuitem" tabIndex={-1} to="/all-uploads" onClick={() => menu.setOpen(false)}>
                All uploads
              </Link>
            </MenuItem>
            <MenuItem>
              <button role="menuitem" tabIndex={-1} type="button" className="link-button" onClick={onSignOut}>
                Sign out
              </button>
            </MenuItem>
          </ul>
        </div>
      )}
    </div>
  );
}
