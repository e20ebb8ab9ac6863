import sharp from 'sharp';
import { isImagingError } from '../errors.js';
import type { ImageModel } from '../types.js';
import { anchorCutout } from './anchor-engine.js';
import { alphaOf, iou, iouSummary, median, pad, round, timed, type Plane } from './bench-measures.js';
import { shadowInMask, THIN_PART_PRESENT, thinPartKept, type Half } from './extended-measures.js';
import { EXTENDED_CATEGORIES, extendedCases, type ExtendedCase, type ExtendedCategory, type Tap } from './extended-set.js';

/** One engine's result on one photo. */
interface Scored {
  /** 0 when the engine refused the photo. */
  iou: number;
  /** Prodshot: it threw EmptyImageError. The anchor never refuses: it counts as refusing when it keeps under 0.5% of the photo. */
  refused: boolean;
  ms: number;
  /** Thin parts: share of the thin pixels kept. */
  thinKept?: number;
  /** Coloured floor: source-shadow pixels kept as product. */
  shadowPixels?: number;
}

/** Where and when a row was measured: the commit (with "+local changes" for a tree that differs from it) and the day. */
export interface Measured {
  code: string;
  day: string;
}

export interface ExtendedRow {
  case: string;
  category: ExtendedCategory;
  half: Half;
  width: number;
  height: number;
  taps: Tap[];
  /** Prodshot, with all the case's taps (keep and drop) where the category has taps. */
  prodshot: Scored;
  /** Prodshot with the positive tap only (tap categories only): what a single `focus` point gives. */
  prodshotKeepTap?: Scored;
  /** Prodshot without any tap (tap categories only): before the seller taps. */
  prodshotNoTap?: Scored;
  /** The anchor (takes no taps); absent when BENCH_IMAGING_ANCHOR=0. */
  anchor?: Scored;
  /** The commit and day the row was measured at (absent in rows written before it was recorded). */
  measured?: Measured;
}

/** What the anchor keeps on an empty photo counts as a refusal only when it keeps (almost) nothing. */
const ANCHOR_EMPTY_SHARE = 0.005;

async function score(c: ExtendedCase, cut: () => Promise<Buffer | null>, anchor = false): Promise<Scored> {
  const truth: Plane = { data: c.truth, width: c.width, height: c.height };
  const { value, ms } = await timed(cut);
  const scored: Scored = { iou: 0, refused: value === null, ms: Math.round(ms) };
  if (!value) return scored;
  scored.iou = await iou(truth, value);
  if (!c.thin && !c.shadow && !(anchor && c.category === 'empty')) return scored;
  const alpha = await alphaAt(value, c.width, c.height);
  if (c.thin) scored.thinKept = round(thinPartKept(c.thin, alpha), 4);
  if (c.shadow) scored.shadowPixels = shadowInMask(c.shadow, alpha);
  if (anchor && c.category === 'empty') scored.refused = alpha.reduce((n, a) => n + (a >= 128 ? 1 : 0), 0) / alpha.length < ANCHOR_EMPTY_SHARE;
  return scored;
}

/** The cutout's alpha at the photo's size (the engine may return it at its normalised size). */
async function alphaAt(png: Buffer, width: number, height: number): Promise<Uint8Array> {
  const plane = await alphaOf(png);
  if (plane.width === width && plane.height === height) return plane.data;
  return sharp(plane.data, { raw: { width: plane.width, height: plane.height, channels: 1 } }).resize(width, height, { fit: 'fill' }).extractChannel(0).raw().toBuffer();
}

async function prodshotCutout(model: ImageModel, photo: Buffer, taps: readonly Tap[]): Promise<Buffer | null> {
  try {
    return await model.removeBackground(photo, taps.length ? { taps } : undefined);
  } catch (error) {
    if (isImagingError(error) && error.code === 'empty_image') return null;
    throw error;
  }
}

