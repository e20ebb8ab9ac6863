import type { ComplianceLine, ComplianceStatus, ExportPreset, ExportPresetId } from '@prodshot/contracts';
import type { Measurements } from './measure.js';

/** Hard edges may cover at most this share of the background before it counts as text or a mark. */
export const OVERLAY_MAX_SHARE = 0.0001;
/** How far a width:height ratio may stray from the preset's and still match it. */
const ASPECT_TOLERANCE = 0.01;

const pct = (value: number, digits = 1) => `${(value * 100).toFixed(digits)}%`;
const ratio = (value: number) => {
  const known: [number, string][] = [[1, '1:1'], [4 / 3, '4:3'], [4 / 5, '4:5'], [9 / 16, '9:16'], [3 / 4, '3:4'], [16 / 9, '16:9']];
  return known.find(([r]) => Math.abs(value - r) / r <= ASPECT_TOLERANCE)?.[1] ?? value.toFixed(3);
};

/** What the background's pixels were compared with, in the overlay line's words. */
const AGAINST = {
  reference: 'not in the scene we rendered',
  'plain-background': 'against its plain colour',
  alpha: 'in its transparency',
} as const;

export interface ReportOptions {
  preset: ExportPreset;
  /** The preset the measured file was exported for, if it is an export: that export offers no fix. */
  exportedFor?: ExportPresetId | undefined;
}

/** The report's lines for a preset: every line states what was measured and what the preset asks. */
export function complianceLines(m: Measurements, { preset, exportedFor }: ReportOptions): ComplianceLine[] {
  const fix = exportedFor === preset.id ? null : { preset: preset.id, label: `Export for ${preset.label}` };
  const line = (id: ComplianceLine['id'], label: string, status: ComplianceStatus, measured: string, target: string): ComplianceLine => ({
    id, label, status, measured, target, fix: status === 'fail' ? fix : null,
  });
  const lines: ComplianceLine[] = [];
  const productNote = m.productSource === null ? 'the background is not plain and was painted by a hosted model, so the product cannot be told from it' : '';
  if (preset.minWhiteBorder !== null) {
    lines.push(line('background', 'Pure white background', m.whiteBorder >= preset.minWhiteBorder ? 'pass' : 'fail', `${pct(m.whiteBorder)} of border pixels at RGB 255`, `${pct(preset.minWhiteBorder, 0)} of border pixels at RGB 255`));
  }
  if (preset.background === 'transparent') {
    lines.push(line('background', 'Transparent background', m.transparentBorder >= 1 ? 'pass' : 'fail', `${pct(m.transparentBorder)} of border pixels transparent`, '100% of border pixels transparent'));
  }
  if (preset.minFill !== null) {
    lines.push(m.fill === null
      ? line('fill', 'Product fills the frame', 'unmeasured', productNote, `at least ${pct(preset.minFill, 0)}`)
      : line('fill', 'Product fills the frame', m.fill >= preset.minFill ? 'pass' : 'fail', `${pct(m.fill)} of the frame`, `at least ${pct(preset.minFill, 0)}`));
  }
  const longest = Math.max(m.width, m.height);
  if (preset.minLongestSide > 0) {
    lines.push(line('size', 'Image size', longest >= preset.minLongestSide ? 'pass' : 'fail', `${m.width} × ${m.height} px`, `at least ${preset.minLongestSide} px on the longest side`));
  }
  if (preset.aspects.length > 0) {
    const aspect = m.width / m.height;
    const fits = preset.aspects.some((a) => Math.abs(aspect - a) / a <= ASPECT_TOLERANCE);
    lines.push(line('aspect', 'Aspect ratio', fits ? 'pass' : 'fail', ratio(aspect), preset.aspects.map(ratio).join(' or ')));
  }
  lines.push(m.touchesEdge === null
    ? line('not-cut', 'Product not cut by the frame', 'unmeasured', productNote, 'product clear of every edge')
    : line('not-cut', 'Product not cut by the frame', m.touchesEdge ? 'fail' : 'pass', m.touchesEdge ? 'the product touches an edge' : 'clear of every edge', 'product clear of every edge'));
  lines.push(m.overlayShare === null
    ? line('no-overlay', 'No text or watermark added', 'unmeasured', 'no rendered background to compare with: the background was painted by a hosted model', 'no hard edges away from the product')
    : line('no-overlay', 'No text or watermark added', m.overlayShare <= OVERLAY_MAX_SHARE ? 'pass' : 'fail', `${pct(m.overlayShare, 3)} of the background has hard edges ${AGAINST[m.productSource ?? 'reference']}`, `at most ${pct(OVERLAY_MAX_SHARE, 3)}`));
  return lines;
}
