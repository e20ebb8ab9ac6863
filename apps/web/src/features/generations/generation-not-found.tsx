import { Link } from 'react-router-dom';

/** The API answers 404 alike for an id that never existed and for another seller's generation. */
export function GenerationNotFound() {
  return (
    <section className="not-found narrow">
      <p className="eyebrow">404</p>
      <h1>Generation not found</h1>
      <p className="muted">This generation does not exist, or it belongs to another account.</p>
      <div className="actions">
        <Link to="/smart-upload" className="button">
          Start a new generation
        </Link>
        <Link to="/dashboard" className="button button-ghost">
          Go to dashboard
        </Link>
      </div>
    </section>
  );
}
