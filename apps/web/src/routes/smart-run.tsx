import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { BOX_SIZES, RenditionImage } from '../components/ui/rendition-image.js';
import { Spinner } from '../components/ui/spinner.js';
import { GenerationLoadError, GenerationNotFound } from '../features/generations/generation-not-found.js';
import { SmartProgress } from '../features/generations/smart-progress.js';
import { isFinished } from '../features/generations/smart-status.js';
import { useGeneration } from '../features/generations/api/get-generation.js';
import { useImage } from '../features/uploads/api/get-image.js';
import { CoachNotice } from '../features/coach/coach-notice.js';
import { coachWarnings } from '../features/coach/coach-warnings.js';
import { useSubject } from '../features/subject/api/get-subject.js';
import { SmartHeader } from '../features/generations/smart-header.js';
import { IterateActions, RetryStyle } from '../features/generations/iterate-actions.js';
import '../features/uploads/uploads.css';
import '../features/generations/smart.css';

/** docs/product-spec.md §4: results show this long after the last style lands. */
const RESULTS_DELAY_MS = 500;

/** `/smart/:generationId`: a smart run's progress, read from the API, so a reload resumes it and starts nothing. */
export function SmartRunPage() {
  const { generationId = '' } = useParams();
  const navigate = useNavigate();
  const { generation: run, settled, notFound, error, refetch } = useGeneration(generationId);
  const imageId = run?.imageId ?? null;
  const image = useImage(imageId, { staleTime: Infinity });
  // The coach's tips never hold a run back: they stay here, by the photo they are about.
  const { subject } = useSubject(imageId);
  const [showResults, setShowResults] = useState(false);

  useEffect(() => {
    if (!settled) return;
    const timer = setTimeout(() => setShowResults(true), RESULTS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [settled]);

  if (notFound) return <GenerationNotFound />;
  const completed = run?.styles.filter((s) => s.status === 'complete').length ?? 0;
  const total = run?.styles.length ?? 0;
  const photo = image.data?.data.originalImage;
  const tips = coachWarnings(subject, image.data?.data);

  return (
    <div className="smart narrow-wide">
      <SmartHeader />
      {/* Progress comes first in the page (and, on a phone, on the screen); the photo sits beside it on a desktop. */}
      <div className="smart-grid smart-run">
        <section className="card progress-card" aria-live="polite">
          {!run && error ? (
            <GenerationLoadError onRetry={() => void refetch()} />
          ) : (
            <SmartProgress
              run={run}
              summary={
                showResults && completed > 0 ? (
                  <button
                    type="button"
                    className="button button-block button-large"
                    onClick={() => navigate(`/smart-results/${encodeURIComponent(generationId)}`)}
                  >
                    View All Results
                  </button>
                ) : (
                  total > 0 && <p className="muted">{`${completed} of ${total} styles ready`}</p>
                )
              }
              actions={(style) => {
                const shot = { generationId, index: style.index };
                if (style.status === 'failed') return <RetryStyle shot={shot} label={`the ${style.name} style`} />;
                return style.status === 'complete' ? (
                  <IterateActions shot={shot} label={`the ${style.name} shot`} />
                ) : null;
              }}
            />
          )}
          {isFinished(run) && (
            <Link to="/smart-upload" className="link-button">
              Choose another image
            </Link>
          )}
        </section>
        <section className="card smart-photo" aria-label="Your photo">
          {/* The box keeps its size while the photo loads: nothing around it moves when it lands. */}
          <div className="smart-photo-box">
            {photo ? (
              <RenditionImage
                className="selected-preview"
                image={photo}
                sizes={BOX_SIZES.smartPhoto}
                alt="Your product"
                eager
              />
            ) : (
              !image.isError && <Spinner label="Loading your photo" />
            )}
          </div>
        </section>
        {tips.length > 0 && (
          <div className={isFinished(run) ? 'smart-tips' : 'smart-tips smart-tips-during-run'}>
            <CoachNotice warnings={tips} afterStart />
          </div>
        )}
      </div>
    </div>
  );
}
