import type { ExportPresetId, GenerationListItem } from '@prodshot/contracts';
import { useState } from 'react';
import { Modal } from '../../components/ui/modal.js';
import { BOX_SIZES, RenditionImage } from '../../components/ui/rendition-image.js';
import { downloadShot, generationDownloadName } from '../../lib/download.js';
import { ComplianceChecklist, ExportPanel } from '../exports/index.js';
import { IterateActions } from './iterate-actions.js';
import { OriginalDownload } from './original-download.js';

const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

/** 'Marble · 27 Nov 2026': what a seller tells their shots apart by (docs/decisions.md), not the spec's 'Generation #id'. */
export function popupTitle(generation: Pick<GenerationListItem, 'name' | 'createdAt'>): string {
  return `${generation.name} · ${DAY.format(new Date(generation.createdAt))}`;
}

/**
 * A shot's popup on the dashboard and the generations page, headed by its style and date: it
 * shows the preview and the marketplace checklist, Download fetches the full-size JPEG (the
 * original PNG beside it), Export (or a checklist's fix) turns the popup into the export dialog.
 */
export function GenerationPopup({ generation, onClose }: { generation: GenerationListItem; onClose: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [exporting, setExporting] = useState<{ preset?: ExportPresetId; start: boolean } | null>(null);
  const { id } = generation;
  const failed = () => setError('Download failed. Please try again.');
  return (
    <Modal
      title={exporting ? 'Export for a marketplace' : popupTitle(generation)}
      onClose={onClose}
      footer={
        exporting ? (
          <button type="button" className="button button-ghost" onClick={() => setExporting(null)}>
            Back
          </button>
        ) : (
          <>
            <button type="button" className="button button-ghost" onClick={onClose}>
              Close
            </button>
            <button type="button" className="button button-ghost" onClick={() => setExporting({ start: false })}>
              Export
            </button>
            {/* The two downloads wrap together, so Download never sits alone on a line. */}
            <span className="download-pair">
              <OriginalDownload
                shot={generation}
                files={generation.files}
                baseName={() => generationDownloadName(id)}
                onError={failed}
                small={false}
              />
              <button
                type="button"
                className="button"
                onClick={() => downloadShot(generation, generationDownloadName(id)).catch(failed)}
              >
                Download
              </button>
            </span>
          </>
        )
      }
    >
      {exporting ? (
        <ExportPanel
          shot={generation}
          {...(exporting.preset ? { initialPreset: exporting.preset } : {})}
          start={exporting.start}
        />
      ) : (
        <>
          <RenditionImage
            className="popup-image"
            image={generation}
            sizes={BOX_SIZES.popup}
            alt={`${generation.name} shot`}
            eager
          />
          <IterateActions shot={generation} label="this shot" />
          {error && <p className="form-error">{error}</p>}
          <div className="popup-check">
            <ComplianceChecklist shot={generation} onFix={(preset) => setExporting({ preset, start: true })} />
          </div>
        </>
      )}
    </Modal>
  );
}
