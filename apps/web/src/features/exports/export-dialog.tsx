import type { ExportPresetId, ShotRef } from '@prodshot/contracts';
import { Modal } from '../../components/ui/modal.js';
import { ExportPanel } from './export-panel.js';

/** The export dialog of a result: opened by its Export button, or by a checklist's fix (`start`). */
export function ExportDialog({
  shot,
  preset,
  start,
  onClose,
}: {
  shot: ShotRef;
  preset?: ExportPresetId;
  start?: boolean;
  onClose: () => void;
}) {
  return (
    <Modal
      title="Export for a marketplace"
      onClose={onClose}
      footer={
        <button type="button" className="button button-ghost" onClick={onClose}>
          Close
        </button>
      }
    >
      <ExportPanel shot={shot} {...(preset ? { initialPreset: preset } : {})} start={start ?? false} />
    </Modal>
  );
}
