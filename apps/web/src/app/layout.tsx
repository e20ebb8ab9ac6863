import { Link, NavLink, Outlet } from 'react-router-dom';

export function Layout() {
  return (
    <div className="page">
      <header className="header">
        <Link to="/" className="brand">
          Prodshot
        </Link>
        <nav className="nav" aria-label="Main">
          <NavLink to="/">Home</NavLink>
          <NavLink to="/pricing">Pricing</NavLink>
        </nav>
        <div className="header-actions">
          <Link to="/sign-in" className="button button-ghost">
            Sign in
          </Link>
          <Link to="/sign-up" className="button">
            Get Started
          </Link>
        </div>
      </header>
      <main className="main">
        <Outlet />
      </main>
      <footer className="footer">
        <nav aria-label="Footer">
          <Link to="/pricing">Pricing</Link>
          <Link to="/sign-up">Sign up</Link>
          <Link to="/terms-of-service">Terms of Service</Link>
          <Link to="/privacy-policy">Privacy Policy</Link>
        </nav>
        <p>© {new Date().getFullYear()} Prodshot</p>
      </footer>
    </div>
  );
}
