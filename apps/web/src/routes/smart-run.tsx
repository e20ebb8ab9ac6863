import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { Spinner } from '../components/ui/spinner.js';
import { GenerationNotFound } from '../features/generations/generation-not-found.js';
import { SmartProgress } from '../features/generations/smart-progress.js';
import { isFinished } from '../features/generations/smart-status.js';
import { useGeneration } from '../features/generations/use-generation.js';
import { api } from '../lib/api-client.js';
import { queryKeys } from '../lib/query-keys.js';

/** Spec §4: results show this long after the last style lands. */
const RESULTS_DELAY_MS = 500;

/** `/smart/:generationId`: a smart run's progress, read from the API, so a reload resumes it and starts nothing. */
export function SmartRunPage() {
  const { generationId = '' } = useParams();
  const navigate = useNavigate();
  const { generation: run, settled, notFound, error, refetch } = useGeneration(generationId);
  const imageId = run?.imageId ?? null;
  const image = useQuery({
    queryKey: queryKeys.image(imageId ?? ''),
    queryFn: () => api.image(imageId!),
    enabled: imageId !== null,
    staleTime: Infinity,
  });
  const [showResults, setShowResults] = useState(false);

  useEffect(() => {
    if (!settled) return;
    const timer = setTimeout(() => setShowResults(true), RESULTS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [settled]);

  if (notFound) return <GenerationNotFound />;
  const completed = run?.styles.filter((s) => s.status === 'complete').length ?? 0;
  const previewUrl = image.data?.data.originalImage.url;

  return (
    <div className="smart narrow-wide">
      <header className="page-header center">
        <h1>Smart Product Generator</h1>
        <p className="lead">We analyse your product, design styles for it and generate each one.</p>
      </header>
      <div className="smart-grid">
        <section className="card">
          {previewUrl ? <img className="selected-preview" src={previewUrl} alt="Your product" /> : image.isPending && imageId && <Spinner label="Loading your photo" />}
          {isFinished(run) && (
            <Link to="/smart-upload" className="link-button">
              Choose another image
            </Link>
          )}
        </section>
        <section className="card progress-card" aria-live="polite">
          {!run && error ? (
            <div className="form-error" role="alert">
              <p>Failed to load this generation. Please try again.</p>
              <button type="button" className="button button-small" onClick={() => void refetch()}>
                Try Again
              </button>
            </div>
          ) : (
            <SmartProgress run={run} />
          )}
          {showResults && completed > 0 && (
            <button type="button" className="button button-block button-large" onClick={() => navigate(`/smart-results/${encodeURIComponent(generationId)}`)}>
              View All Results
            </button>
          )}
        </section>
      </div>
    </div>
  );
}
