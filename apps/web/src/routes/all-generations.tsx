import type { RecentShotDto } from '@prodshot/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { GenerationPopup } from '../components/ui/image-popup.js';
import { Pagination } from '../components/ui/pagination.js';
import { BOX_SIZES, RenditionImage } from '../components/ui/rendition-image.js';
import { Spinner } from '../components/ui/spinner.js';
import { api } from '../lib/api-client.js';
import { formatDate } from '../lib/format.js';
import { pageCount, pageSlice } from '../lib/pagination.js';
import { queryKeys } from '../lib/query-keys.js';
import { UploadFirstPhoto } from '../components/ui/empty-state.js';

/** The API's cap on recent generations. */
const ALL_LIMIT = 100;

export function AllGenerationsPage() {
  const generations = useQuery({ queryKey: queryKeys.recentGenerations(ALL_LIMIT), queryFn: () => api.recentGenerations(ALL_LIMIT) });
  const [page, setPage] = useState(1);
  const [popup, setPopup] = useState<RecentShotDto | null>(null);
  const items = generations.data?.data ?? [];
  const pages = pageCount(items.length);
  const current = Math.min(page, pages);

  return (
    <div className="grid-page">
      <header className="page-header">
        <Link to="/dashboard" className="back-link">
          ← Back to Dashboard
        </Link>
        <h1>All Generations</h1>
        <p className="muted">{generations.isSuccess ? `${items.length} ${items.length === 1 ? 'image' : 'images'}` : ''}</p>
      </header>
      {generations.isPending ? (
        <Spinner label="Loading generations" />
      ) : generations.isError ? (
        <div className="error-state">
          <p className="form-error">Failed to load generations. Please try again.</p>
          <button type="button" className="button" onClick={() => window.location.reload()}>
            Try Again
          </button>
        </div>
      ) : items.length === 0 ? (
        <UploadFirstPhoto message="No generations yet" />
      ) : (
        <>
          <ul className="image-grid" data-testid="image-grid">
            {pageSlice(items, current).map((item) => (
              <li key={item.id} className="card tile">
                <button type="button" className="tile-image" onClick={() => setPopup(item)} aria-label={`Open generation ${item.id}`}>
                  <RenditionImage image={item} sizes={BOX_SIZES.gridTile} alt={`Generation ${item.id}`} />
                </button>
                <div className="tile-meta">
                  <span className="muted small tile-date">{formatDate(item.createdAt)}</span>
                </div>
              </li>
            ))}
          </ul>
          <Pagination page={current} pages={pages} onPage={setPage} />
        </>
      )}
      {popup && <GenerationPopup generation={popup} onClose={() => setPopup(null)} />}
    </div>
  );
}
