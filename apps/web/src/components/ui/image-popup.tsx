import { useState } from 'react';
import { downloadImage, generationDownloadName } from '../../lib/download.js';
import { Modal } from './modal.js';

/** The 'Generation #id' popup of the dashboard and the generations page. */
export function GenerationPopup({ id, imageUrl, onClose }: { id: string; imageUrl: string; onClose: () => void }) {
  const [error, setError] = useState<string | null>(null);
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
            onClick={() => downloadImage(imageUrl, generationDownloadName(id)).catch(() => setError('Download failed. Please try again.'))}
          >
            Download
          </button>
        </>
      }
    >
      <img className="popup-image" src={imageUrl} alt={`Generation ${id}`} />
      {error && <p className="form-error">{error}</p>}
    </Modal>
  );
}
