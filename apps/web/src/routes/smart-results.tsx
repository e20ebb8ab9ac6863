import { useState } from 'react';
import { Link, Navigate, useLocation } from 'react-router-dom';
import type { SmartResultsState } from '../features/uploads/upload-items.js';
import { downloadImage, smartResultDownloadName } from '../lib/download.js';

const ALL = 'All Styles';

export function SmartResultsPage() {
  const state = useLocation().state as SmartResultsState | null;
  const [filter, setFilter] = useState(ALL);
  const [error, setError] = useState<string | null>(null);
  if (!state?.generationId) return <Navigate to="/dashboard" replace />;

  const styles = [...new Set(state.images.map((image) => image.styleName))];
  const shown = filter === ALL ? state.images : state.images.filter((image) => image.styleName === filter);
  return (
    <div className="smart-results">
      <header className="page-header">
        <Link to="/dashboard" className="back-link">
          ← Back to Dashboard
        </Link>
        <h1>Your Product Shots</h1>
        {state.productInfo?.productTitle && <p className="lead">{state.productInfo.productTitle}</p>}
      </header>
      <div className="tabs" role="tablist" aria-label="Style filter">
        {[ALL, ...styles].map((name) => (
          <button key={name} type="button" role="tab" aria-selected={filter === name} onClick={() => setFilter(name)}>
            {name}
          </button>
        ))}
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {shown.length === 0 ? (
        <p className="empty">No images in this category</p>
      ) : (
        <ul className="result-grid">
          {shown.map((image) => (
            <li key={image.index} className="card result">
              <img src={image.url} alt={`${image.styleName} product shot`} />
              <div className="result-meta">
                <span>{image.styleName}</span>
                <button
                  type="button"
                  className="button button-small"
                  onClick={() => downloadImage(image.url, smartResultDownloadName()).catch(() => setError('Download failed. Please try again.'))}
                >
                  Download
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
