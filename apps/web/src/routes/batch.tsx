import { Link, useLocation, useParams } from 'react-router-dom';
import { NotFoundNotice } from '../components/ui/not-found-notice.js';
import { Spinner } from '../components/ui/spinner.js';
import { BatchDraft } from '../features/batches/batch-draft.js';
import type { DraftItem } from '../features/batches/use-batch-uploads.js';
import { CoachLine } from '../features/coach/coach-notice.js';
import { coachWarnings } from '../features/coach/coach-warnings.js';
import { useSubject } from '../features/subject/api/get-subject.js';
import { OutlineCheck } from '../features/subject/outline-check.js';
import { TapToPick } from '../features/subject/tap-to-pick.js';
import type { BatchDraftState } from '../features/batches/batch-files.js';
import { BatchProgress } from '../features/batches/batch-progress.js';
import { useBatch } from '../features/batches/api/get-batch.js';
import '../features/batches/batches.css';

/** `/batches/new`: the photos the dashboard handed over, before anything is charged. */
export function NewBatchPage() {
  const files = (useLocation().state as BatchDraftState | null)?.files ?? [];
  return (
    <section className="batch-page">
      <header className="page-header">
        <h1>Batch of {files.length} photos</h1>
        <p className="lead">
          Name each product if you like, pick one look for all, and see the cost before anything starts.
        </p>
      </header>
      {files.length === 0 ? (
        <p className="empty">
          No photos here: a reload forgets photos that were not started.{' '}
          <Link to="/dashboard">Pick them again on the dashboard.</Link>
        </p>
      ) : (
        <BatchDraft files={files} hintsFor={(item) => <PhotoTips item={item} />} />
      )}
    </section>
  );
}

/**
 * Under one photo of the draft: the outline Prodshot took for its product, and the photo coach's
 * tips in one line (pixel checks at once, product checks once found). A photo the engine saw no
 * product in, though it could read it, is shown large enough to tap: a tap where the product is
 * overturns the refusal, as on the smart page.
 */
function PhotoTips({ item }: { item: DraftItem }) {
  const { subject, phase } = useSubject(item.imageId);
  return (
    <>
      {phase === 'failed' && subject?.tapMayFind && (
        <TapToPick
          src={item.previewUrl}
          alt={`${item.file.name}: tap your product`}
          subject={subject}
          phase={phase}
          focus={null}
          onFocus={() => {}}
          frameClassName="batch-find-frame"
          imageClassName="batch-find-image"
        />
      )}
      <OutlineCheck subject={subject} />
      <CoachLine warnings={coachWarnings(subject, item)} />
    </>
  );
}

/** `/batches/:batchId`: a started batch, resumable by its URL. */
export function BatchPage() {
  const { batchId = '' } = useParams();
  const { batch, notFound, error, refetch } = useBatch(batchId);
  if (notFound) {
    return (
      <NotFoundNotice
        title="Batch not found"
        message="This batch does not exist, or it belongs to another account."
        next={{ to: '/dashboard', label: 'Start a new batch' }}
      />
    );
  }
  return (
    <section className="batch-page">
      <header className="page-header">
        <h1>{batch ? `Batch of ${batch.items.length} photos` : 'Your batch'}</h1>
        {batch && <p className="lead">{batch.credits} credits reserved. Failed shots give their credit back.</p>}
      </header>
      {batch ? (
        <BatchProgress batch={batch} renew={async () => (await refetch()).data?.data.archiveUrl ?? null} />
      ) : error ? (
        <div className="form-error" role="alert">
          <p>Failed to load this batch. Please try again.</p>
          <button type="button" className="button button-small" onClick={() => void refetch()}>
            Try Again
          </button>
        </div>
      ) : (
        <Spinner label="Loading your batch" />
      )}
    </section>
  );
}
