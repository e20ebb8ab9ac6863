import { EXPORT_PRESETS, type ComplianceReportDto, type ExportPresetId } from '@prodshot/contracts';

const MARK = { pass: '✓', fail: '✗', unmeasured: '?' } as const;
const SAYS = { pass: 'Pass', fail: 'Fail', unmeasured: 'Not measurable' } as const;

/** A report's lines: each says pass or fail, what was measured and the target, and a failing line its fix. */
export function ComplianceLines({ report, onFix }: { report: ComplianceReportDto; onFix?: ((preset: ExportPresetId) => void) | undefined }) {
  const label = EXPORT_PRESETS[report.preset].label;
  const open = report.lines.filter((line) => line.status !== 'pass').length;
  return (
    <div className="compliance-report" data-passed={report.passed}>
      <p className={report.passed ? 'compliance-summary compliance-ok' : 'compliance-summary compliance-attention'} role="status">
        {report.passed ? `Passes every ${label} check` : `${open} of ${report.lines.length} ${label} checks need attention`}
      </p>
      <ul className="compliance-lines">
        {report.lines.map((line) => (
          <li key={line.id} className={`check check-${line.status}`} data-check={line.id}>
            <span className="check-mark" aria-hidden="true">
              {MARK[line.status]}
            </span>
            <div className="check-text">
              <strong>{line.label}</strong> <span className="check-status">{SAYS[line.status]}</span>
              <span className="check-values">
                {line.measured} · target: {line.target}
              </span>
            </div>
            {line.fix && onFix && (
              <button type="button" className="button button-small check-fix" onClick={() => onFix(line.fix!.preset)}>
                {line.fix.label}
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
