import sharp from 'sharp';
import { isImagingError } from '../errors.js';
import type { ImageModel, Point } from '../types.js';
import { fidelity, iou, iouSummary, mean, median, pad, peakRssMb, round, timed, type Plane } from './bench-measures.js';
import { realSetCases } from './real-set.js';
import type { RealCase, RealCategory } from './real-set.js';

interface RealRow {
  case: string;
  product: string;
  background: string;
  category: RealCategory;
  width: number;
  height: number;
  /** Rooms: the tap the seller would give (fractions); the cutout and the shot used it. */
  tap: Point | null;
  iou: number;
  /** Null when the engine refused the photo (no product found): it scores IoU 0 and has no shot. */
  deltaE: number | null;
  cutoutMs: number;
  /** Whether the engine asked the seller to tap their product on this photo. */
  asked: boolean;
  /** Rooms only: the same photo cut out without the tap. */
  iouNoTap?: number;
  cutoutMsNoTap?: number;
}

/** What the upload screens would do: ask for a tap, or go on (a photo with nothing found counts as not asked). */
async function asksForTap(model: ImageModel, photo: Buffer): Promise<boolean> {
  return model.findProduct(photo).then(
    (found) => found.subject.needsFocus,
    () => false,
  );
}

/** The cutout, or null when the engine refuses the photo as holding no product: a miss, not a crash of the bench. */
async function cutoutOrRefusal(model: ImageModel, photo: Buffer, point?: Point): Promise<Buffer | null> {
  try {
    return await model.removeBackground(photo, point ? { taps: [{ ...point, keep: true }] } : undefined);
  } catch (error) {
    if (isImagingError(error) && error.code === 'empty_image') return null;
    throw error;
  }
}

/** ΔE2000 of the product's interior in a studio shot made from the cutout, as the worker makes it. */
async function shotFidelity(model: ImageModel, c: RealCase, truth: Plane, cutout: Buffer): Promise<number> {
  const normalised = await sharp(cutout).metadata();
  const shot = await model.generate({ cutout, template: 'studio', seed: 1 });
  return fidelity(c.photo, truth, shot.image, shot.placement!, c.width / normalised.width);
}

export async function runReal(model: ImageModel, files: string[]) {
  const rows: RealRow[] = [];
  console.log(`\nreal set: corpus cutouts composited into photographs (bench/real-photos) and sweeps\n${'case'.padEnd(44)} ${'size'.padStart(9)} ${'IoU'.padStart(7)} ${'ΔE2000'.padStart(7)} ${'cutout'.padStart(8)} ${'no tap'.padStart(7)}`);
  for await (const c of realSetCases(files)) {
    const truth = { data: c.truth, width: c.width, height: c.height };
    const point = c.tap ?? undefined;
    const cutout = await timed(() => cutoutOrRefusal(model, c.photo, point));
    const row: RealRow = {
      case: c.id,
      product: c.product,
      background: c.background,
      category: c.category,
      width: c.width,
      height: c.height,
      tap: c.tap,
      iou: cutout.value ? await iou(truth, cutout.value) : 0,
      deltaE: cutout.value ? await shotFidelity(model, c, truth, cutout.value) : null,
      cutoutMs: Math.round(cutout.ms),
      asked: await asksForTap(model, c.photo),
    };
    if (point) {
      const bare = await timed(() => cutoutOrRefusal(model, c.photo));
      row.iouNoTap = bare.value ? await iou(truth, bare.value) : 0;
      row.cutoutMsNoTap = Math.round(bare.ms);
    }
    rows.push(row);
    console.log(`${c.id.padEnd(44)} ${pad(`${c.width}×${c.height}`, 9)} ${row.iou.toFixed(4).padStart(7)} ${(row.deltaE?.toFixed(3) ?? 'refused').padStart(7)} ${pad(`${row.cutoutMs} ms`, 8)} ${row.iouNoTap === undefined ? '' : row.iouNoTap.toFixed(4).padStart(7)}`);
  }
  const name = (r: RealRow) => r.case;
  const of = (category: RealCategory) => rows.filter((r) => r.category === category);
  const rooms = of('room');
  const summary = {
    ...iouSummary(rows, (r) => r.iou, name),
    meanDeltaE2000: round(mean(rows.flatMap((r) => (r.deltaE === null ? [] : [r.deltaE]))), 3),
    cutoutMsMedian: Math.round(median(rows.map((r) => r.cutoutMs))),
    /** Photos 1024 px on their long side only: the size the cutout-time target is set for. */
    cutoutMs1024Median: Math.round(median(rows.filter((r) => Math.max(r.width, r.height) === 1024).map((r) => r.cutoutMs))),
    peakRssMb: peakRssMb(),
    categories: {
      surface: iouSummary(of('surface'), (r) => r.iou, name),
      sweep: iouSummary(of('sweep'), (r) => r.iou, name),
      room: iouSummary(rooms, (r) => r.iou, name),
      roomNoTap: iouSummary(rooms, (r) => r.iouNoTap!, name),
    },
    surfacesAndSweeps: iouSummary([...of('surface'), ...of('sweep')], (r) => r.iou, name),
    /** Photos on which the engine asks for a tap, by category: high for rooms, low elsewhere is right. */
    askedForTap: Object.fromEntries((['surface', 'sweep', 'room'] as const).map((category) => [category, `${of(category).filter((r) => r.asked).length}/${of(category).length}`])),
    backgrounds: Object.fromEntries(
      [...new Set(rows.map((r) => r.background))].map((background) => {
        const these = rows.filter((r) => r.background === background);
        return [background, { cases: these.length, meanIoU: round(mean(these.map((r) => r.iou)), 4), worstIoU: round(Math.min(...these.map((r) => r.iou)), 4) }];
      }),
    ),
  };
  return { rows, summary };
}
