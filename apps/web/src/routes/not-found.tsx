import { Link } from 'react-router-dom';

export function NotFoundPage() {
  return (
    <section className="not-found narrow">
      <p className="eyebrow">404</p>
      <h1>Page not found</h1>
      <p className="muted">The page you are looking for does not exist or has moved.</p>
      <div className="actions">
        <Link to="/" className="button">
          Go home
        </Link>
        <Link to="/dashboard" className="button button-ghost">
          Go to dashboard
        </Link>
      </div>
    </section>
  );
}
