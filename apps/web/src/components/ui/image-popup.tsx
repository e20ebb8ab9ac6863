import type { GenerationListItem } from '@prodshot/contracts';
import { useState } from 'react';
import { IterateActions } from '../../features/iterate/iterate-actions.js';
import { downloadShot, generationDownloadName } from '../../lib/download.js';
import { Modal } from './modal.js';
import { BOX_SIZES, RenditionImage } from './rendition-image.js';

/** The 'Generation #id' popup of the dashboard and the generations page: it shows the preview, Download fetches the full shot. */
export function GenerationPopup({ generation, onClose }: { generation: GenerationListItem; onClose: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const { id } = generation;
  return (
    <Modal
      title={`Generation #${id}`}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="button button-ghost" onClick={onClose}>
            Close
          </button>
          <button
            type="button"
            className="button"
            onClick={() => downloadShot(generation, generationDownloadName(id)).catch(() => setError('Download failed. Please try again.'))}
          >
            Download
          </button>
        </>
      }
    >
      <RenditionImage className="popup-image" image={generation} sizes={BOX_SIZES.popup} alt={`Generation ${id}`} eager />
      <IterateActions shot={generation} label="this shot" />
      {error && <p className="form-error">{error}</p>}
    </Modal>
  );
}
