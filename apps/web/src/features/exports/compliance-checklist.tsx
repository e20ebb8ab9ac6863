import type { ExportPresetId, ShotRef } from '@prodshot/contracts';
import { useId } from 'react';
import { errorMessage } from '../../lib/api-client.js';
import { useCompliance } from './api/get-compliance.js';
import { ComplianceLines } from './compliance-lines.js';
import { MARKETPLACES, useMarketplace } from './marketplace.js';
import './exports.css';

/** The checklist beside a result for the seller's marketplace; a failing line's button exports the fix. */
export function ComplianceChecklist({ shot, onFix }: { shot: ShotRef; onFix: (preset: ExportPresetId) => void }) {
  const [marketplace, setMarketplace] = useMarketplace();
  const report = useCompliance(shot, marketplace);
  const selectId = useId();
  return (
    <section className="compliance" aria-label="Marketplace check">
      <div className="compliance-head">
        <label htmlFor={selectId}>Check for</label>
        <select
          id={selectId}
          value={marketplace}
          onChange={(event) => setMarketplace(event.target.value as ExportPresetId)}
        >
          {MARKETPLACES.map((preset) => (
            <option key={preset.id} value={preset.id}>
              {preset.label}
            </option>
          ))}
        </select>
      </div>
      {report.isPending && <p className="muted">Measuring this shot…</p>}
      {report.isError && (
        <p className="form-error">
          {errorMessage(report.error, 'The check could not be made.')}{' '}
          <button type="button" className="link-button" onClick={() => void report.refetch()}>
            Try again
          </button>
        </p>
      )}
      {report.data && <ComplianceLines report={report.data} onFix={onFix} />}
    </section>
  );
}
