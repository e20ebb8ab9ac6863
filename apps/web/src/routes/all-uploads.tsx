import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { PageFetchStatus } from '../components/ui/page-fetch-status.js';
import { Pagination } from '../components/ui/pagination.js';
import { Spinner } from '../components/ui/spinner.js';
import { useImagePages } from '../features/uploads/api/get-images.js';
import { DeleteUploadDialog, useDeleteUpload } from '../features/uploads/delete-upload.js';
import { FallbackImage } from '../features/uploads/fallback-image.js';
import { toUploadItem } from '../features/uploads/upload-items.js';
import { countLabel } from '../lib/count-label.js';
import { formatDate } from '../lib/format.js';
import { UploadFirstPhoto } from '../components/ui/empty-state.js';

const LOAD_FAILED = 'Failed to load uploads. Please try again.';

export function AllUploadsPage() {
  const list = useImagePages();
  const images = list.query;
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const removal = useDeleteUpload(() => setError('Failed to delete image. Please try again.'));

  const shown = list.visible.map(toUploadItem);

  return (
    <div className="grid-page">
      <header className="page-header">
        <Link to="/dashboard" className="back-link">
          ← Back to Dashboard
        </Link>
        <h1>All Uploads</h1>
        <p className="muted">{images.data ? countLabel(list.total) : ''}</p>
      </header>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {images.isPending ? (
        <Spinner label="Loading uploads" />
      ) : images.isError && list.items.length === 0 ? (
        <div className="error-state">
          <p className="form-error">{LOAD_FAILED}</p>
          <button type="button" className="button" onClick={() => window.location.reload()}>
            Try Again
          </button>
        </div>
      ) : list.items.length === 0 ? (
        <UploadFirstPhoto message="No uploads yet" />
      ) : (
        <>
          <ul className="image-grid" data-testid="image-grid">
            {shown.map((item) => (
              <li key={item.imageId} className="card tile">
                <button
                  type="button"
                  className="tile-image"
                  onClick={() =>
                    navigate('/dashboard', {
                      state: {
                        selectedImage: {
                          id: item.id,
                          imageId: item.imageId,
                          fileId: item.fileId,
                          name: item.name,
                          createdAt: item.createdAt,
                        },
                      },
                    })
                  }
                  aria-label={`Use ${item.name}`}
                >
                  <FallbackImage id={item.id} image={item} alt={item.name} />
                </button>
                <div className="tile-meta">
                  <span className="tile-name" title={item.name}>
                    {item.name}
                  </span>
                  <span className="muted small tile-date">{formatDate(item.createdAt)}</span>
                </div>
                <button type="button" className="link-button danger small" onClick={() => removal.ask(item)}>
                  Delete
                </button>
              </li>
            ))}
          </ul>
          <PageFetchStatus
            loading={list.loadingPage}
            failed={list.pageFailed}
            label="Loading uploads"
            failedMessage={LOAD_FAILED}
            onRetry={list.retry}
          />
          <Pagination page={list.page} pages={list.pages} onPage={list.setPage} />
        </>
      )}
      <DeleteUploadDialog flow={removal} />
    </div>
  );
}
