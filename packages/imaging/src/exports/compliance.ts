import type { ComplianceLine, ComplianceStatus, ExportPreset, ExportPresetId } from '@prodshot/contracts';
import type { Measurements } from './measure.js';

/** Hard edges may cover at most this share of the background before it counts as text or a mark. */
export const OVERLAY_MAX_SHARE = 0.0001;
/** A tinted band at the product's foot may span at most this share of its width (a few pixels of a tinted sole or rim). */
export const TINTED_BAND_MAX_SHARE = 0.25;
/** How far a width:height ratio may stray from the preset's and still match it. */
const ASPECT_TOLERANCE = 0.01;

const pct = (value: number, digits = 1) => `${(value * 100).toFixed(digits)}%`;
/** A share as a seller reads it: whole percents, but never rounded up to 100% or down to 0%. */
const share = (value: number) => {
  if (value >= 1 || value <= 0) return pct(Math.min(1, Math.max(0, value)), 0);
  if (value < 0.01) return 'under 1%';
  return value > 0.99 ? `${Math.min(99.9, value * 100).toFixed(1)}%` : pct(value, 0);
};
const ratio = (value: number) => {
  const known: [number, string][] = [
    [1, '1:1'],
    [4 / 3, '4:3'],
    [4 / 5, '4:5'],
    [9 / 16, '9:16'],
    [3 / 4, '3:4'],
    [16 / 9, '16:9'],
  ];
  return known.find(([r]) => Math.abs(value - r) / r <= ASPECT_TOLERANCE)?.[1] ?? value.toFixed(3);
};

/** What the background's pixels were compared with, in the overlay line's words. */
const AGAINST = {
  reference: 'that are not in the scene we rendered',
  'plain-background': 'against its plain colour',
  alpha: 'in its transparency',
} as const;

/** The overlay measurement as a seller reads it: nothing found, or how much of the background carries marks. */
function overlayWords(share: number, source: Measurements['productSource']): string {
  return share === 0
    ? 'no marks found on the background'
    : `sharp marks ${AGAINST[source ?? 'reference']} cover ${pct(share, 3)} of the background`;
}

export interface ReportOptions {
  preset: ExportPreset;
  /** The preset the measured file was exported for, if it is an export: that export offers no fix. */
  exportedFor?: ExportPresetId | undefined;
}

/** A check's verdict in plain words, one per status it can take. */
interface Verdicts {
  pass: string;
  fail: string;
  unmeasured?: string;
}

/**
 * The report's lines for a preset. Each `label` is the verdict in plain words, `target` what the
 * preset asks, `measured` what the pixels show; a failing line's fix names what it repairs, so no
 * two buttons in one report read the same, though each runs the preset's export (which repairs all).
 */
