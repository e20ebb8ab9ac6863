import type { ExportPresetId, GenerationDto, ShotRef } from '@prodshot/contracts';
import { useState } from 'react';
import { Link, Navigate, useLocation, useParams } from 'react-router-dom';
import { BOX_SIZES, RenditionImage } from '../components/ui/rendition-image.js';
import { Spinner } from '../components/ui/spinner.js';
import { ExportDialog } from '../features/exports/export-dialog.js';
import { ResultCheck } from '../features/exports/result-check.js';
import { GenerationLoadError, GenerationNotFound } from '../features/generations/generation-not-found.js';
import { isFinished } from '../features/generations/smart-status.js';
import { useGeneration } from '../features/generations/api/get-generation.js';
import { useImage } from '../features/uploads/api/get-image.js';
import { IterateActions } from '../features/generations/iterate-actions.js';
import { OriginalDownload } from '../features/generations/original-download.js';
import { downloadShot, smartResultDownloadName } from '../lib/download.js';
import '../features/generations/smart.css';

const ALL = 'All Styles';

/** `/smart-results` as the spec reaches it: the run's id in navigation state, or else back to /dashboard. */
export function SmartResultsEntry() {
  const generationId = (useLocation().state as { generationId?: string } | null)?.generationId;
  return <Navigate to={generationId ? `/smart-results/${encodeURIComponent(generationId)}` : '/dashboard'} replace />;
}

function shotsOf(run: GenerationDto) {
  return run.styles
    .filter((s) => s.status === 'complete' && s.url)
    .map((s) => ({
      url: s.url!,
      thumbnailUrl: s.thumbnailUrl!,
      previewUrl: s.previewUrl!,
      styleName: s.name,
      index: s.index,
      files: s.files,
    }));
}

/** `/smart-results/:generationId`: the run's shots, read from the API, so a reload or a shared link shows them again. */
export function SmartResultsPage() {
  const { generationId = '' } = useParams();
  const { generation: run, notFound, error, refetch } = useGeneration(generationId);
  const [filter, setFilter] = useState(ALL);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  // The upload's title names the downloads; a deleted upload leaves them 'product-shot-…'.
  const imageId = run?.imageId ?? null;
  const upload = useImage(imageId, { retry: false });
  const productTitle = upload.data?.data.productTitle;
  const [exporting, setExporting] = useState<{ shot: ShotRef; preset?: ExportPresetId; start: boolean } | null>(null);
  if (notFound) return <GenerationNotFound />;
  if (!run) {
    if (!error) return <Spinner label="Loading your shots" fullPage />;
    return <GenerationLoadError className="narrow" onRetry={() => void refetch()} />;
  }

  const images = shotsOf(run);
  const styles = [...new Set(images.map((image) => image.styleName))];
  const shown = filter === ALL ? images : images.filter((image) => image.styleName === filter);
  return (
    <div className="smart-results">
      <header className="page-header">
        <Link to="/dashboard" className="back-link">
          ← Back to Dashboard
        </Link>
        <h1>Your Product Shots</h1>
        {run.productInfo?.productTitle && <p className="lead">{run.productInfo.productTitle}</p>}
      </header>
      {!isFinished(run) && (
        <p className="notice">
          Still generating: {images.length} of {run.styles.length || '…'} styles are ready.{' '}
          <Link to={`/smart/${encodeURIComponent(run.id)}`}>Follow the progress</Link>
        </p>
      )}
      <div className="tabs style-chips" role="tablist" aria-label="Style filter">
        {[ALL, ...styles].map((name) => (
          <button key={name} type="button" role="tab" aria-selected={filter === name} onClick={() => setFilter(name)}>
            {name}
          </button>
        ))}
      </div>
      {downloadError && (
        <p className="form-error" role="alert">
          {downloadError}
        </p>
      )}
      {shown.length === 0 ? (
        <p className="empty">No images in this category</p>
      ) : (
        <ul className="result-grid">
          {shown.map((image, position) => (
            <li key={image.index} className="card result">
              <RenditionImage
                image={image}
                sizes={BOX_SIZES.resultCard}
                alt={`${image.styleName} product shot`}
                eager={position < 2}
              />
              <div className="result-meta">
                <span>{image.styleName}</span>
                {/* Download is the card's one primary action; the rest are ghosts, and the one that spends comes last. */}
                <div className="result-actions">
                  <button
                    type="button"
                    className="button button-small"
                    onClick={() =>
                      downloadShot(
                        { generationId: run.id, index: image.index },
                        smartResultDownloadName(productTitle),
                      ).catch(() => setDownloadError('Download failed. Please try again.'))
                    }
                  >
                    Download
                  </button>
                  <OriginalDownload
                    shot={{ generationId: run.id, index: image.index }}
                    files={image.files}
                    baseName={() => smartResultDownloadName(productTitle)}
                    onError={() => setDownloadError('Download failed. Please try again.')}
                  />
                  <button
                    type="button"
                    className="button button-small button-ghost"
                    onClick={() => setExporting({ shot: { generationId: run.id, index: image.index }, start: false })}
                  >
                    Export
                  </button>
                </div>
              </div>
              <ResultCheck
                shot={{ generationId: run.id, index: image.index }}
                onFix={(preset) =>
                  setExporting({ shot: { generationId: run.id, index: image.index }, preset, start: true })
                }
              />
              <IterateActions
                shot={{ generationId: run.id, index: image.index }}
                label={`the ${image.styleName} shot`}
              />
            </li>
          ))}
        </ul>
      )}
      {exporting && (
        <ExportDialog
          shot={exporting.shot}
          {...(exporting.preset ? { preset: exporting.preset } : {})}
          start={exporting.start}
          onClose={() => setExporting(null)}
        />
      )}
    </div>
  );
}
