import { Link } from 'react-router-dom';

export function SuccessPage() {
  return (
    <section className="narrow center-card card">
      <div className="success-mark" aria-hidden="true">
        ✓
      </div>
      <h1>Success!</h1>
      <p>Your payment was successful</p>
      <Link to="/dashboard" className="button">
        Go to Dashboard
      </Link>
    </section>
  );
}