export function complianceLines(m: Measurements, { preset, exportedFor }: ReportOptions): ComplianceLine[] {
  const line = (
    id: ComplianceLine['id'],
    says: Verdicts,
    status: ComplianceStatus,
    measured: string,
    target: string,
    fixLabel: string,
  ): ComplianceLine => ({
    id,
    label: says[status] ?? says.fail,
    status,
    measured,
    target,
    fix: status === 'fail' && exportedFor !== preset.id ? { preset: preset.id, label: fixLabel } : null,
  });
  const lines: ComplianceLine[] = [];
  const productNote =
    m.productSource === null ? 'the background is a painted scene, so the product cannot be told apart from it' : '';
  if (preset.minWhiteBorder !== null) {
    const says = { pass: 'Background is pure white', fail: 'Background is not pure white' };
    lines.push(
      line(
        'background',
        says,
        m.whiteBorder >= preset.minWhiteBorder ? 'pass' : 'fail',
        `${share(m.whiteBorder)} of the border is #FFFFFF`,
        `${pct(preset.minWhiteBorder, 0)} of the border should be #FFFFFF`,
        'Make the background white',
      ),
    );
  }
  if (preset.background === 'transparent') {
    const says = { pass: 'Background is transparent', fail: 'Background is not transparent' };
    lines.push(
      line(
        'background',
        says,
        m.transparentBorder >= 1 ? 'pass' : 'fail',
        `${share(m.transparentBorder)} of the border is transparent`,
        'the whole border should be transparent',
        'Make the background transparent',
      ),
    );
  }
  if (preset.minFill !== null) {
    const says = {
      pass: 'Product fills the frame',
      fail: 'Product is too small in the frame',
      unmeasured: 'Cannot tell how much of the frame the product fills',
    };
    const target = `the product should fill at least ${pct(preset.minFill, 0)} of the frame`;
    lines.push(
      m.fill === null
        ? line('fill', says, 'unmeasured', productNote, target, '')
        : line(
            'fill',
            says,
            m.fill >= preset.minFill ? 'pass' : 'fail',
            `the product fills ${share(m.fill)}`,
            target,
            'Enlarge the product',
          ),
    );
  }
  const longest = Math.max(m.width, m.height);
  if (preset.minLongestSide > 0) {
    const says = { pass: 'Image is large enough', fail: 'Image is too small' };
    lines.push(
      line(
        'size',
        says,
        longest >= preset.minLongestSide ? 'pass' : 'fail',
        `${m.width} × ${m.height} px`,
        `the longest side should be at least ${preset.minLongestSide} px`,
        `Enlarge to ${preset.minLongestSide} px`,
      ),
    );
  }
  if (preset.aspects.length > 0) {
    const aspect = m.width / m.height;
    const fits = preset.aspects.some((a) => Math.abs(aspect - a) / a <= ASPECT_TOLERANCE);
    const wanted = preset.aspects.map(ratio);
    lines.push(
      line(
        'aspect',
        { pass: 'Image shape fits', fail: 'Image shape does not fit' },
        fits ? 'pass' : 'fail',
        `the image is ${ratio(aspect)}`,
        `width to height should be ${wanted.join(' or ')}`,
        `Crop to ${wanted[0]!}`,
      ),
    );
  }
  const whole = {
    pass: 'The whole product is in the frame',
    fail: 'The product is cut off at an edge',
    unmeasured: 'Cannot tell whether the product is cut off',
  };
  const inside = 'the whole product should sit inside the frame';
  lines.push(
    m.touchesEdge === null
      ? line('not-cut', whole, 'unmeasured', productNote, inside, '')
      : line(
          'not-cut',
          whole,
          m.touchesEdge ? 'fail' : 'pass',
          m.touchesEdge ? 'the product touches an edge' : 'there is space on every side',
          inside,
          'Add space around the product',
        ),
  );
  const marks = {
    pass: 'No text or watermark',
    fail: 'Text or a watermark may be on the background',
    unmeasured: 'Cannot check for text or watermarks',
  };
  const clean = 'the background should carry no text, logo or watermark';
  lines.push(
    m.overlayShare === null
      ? line(
          'no-overlay',
          marks,
          'unmeasured',
          'the background was painted by a hosted model, so there is nothing to compare it with',
          clean,
          '',
        )
      : line(
          'no-overlay',
          marks,
          m.overlayShare <= OVERLAY_MAX_SHARE ? 'pass' : 'fail',
          overlayWords(m.overlayShare, m.productSource),
          clean,
          'Export a clean copy',
        ),
  );
  if (preset.minWhiteBorder !== null) {
    const band = {
      pass: 'No tinted shadow under the product',
      fail: 'A tinted shadow is under the product',
      unmeasured: 'Cannot check for a tinted shadow under the product',
    };
    const neutral =
      'any shadow under the product should be neutral grey, not tinted by the floor it was photographed on';
    // No fix button: an export starts from the same cutout, so it would carry the same band.
    lines.push(
      m.tintedBand === null
        ? line(
            'no-tinted-band',
            band,
            'unmeasured',
            "the background is not white, so the product's foot cannot be told from the scene",
            neutral,
            '',
          )
        : {
            ...line(
              'no-tinted-band',
              band,
              m.tintedBand <= TINTED_BAND_MAX_SHARE ? 'pass' : 'fail',
              m.tintedBand === 0
                ? 'no tinted band found under the product'
                : `a tinted band spans ${share(m.tintedBand)} of the product's width at its foot`,
              neutral,
              '',
            ),
            fix: null,
          },
    );
  }
  return lines;
}

/**
 * Said above a main-image report for a shot set in a scene: lifestyle shots serve as a listing's
 * secondary images, so its failing background and fill lines are expected rather than a defect.
 */
export function complianceNote(m: Measurements, preset: ExportPreset): string | null {
  const scene = m.productSource === 'reference' || m.productSource === null;
  if (preset.minWhiteBorder === null || !scene || m.whiteBorder >= preset.minWhiteBorder) return null;
  return `Lifestyle shots like this one are for secondary images: the ${preset.label} shows the product alone on pure white. Use this shot after the main image, or export a white version for the main image.`;
}
