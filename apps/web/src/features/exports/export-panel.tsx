import {
  EXPORT_PRESET_IDS,
  EXPORT_PRESETS,
  type ExportDto,
  type ExportFormat,
  type ExportPresetId,
  type ShotRef,
} from '@prodshot/contracts';
import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../lib/api-client.js';
import { exportShot, getExportFile } from './api/export-shot.js';
import { saveBlob } from '../../lib/download.js';
import { useCompliance } from './api/get-compliance.js';
import { ComplianceLines } from './compliance-lines.js';
import { FORMAT_LABELS, frameOf } from './marketplace.js';
import './exports.css';

type Status =
  | { kind: 'idle' }
  | { kind: 'exporting' }
  | { kind: 'done'; file: ExportDto; savedAs: string }
  | { kind: 'error'; message: string };

/**
 * Preset, format, then download: the export is rendered from the shot's cutout and scene by the
 * server (no credit) and saved under a name whose extension matches its bytes. With `start`, the
 * export of that preset runs at once: a checklist's one-click fix.
 */
export function ExportPanel({
  shot,
  initialPreset = 'amazon',
  start = false,
}: {
  shot: ShotRef;
  initialPreset?: ExportPresetId;
  start?: boolean;
}) {
  const [preset, setPreset] = useState<ExportPresetId>(initialPreset);
  const [format, setFormat] = useState<ExportFormat>(EXPORT_PRESETS[initialPreset].defaultFormat);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const started = useRef(false);

  const choosePreset = (id: ExportPresetId) => {
    setPreset(id);
    if (!EXPORT_PRESETS[id].formats.includes(format)) setFormat(EXPORT_PRESETS[id].defaultFormat);
    setStatus({ kind: 'idle' });
  };

  const run = async (id = preset, as = format) => {
    setStatus({ kind: 'exporting' });
    try {
      const { data } = await exportShot({
        generationId: shot.generationId,
        outputIndex: shot.index,
        preset: id,
        format: as,
      });
      const savedAs = await saveBlob(await getExportFile(data.downloadPath), data.fileName);
      setStatus({ kind: 'done', file: data, savedAs });
    } catch (error) {
      setStatus({ kind: 'error', message: errorMessage(error, 'The export failed. Please try again.') });
    }
  };

  useEffect(() => {
    if (start && !started.current) {
      started.current = true;
      void run(initialPreset, EXPORT_PRESETS[initialPreset].defaultFormat);
    }
    // Once, for the preset the panel was opened with.
  }, []);

  const allowed = EXPORT_PRESETS[preset].formats;
  return (
    <div className="export-panel">
      <fieldset className="export-choices">
        <legend>Where the photo goes</legend>
        {EXPORT_PRESET_IDS.map((id) => (
          <label key={id} className="export-choice">
            <input
              type="radio"
              name="export-preset"
              value={id}
              checked={preset === id}
              onChange={() => choosePreset(id)}
            />
            <span>{EXPORT_PRESETS[id].label}</span>
            <span className="muted">{frameOf(id)}</span>
          </label>
        ))}
      </fieldset>
      <fieldset className="export-formats">
        <legend>Format</legend>
        {(['jpeg', 'png', 'webp'] as const).map((id) => (
          <label key={id} className="export-format">
            <input
              type="radio"
              name="export-format"
              value={id}
              checked={format === id}
              disabled={!allowed.includes(id)}
              onChange={() => setFormat(id)}
            />
            {FORMAT_LABELS[id]}
          </label>
        ))}
        {allowed.length < 3 && (
          <p className="muted export-hint">
            {EXPORT_PRESETS[preset].label} takes {allowed.map((id) => FORMAT_LABELS[id]).join(' or ')}.
          </p>
        )}
      </fieldset>
      <button type="button" className="button" disabled={status.kind === 'exporting'} onClick={() => void run()}>
        {status.kind === 'exporting' ? 'Exporting…' : 'Export and download'}
      </button>
      <p className="muted export-hint">Exports are free: they re-frame a shot you already have.</p>
      {status.kind === 'error' && (
        <p className="form-error" role="alert">
          {status.message}
        </p>
      )}
      {status.kind === 'done' && <ExportDone shot={shot} file={status.file} savedAs={status.savedAs} />}
    </div>
  );
}

/** What was saved, and for a marketplace preset, the checklist of the exported file itself. */
function ExportDone({ shot, file, savedAs }: { shot: ShotRef; file: ExportDto; savedAs: string }) {
  return (
    <div className="export-done">
      <p className="notice" role="status">
        Saved {savedAs} ({file.width} × {file.height} px)
      </p>
      {file.preset !== 'transparent' && <ExportReport shot={shot} preset={file.preset} format={file.format} />}
    </div>
  );
}

function ExportReport({ shot, preset, format }: { shot: ShotRef; preset: ExportPresetId; format: ExportFormat }) {
  const report = useCompliance(shot, preset, format);
  if (report.isPending) return <p className="muted">Checking the exported file…</p>;
  if (report.isError)
    return <p className="form-error">{errorMessage(report.error, 'The exported file could not be checked.')}</p>;
  return (
    <section className="compliance" aria-label="Exported file check">
      <ComplianceLines report={report.data} />
    </section>
  );
}
