import { Link } from 'react-router-dom';

/** A 404 in the app's voice: what is missing, a way forward, and the dashboard. */
export function NotFoundNotice({
  title,
  message,
  next,
}: {
  title: string;
  message: string;
  next: { to: string; label: string };
}) {
  return (
    <section className="not-found narrow">
      <p className="eyebrow">404</p>
      <h1>{title}</h1>
      <p className="muted">{message}</p>
      <div className="actions">
        <Link to={next.to} className="button">
          {next.label}
        </Link>
        <Link to="/dashboard" className="button button-ghost">
          Go to dashboard
        </Link>
      </div>
    </section>
  );
}
