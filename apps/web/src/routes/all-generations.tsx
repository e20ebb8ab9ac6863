import type { GenerationListItem } from '@prodshot/contracts';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { PageFetchStatus } from '../components/ui/page-fetch-status.js';
import { Pagination } from '../components/ui/pagination.js';
import { BOX_SIZES, RenditionImage } from '../components/ui/rendition-image.js';
import { Spinner } from '../components/ui/spinner.js';
import { UploadFirstPhoto } from '../components/ui/empty-state.js';
import { useGenerationPages } from '../features/generations/api/get-recent-generations.js';
import { GenerationPopup } from '../features/generations/generation-popup.js';
import { countLabel } from '../lib/count-label.js';
import { formatDate } from '../lib/format.js';

const LOAD_FAILED = 'Failed to load generations. Please try again.';

export function AllGenerationsPage() {
  const list = useGenerationPages();
  const { query: generations, items } = list;
  const [popup, setPopup] = useState<GenerationListItem | null>(null);

  return (
    <div className="grid-page">
      <header className="page-header">
        <Link to="/dashboard" className="back-link">
          ← Back to Dashboard
        </Link>
        <h1>All Generations</h1>
        <p className="muted">{generations.data ? countLabel(list.total) : ''}</p>
      </header>
      {generations.isPending ? (
        <Spinner label="Loading generations" />
      ) : generations.isError && items.length === 0 ? (
        <div className="error-state">
          <p className="form-error">{LOAD_FAILED}</p>
          <button type="button" className="button" onClick={() => window.location.reload()}>
            Try Again
          </button>
        </div>
      ) : items.length === 0 ? (
        <UploadFirstPhoto message="No generations yet" />
      ) : (
        <>
          <ul className="image-grid" data-testid="image-grid">
            {list.visible.map((item) => (
              <li key={item.id} className="card tile">
                <button
                  type="button"
                  className="tile-image"
                  onClick={() => setPopup(item)}
                  aria-label={`Open generation ${item.id}`}
                >
                  <RenditionImage image={item} sizes={BOX_SIZES.gridTile} alt={`Generation ${item.id}`} />
                </button>
                <div className="tile-meta">
                  <span className="muted small tile-date">{formatDate(item.createdAt)}</span>
                </div>
              </li>
            ))}
          </ul>
          <PageFetchStatus
            loading={list.loadingPage}
            failed={list.pageFailed}
            label="Loading generations"
            failedMessage={LOAD_FAILED}
            onRetry={list.retry}
          />
          <Pagination page={list.page} pages={list.pages} onPage={list.setPage} />
        </>
      )}
      {popup && <GenerationPopup generation={popup} onClose={() => setPopup(null)} />}
    </div>
  );
}
