import { Link } from 'react-router-dom';

export function HomePage() {
  return (
    <section className="hero">
      <h1>Turn Ordinary Product Shots into Extraordinary Visuals</h1>
      <p>Upload a product photo and get studio-quality marketing shots for listings, ads and campaigns.</p>
      <Link to="/sign-up" className="button button-large">
        Get Started
      </Link>
    </section>
  );
}
