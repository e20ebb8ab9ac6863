import {
  EXPORT_PRESETS,
  type ComplianceLine,
  type ComplianceReportDto,
  type ExportPresetId,
} from '@prodshot/contracts';

const MARK = { pass: '✓', fail: '✗', unmeasured: '?' } as const;

/** A failing line reads as what is wrong and what is wanted ('Background is not pure white: 100% of the border should be #FFFFFF'). */
function verdict(line: ComplianceLine): string {
  return line.status === 'fail' ? `${line.label}: ${line.target}` : line.label;
}

/** What this shot shows: after 'This shot:' on a failing line, a sentence of its own on the others. */
function shown(line: ComplianceLine): string {
  return line.status === 'fail'
    ? `This shot: ${line.measured}`
    : line.measured.charAt(0).toUpperCase() + line.measured.slice(1);
}

/** A report's lines in plain words: each says what is right or wrong, what this shot shows, and a failing line its own fix. */
export function ComplianceLines({
  report,
  onFix,
}: {
  report: ComplianceReportDto;
  onFix?: ((preset: ExportPresetId) => void) | undefined;
}) {
  const label = EXPORT_PRESETS[report.preset].label;
  const open = report.lines.filter((line) => line.status !== 'pass').length;
  return (
    <div className="compliance-report" data-passed={report.passed}>
      <p
        className={report.passed ? 'compliance-summary compliance-ok' : 'compliance-summary compliance-attention'}
        role="status"
      >
        {report.passed
          ? `Passes every ${label} check`
          : `${open} of ${report.lines.length} ${label} checks need attention`}
      </p>
      {report.note && <p className="compliance-note">{report.note}</p>}
      <ul className="compliance-lines">
        {report.lines.map((line) => (
          <li key={line.id} className={`check check-${line.status}`} data-check={line.id}>
            <span className="check-mark" aria-hidden="true">
              {MARK[line.status]}
            </span>
            <div className="check-text">
              <strong>{verdict(line)}</strong>
              {line.measured && <span className="check-values">{shown(line)}</span>}
            </div>
            {line.fix && onFix && (
              <button
                type="button"
                className="button button-small button-ghost check-fix"
                onClick={() => onFix(line.fix!.preset)}
              >
                {line.fix.label}
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
