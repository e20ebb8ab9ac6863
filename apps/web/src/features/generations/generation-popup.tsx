import type { ExportPresetId, GenerationListItem } from '@prodshot/contracts';
import { useState } from 'react';
import { Modal } from '../../components/ui/modal.js';
import { BOX_SIZES, RenditionImage } from '../../components/ui/rendition-image.js';
import { downloadShot, generationDownloadName } from '../../lib/download.js';
import { ComplianceChecklist, ExportPanel } from '../exports/index.js';
import { IterateActions } from './iterate-actions.js';

/**
 * The 'Generation #id' popup of the dashboard and the generations page: it shows the preview and
 * the marketplace checklist, Download fetches the full shot, Export (or a checklist's fix) turns
 * the popup into the export dialog.
 */
export function GenerationPopup({ generation, onClose }: { generation: GenerationListItem; onClose: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [exporting, setExporting] = useState<{ preset?: ExportPresetId; start: boolean } | null>(null);
  const { id } = generation;
  return (
    <Modal
      title={exporting ? 'Export for a marketplace' : `Generation #${id}`}
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
            <button
              type="button"
              className="button"
              onClick={() => downloadShot(generation, generationDownloadName(id)).catch(() => setError('Download failed. Please try again.'))}
            >
              Download
            </button>
          </>
        )
      }
    >
      {exporting ? (
        <ExportPanel shot={generation} {...(exporting.preset ? { initialPreset: exporting.preset } : {})} start={exporting.start} />
      ) : (
        <>
          <RenditionImage className="popup-image" image={generation} sizes={BOX_SIZES.popup} alt={`Generation ${id}`} eager />
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