export async function runExtended(model: ImageModel, productFolder: string, categories: readonly ExtendedCategory[], withAnchor: boolean): Promise<ExtendedRow[]> {
  const rows: ExtendedRow[] = [];
  console.log(`\nextended real set (issue 30): ${categories.join(', ')}${withAnchor ? ', beside the anchor' : ''}\n${'case'.padEnd(58)} ${'half'.padEnd(8)} ${'IoU'.padStart(7)} ${'keep'.padStart(7)} ${'no tap'.padStart(7)} ${'anchor'.padStart(7)} ${'cutout'.padStart(8)} ${'anchor'.padStart(8)}`);
  for await (const c of extendedCases(productFolder, categories)) {
    const keep = c.taps.filter((t) => t.keep);
    // As a seller meets it: the untapped outline first (the upload's preview), then the taps on it, timed as one tap round trip.
    const noTap = c.taps.length ? await score(c, () => prodshotCutout(model, c.photo, [])) : undefined;
    const row: ExtendedRow = { case: c.id, category: c.category, half: c.half, width: c.width, height: c.height, taps: c.taps, prodshot: await score(c, () => prodshotCutout(model, c.photo, c.taps)) };
    if (noTap) {
      row.prodshotKeepTap = await score(c, () => prodshotCutout(model, c.photo, keep));
      row.prodshotNoTap = noTap;
    }
    if (withAnchor) row.anchor = await score(c, () => anchorCutout(c.photo), true);
    rows.push(row);
    const shown = (s: Scored | undefined) => (s ? (s.refused ? 'refused' : s.iou.toFixed(4)) : '').padStart(7);
    console.log(`${`${c.category}: ${c.id}`.padEnd(58)} ${c.half.padEnd(8)} ${shown(row.prodshot)} ${shown(row.prodshotKeepTap)} ${shown(row.prodshotNoTap)} ${shown(row.anchor)} ${pad(`${row.prodshot.ms} ms`, 8)} ${row.anchor ? pad(`${row.anchor.ms} ms`, 8) : ''}`);
  }
  return rows;
}

type Engine = 'prodshot' | 'prodshotKeepTap' | 'prodshotNoTap' | 'anchor';

/** One engine on some rows: IoU, refusals, and the thin-part and shadow measures where they apply. */
function engineSummary(rows: ExtendedRow[], engine: Engine) {
  const scored = rows.flatMap((r) => (r[engine] ? [{ name: r.case, s: r[engine] }] : []));
  if (!scored.length) return null;
  const thin = scored.filter((x) => x.s.thinKept !== undefined);
  const shadow = scored.filter((x) => x.s.shadowPixels !== undefined);
  return {
    ...iouSummary(scored, (x) => x.s.iou, (x) => x.name),
    refused: scored.filter((x) => x.s.refused).length,
    ...(thin.length ? { thinPresent: thin.filter((x) => x.s.thinKept! >= THIN_PART_PRESENT).length, meanThinKept: round(thin.reduce((a, x) => a + x.s.thinKept!, 0) / thin.length, 4) } : {}),
    ...(shadow.length ? { casesWithShadowInMask: shadow.filter((x) => x.s.shadowPixels! > 0).length, shadowPixelsInMask: shadow.reduce((a, x) => a + x.s.shadowPixels!, 0) } : {}),
  };
}

export type EngineSummary = NonNullable<ReturnType<typeof engineSummary>>;

/** Per category and half, each engine's figures; the categories in the set's order, those with rows only. */
export function summarise(rows: ExtendedRow[]) {
  const categories = EXTENDED_CATEGORIES.filter((category) => rows.some((r) => r.category === category));
  const halves = (these: ExtendedRow[]) =>
    Object.fromEntries((['holdout', 'tuning'] as const).map((half) => {
      const part = these.filter((r) => r.half === half);
      const engines = Object.fromEntries((['prodshot', 'prodshotKeepTap', 'prodshotNoTap', 'anchor'] as const).map((engine) => [engine, engineSummary(part, engine)]));
      return [half, { photos: [...new Set(part.map((r) => r.case.split('@')[1]!))], ...engines }];
    })) as Record<Half, { photos: string[] } & Record<Engine, EngineSummary | null>>;
  const at1024 = rows.filter((r) => Math.max(r.width, r.height) === 1024 && !r.prodshot.refused);
  return {
    categories: Object.fromEntries(categories.map((category) => [category, halves(rows.filter((r) => r.category === category))])) as Partial<Record<ExtendedCategory, ReturnType<typeof halves>>>,
    /** Photos 1024 px on their long side: the size the cutout-time target is set for. */
    cutoutMs1024Median: { prodshot: Math.round(median(at1024.map((r) => r.prodshot.ms))), anchor: Math.round(median(at1024.flatMap((r) => (r.anchor ? [r.anchor.ms] : [])))), photos: at1024.length },
  };
}

export type ExtendedSummary = ReturnType<typeof summarise>;
