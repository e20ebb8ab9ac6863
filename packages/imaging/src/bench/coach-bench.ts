import { withProductWarnings, type CoachCode } from '@prodshot/contracts';
import { pixelWarnings, productWarnings } from '../coach/checks.js';
import { measurePhoto, readProductMask } from '../coach/read-photo.js';
import { isImagingError } from '../errors.js';
import { normaliseInput } from '../input/normalise-input.js';
import type { ImageModel } from '../types.js';
import { coachCases, PIXEL_VARIANTS, PRODUCT_VARIANTS, type CoachCase, type CoachVariant } from './coach-set.js';

/** The plan size the bench coaches for: the HD plans' 2048 px shots. */
const BENCH_SHOT_SIZE = 2048;

export interface CoachRow {
  id: string;
  origin: CoachCase['origin'];
  variant: CoachVariant;
  expected: CoachCode | null;
  warned: CoachCode[];
  /** The pixel checks' time (measure + rules), as the API spends it after its re-encode. */
  ms: number;
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]! : 0;
}

/** Pixel checks on a photo as the API stores it; product checks with the engine's own finding. */
async function coach(model: ImageModel | null, c: CoachCase): Promise<CoachRow> {
  const stored = await normaliseInput(c.photo);
  const started = performance.now();
  const stats = await measurePhoto(stored.buffer);
  let warned = pixelWarnings(stats, BENCH_SHOT_SIZE);
  const ms = performance.now() - started;
  if (model) {
    try {
      const { subject, width } = await model.findProduct(stored.buffer);
      const mask = await readProductMask(subject.maskPng);
      warned = withProductWarnings(warned, productWarnings({ mask, photoWidth: width, candidates: subject.candidates.length, needsFocus: subject.needsFocus }, BENCH_SHOT_SIZE));
    } catch (error) {
      if (!isImagingError(error)) throw error;
    }
  }
  return { id: c.id, origin: c.origin, variant: c.variant, expected: c.expected, warned: warned.map((w) => w.code), ms };
}

/**
 * Pixel checks score every variant; a clean photo's false alarm is a blur or exposure warning (the
 * checks the issue holds to). Product checks need the engine's cutout (~1.5 s a photo): they run
 * on the clean, cut-off and far photos only, and a clean photo's false alarm there is a cut or
 * too-small warning. The size for the plan's shots is reported apart (sizeWarnedClean).
 */
export async function runCoach(model: ImageModel, files: string[]) {
  const rows: CoachRow[] = [];
  for await (const c of coachCases(files, PIXEL_VARIANTS)) rows.push(await coach(c.variant === 'clean' ? model : null, c));
  for await (const c of coachCases(files, PRODUCT_VARIANTS)) rows.push(await coach(model, c));
  const spoiled = rows.filter((r) => r.expected);
  const clean = rows.filter((r) => !r.expected);
  const falseAlarm = (r: CoachRow) => r.warned.some((code) => ['blurry', 'too_dark', 'too_bright', 'product_cut_off', 'product_too_small'].includes(code));
  const byVariant = Object.fromEntries(
    [...PIXEL_VARIANTS, ...PRODUCT_VARIANTS].filter((v) => v !== 'clean').map((variant) => {
      const these = spoiled.filter((r) => r.variant === variant);
      return [variant, { cases: these.length, hitRate: these.filter((r) => r.warned.includes(r.expected!)).length / Math.max(1, these.length) }];
    }),
  );
  // Not counted as false alarms: whether a product has pixels enough for 2048 px shots is a fact of
  // the photo, not a guess, and the seller-like photos are phone-sized (1024 – 1280 px) on purpose.
  const sizeWarned = (origin: CoachRow['origin']) => {
    const these = clean.filter((r) => r.origin === origin);
    return these.filter((r) => r.warned.includes('low_resolution')).length / Math.max(1, these.length);
  };
  const times = rows.map((r) => r.ms);
  return {
    summary: {
      shotSize: BENCH_SHOT_SIZE,
      cases: rows.length,
      hitRate: spoiled.filter((r) => r.warned.includes(r.expected!)).length / Math.max(1, spoiled.length),
      falseAlarmRate: clean.filter(falseAlarm).length / Math.max(1, clean.length),
      byVariant,
      sizeWarnedClean: { corpus: sizeWarned('corpus'), real: sizeWarned('real') },
      msP50: Math.round(percentile(times, 0.5) * 10) / 10,
      msP95: Math.round(percentile(times, 0.95) * 10) / 10,
    },
    rows,
  };
}

type CoachSummary = Awaited<ReturnType<typeof runCoach>>['summary'];

/** The coach may warn on at most this share of clean photos: a seller told off for a good photo stops listening. */
const FALSE_ALARM_LIMIT = 0.01;

/** The coach's lines of the bench table: its time per photo and how often it is right. */
export function coachFigures(s: CoachSummary): Array<{ figure: string; value: string; target: string; met?: boolean }> {
  const pct = (share: number) => `${(share * 100).toFixed(1)}%`;
  return [
    { figure: `coach: pixel checks per photo, p50 / p95 (${s.cases} cases)`, value: `${s.msP50} / ${s.msP95} ms`, target: '' },
    { figure: 'coach: hit rate on spoiled photos', value: pct(s.hitRate), target: '' },
    {
      figure: 'coach: false alarms on clean photos',
      value: pct(s.falseAlarmRate),
      target: `≤ ${pct(FALSE_ALARM_LIMIT)}`,
      met: s.falseAlarmRate <= FALSE_ALARM_LIMIT,
    },
    {
      figure: 'coach: hit rate by variant',
      value: Object.entries(s.byVariant)
        .map(([variant, v]) => `${variant} ${pct(v.hitRate)}`)
        .join(', '),
      target: '',
    },
    { figure: 'coach: size warnings on clean photos (corpus / seller-like)', value: `${pct(s.sizeWarnedClean.corpus)} / ${pct(s.sizeWarnedClean.real)}`, target: '' },
  ];
}

export const COACH_METHOD =
  'The coach set (`src/bench/coach-set.ts`) takes each corpus cutout as uploaded and each real-set photo, clean and spoiled: blurred (σ = 0.4% of the long side), dark (×0.18), blown (×2.2 + 50), tiny (360 px), cut off (the right third of the product cropped) and far (the frame five times wider). Pixel checks run on the photo as the API stores it, for 2048 px shots; product checks on the engine\'s finding. A clean photo\'s false alarm is a blur, exposure, cut-off or too-small warning; a busy background is no false alarm in a room. The size warning (the product under 0.29 of the shot side, 596 px for 2048 px shots) is counted apart on the clean photos: the seller-like photos are phone-sized on purpose. `BENCH_IMAGING_SETS=coach` runs this set alone (bench/imaging-coach.json, no RESULTS.md).';
