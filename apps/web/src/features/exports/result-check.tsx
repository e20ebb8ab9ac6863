import type { ExportPresetId, ShotRef } from '@prodshot/contracts';
import { useState } from 'react';
import { ComplianceChecklist } from './compliance-checklist.js';

/** A result card's checklist, measured when the seller opens it: a page of results does not measure every shot unasked. */
export function ResultCheck({ shot, onFix }: { shot: ShotRef; onFix: (preset: ExportPresetId) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="result-check" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Marketplace check</summary>
      {open && <ComplianceChecklist shot={shot} onFix={onFix} />}
    </details>
  );
}
