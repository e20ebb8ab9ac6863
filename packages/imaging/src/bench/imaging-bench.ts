import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { basename, join } from 'node:path';
import { differenceCiede2000 } from 'culori';
import sharp from 'sharp';
import { corpusDir, corpusFiles, corpusFolder, repoRoot } from '../corpus/corpus.js';
import { isImagingError } from '../errors.js';
import { erode } from '../local/cutout/mask-ops.js';
import type { ImageModel, Placement, Point } from '../types.js';
import { benchEngine, benchEngineLabel } from './bench-engine.js';
import { COACH_METHOD, coachFigures, runCoach } from './coach-bench.js';
import { realSetCases } from './real-set.js';
import type { RealCase, RealCategory } from './real-set.js';

/** The backdrops the issue names: white, grey, a colour and a soft gradient. */
const BACKDROPS: Record<string, (width: number, height: number) => Buffer> = {
  white: (w, h) => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="100%" height="100%" fill="#ffffff"/></svg>`),
  grey: (w, h) => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="100%" height="100%" fill="#9e9e9e"/></svg>`),
  pink: (w, h) => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="100%" height="100%" fill="#f4c2c2"/></svg>`),
  gradient: (w, h) =>
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><linearGradient id="g" x1="0" y1="0" x2="0.4" y2="1"><stop offset="0" stop-color="#f6f1ea"/><stop offset="1" stop-color="#c9d3de"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`,
    ),
};

/** What the team reads the figures against (issue 15). */
const TARGETS = {
  flatMeanIoU: 0.99,
  flatWorstIoU: 0.95,
  realSurfaceSweepMeanIoU: 0.95,
  realSurfaceSweepWorstIoU: 0.8,
  roomWithTapMeanIoU: 0.8,
  cutoutMs1024Median: 1500,
};

const SPEED_RUNS = 9;
const deltaE = differenceCiede2000();

interface Row {
  product: string;
  backdrop: string;
  iou: number;
  deltaE: number;
  cutoutMs: number;
}

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

/** Alpha (or any single channel) with its size. */
interface Plane {
  data: Uint8Array;
  width: number;
  height: number;
}

async function flatten(product: Buffer, width: number, height: number, backdrop: string): Promise<Buffer> {
  return sharp(BACKDROPS[backdrop]!(width, height)).composite([{ input: product }]).removeAlpha().png({ compressionLevel: 1 }).toBuffer();
}

async function alphaOf(png: Buffer): Promise<Plane> {
  const { data, info } = await sharp(png).ensureAlpha().extractChannel(3).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The plane at `width` × `height` (the cutout comes at the normalised size, which may be smaller than the photo). */
async function resized(plane: Plane, width: number, height: number): Promise<Plane> {
  if (plane.width === width && plane.height === height) return plane;
  const data = await sharp(plane.data, { raw: { width: plane.width, height: plane.height, channels: 1 } }).resize(width, height, { fit: 'fill' }).extractChannel(0).raw().toBuffer();
  return { data, width, height };
}

/** IoU of alpha ≥ 128, at the truth's size. */
async function iou(truth: Plane, cutout: Buffer): Promise<number> {
  const found = await resized(await alphaOf(cutout), truth.width, truth.height);
  let both = 0, either = 0;
  for (let p = 0; p < truth.data.length; p++) {
    const t = truth.data[p]! >= 128, f = found.data[p]! >= 128;
    if (t && f) both++;
    if (t || f) either++;
  }
  return either ? both / either : 1;
}

const toRgb = (data: Buffer, i: number) => ({ mode: 'rgb' as const, r: data[i]! / 255, g: data[i + 1]! / 255, b: data[i + 2]! / 255 });

/**
 * Mean ΔE2000 between the input and the shot over the eroded product interior, after undoing
 * the placement: the input region the engine reports is resized to where it says it landed.
 * `sourceScale` is input pixels per pixel of the engine's normalised image (its cutout's size).
 */
async function fidelity(input: Buffer, truth: Plane, shot: Buffer, placement: Placement, sourceScale: number): Promise<number> {
  const { sourceBox, box } = placement;
  const left = Math.round(sourceBox.x * sourceScale), top = Math.round(sourceBox.y * sourceScale);
  const region = {
    left,
    top,
    width: Math.max(1, Math.min(truth.width - left, Math.round(sourceBox.width * sourceScale))),
    height: Math.max(1, Math.min(truth.height - top, Math.round(sourceBox.height * sourceScale))),
  };
  const width = Math.round(box.width), height = Math.round(box.height);
  // Resized as the engine resizes the product (sharp's default fit): the reference is then the
  // engine's own single resampling, and any difference is colour the engine changed.
  const expected = await sharp(input).extract(region).resize(width, height).removeAlpha().raw().toBuffer();
  const alpha = await sharp(truth.data, { raw: { width: truth.width, height: truth.height, channels: 1 } }).extract(region).resize(width, height).extractChannel(0).raw().toBuffer();
  const interior = erode(Uint8Array.from(alpha, (a) => (a === 255 ? 1 : 0)), width, height, 3);
  const actual = await sharp(shot).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let sum = 0, count = 0;
  for (let y = 0; y < height; y += 2) {
    const sy = Math.round(box.y) + y;
    if (sy < 0 || sy >= actual.info.height) continue;
    for (let x = 0; x < width; x += 2) {
      const sx = Math.round(box.x) + x;
      if (sx < 0 || sx >= actual.info.width || !interior[y * width + x]) continue;
      sum += deltaE(toRgb(expected, (y * width + x) * 3), toRgb(actual.data, (sy * actual.info.width + sx) * 3));
      count++;
    }
  }
  return count ? sum / count : 0;
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : NaN;
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

function round(value: number, digits: number): number {
  return Math.round(value * 10 ** digits) / 10 ** digits;
}

const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

/** Mean and worst IoU of some cases, the worst one named. */
function iouSummary<T>(items: T[], iouOf: (item: T) => number, name: (item: T) => string) {
  if (!items.length) return { cases: 0, meanIoU: NaN, worstIoU: NaN, worstCase: '' };
  const worst = items.reduce((a, b) => (iouOf(b) < iouOf(a) ? b : a));
  return { cases: items.length, meanIoU: round(mean(items.map(iouOf)), 4), worstIoU: round(iouOf(worst), 4), worstCase: name(worst) };
}

const pad = (value: string | number, width: number) => String(value).padStart(width);

async function runFlat(model: ImageModel, files: string[]) {
  const rows: Row[] = [];
  console.log(`\nflat set: corpus cutouts flattened onto plain backdrops\n${'product'.padEnd(32)} ${'backdrop'.padEnd(9)} ${'IoU'.padStart(7)} ${'ΔE2000'.padStart(7)} ${'cutout'.padStart(8)}`);
  for (const file of files) {
    const product = await readFile(file);
    const { width, height } = await sharp(product).metadata();
    const truth = await alphaOf(product);
    for (const backdrop of Object.keys(BACKDROPS)) {
      const input = await flatten(product, width, height, backdrop);
      const cutout = await timed(() => model.removeBackground(input));
      const normalised = await sharp(cutout.value).metadata();
      // As the worker does: every shot of an upload starts from its one cutout.
      const shot = await model.generate({ cutout: cutout.value, template: 'studio', seed: 1 });
      const row = {
        product: basename(file),
        backdrop,
        iou: await iou(truth, cutout.value),
        deltaE: await fidelity(input, truth, shot.image, shot.placement!, width / normalised.width),
        cutoutMs: Math.round(cutout.ms),
      };
      rows.push(row);
      console.log(`${row.product.padEnd(32)} ${backdrop.padEnd(9)} ${row.iou.toFixed(4).padStart(7)} ${row.deltaE.toFixed(3).padStart(7)} ${pad(`${row.cutoutMs} ms`, 8)}`);
    }
  }
  const ious = rows.map((r) => r.iou);
  const worst = rows.find((r) => r.iou === Math.min(...ious))!;
  const summary = {
    ...iouSummary(rows, (r) => r.iou, (r) => `${r.product} on ${r.backdrop}`),
    meanDeltaE2000: round(mean(rows.map((r) => r.deltaE)), 3),
    cutoutMsMedian: Math.round(median(rows.map((r) => r.cutoutMs))),
    peakRssMb: peakRssMb(),
  };
  return { rows, worst, summary };
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
    return await model.removeBackground(photo, point ? { point } : undefined);
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

async function runReal(model: ImageModel, files: string[]) {
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

async function main(): Promise<void> {
  const all = corpusFiles('products').filter((f) => f.endsWith('.png'));
  if (!corpusDir('products')) {
    console.error(`bench skipped: corpus folder ${corpusFolder('products')} is absent`);
    process.exit(1);
  }
  // BENCH_IMAGING_PRODUCTS=3 runs the first 3 products only: a quick check, not figures to publish.
  const limit = Number(process.env.BENCH_IMAGING_PRODUCTS) || all.length;
  const files = all.slice(0, limit);
  const model: ImageModel = await benchEngine();
  console.log(`engine: ${benchEngineLabel()}`);
  const flat = await runFlat(model, files);
  const real = await runReal(model, files);
  const coach = await runCoach(model, files);

  // Speed: a 1024 px styled shot from a 2160 px photo; a new seed each run so no scene is cached.
  const speedFile = files.find((f) => basename(f) === 'saleor-dash-force-1.png') ?? files[0]!;
  const speedProduct = await readFile(speedFile);
  const meta = await sharp(speedProduct).metadata();
  const speedInput = await flatten(speedProduct, meta.width, meta.height, 'white');
  const times: number[] = [];
  for (let run = 0; run < SPEED_RUNS; run++) {
    const started = performance.now();
    await model.generate({ image: speedInput, template: 'marble', seed: 1000 + run, size: 1024 });
    times.push(performance.now() - started);
  }

  const summary = {
    // Today's keys, from the flat set.
    meanIoU: flat.summary.meanIoU,
    worstIoU: flat.summary.worstIoU,
    worstIoUCase: flat.worst,
    meanDeltaE2000: flat.summary.meanDeltaE2000,
    shotMsMedian: Math.round(median(times)),
    shotMsRuns: times.map(Math.round),
    shotInput: `${basename(speedFile)} ${meta.width}×${meta.height} PNG on white, template marble, 1024 px PNG out`,
    peakRssMb: peakRssMb(),
    rows: flat.rows,
    engine: benchEngineLabel(),
    measuredAt: new Date().toISOString(),
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown', memoryGb: round(os.totalmem() / 2 ** 30, 1), node: process.version },
    targets: TARGETS,
    sets: {
      flat: { ...flat.summary, rows: flat.rows },
      real: { ...real.summary, rows: real.rows },
      coach: { ...coach.summary, rows: coach.rows },
    },
  };
  const out = join(repoRoot(), 'bench');
  await mkdir(out, { recursive: true });
  await writeFile(join(out, 'imaging.json'), `${JSON.stringify(summary, null, 2)}\n`);
  const table = figures(summary);
  const width = Math.max(...table.map((r) => r.figure.length));
  const valueWidth = Math.max(...table.map((r) => r.value.length));
  console.log(`\n${table.map((r) => `${r.figure.padEnd(width)}  ${r.value.padEnd(valueWidth)}${r.target ? `  target ${r.target}${r.met === undefined ? '' : r.met ? '  met' : '  MISSED'}` : ''}`).join('\n')}\n`);
  await writeResults(summary, table);
  console.log(`wrote ${join(out, 'imaging.json')} and the imaging section of ${join(out, 'RESULTS.md')}`);
}

type Summary = {
  shotMsMedian: number;
  shotMsRuns: number[];
  shotInput: string;
  peakRssMb: number;
  engine: string;
  measuredAt: string;
  machine: { cpus: number; cpuModel: string; memoryGb: number; node: string };
  sets: { flat: Awaited<ReturnType<typeof runFlat>>['summary']; real: Awaited<ReturnType<typeof runReal>>['summary']; coach: Awaited<ReturnType<typeof runCoach>>['summary'] };
};

interface Figure {
  figure: string;
  value: string;
  target: string;
  met?: boolean;
}

/** The figures people read, each beside its target: printed, and written to RESULTS.md. */
function figures(summary: Summary): Figure[] {
  const { flat, real } = summary.sets;
  const iouFigure = (figure: string, s: { cases: number; meanIoU: number; worstIoU: number; worstCase: string }, meanTarget?: number, worstTarget?: number): Figure[] => [
    { figure: `${figure}: mean IoU (${s.cases} case${s.cases === 1 ? '' : 's'})`, value: s.meanIoU.toFixed(4), ...target(s.meanIoU, meanTarget, '≥') },
    { figure: `${figure}: worst IoU`, value: `${s.worstIoU.toFixed(4)} (${s.worstCase})`, ...target(s.worstIoU, worstTarget, '≥') },
  ];
  return [
    ...iouFigure('flat', flat, TARGETS.flatMeanIoU, TARGETS.flatWorstIoU),
    { figure: 'flat: mean ΔE2000 of the product interior', value: flat.meanDeltaE2000.toFixed(3), target: '' },
    { figure: 'flat: cutout median (2160 px PNG)', value: `${flat.cutoutMsMedian} ms`, target: '' },
    ...iouFigure('real', real),
    ...iouFigure('real surfaces + sweeps', real.surfacesAndSweeps, TARGETS.realSurfaceSweepMeanIoU, TARGETS.realSurfaceSweepWorstIoU),
    ...iouFigure('real surface (wood, fabric, grass, stone)', real.categories.surface),
    ...iouFigure('real sweep (off-white)', real.categories.sweep),
    ...iouFigure('real room, with tap', real.categories.room, TARGETS.roomWithTapMeanIoU),
    ...iouFigure('real room, no tap', real.categories.roomNoTap),
    {
      figure: 'real: photos on which the engine asks for a tap (surface / sweep / room)',
      value: `${real.askedForTap.surface} / ${real.askedForTap.sweep} / ${real.askedForTap.room}`,
      target: '',
    },
    { figure: 'real: mean ΔE2000 of the product interior', value: real.meanDeltaE2000.toFixed(3), target: '' },
    { figure: 'real: cutout median (1024–1280 px JPEG)', value: `${real.cutoutMsMedian} ms`, target: '' },
    { figure: 'real: cutout median, 1024 px photos', value: `${real.cutoutMs1024Median} ms`, ...target(real.cutoutMs1024Median, TARGETS.cutoutMs1024Median, '≤', ' ms') },
    { figure: 'shot median (2160 px photo → 1024 px marble)', value: `${summary.shotMsMedian} ms`, target: '' },
    { figure: 'peak RSS after flat / real / all', value: `${flat.peakRssMb} / ${real.peakRssMb} / ${summary.peakRssMb} MB`, target: '' },
    ...coachFigures(summary.sets.coach),
  ];
}

function target(value: number, limit: number | undefined, sense: '≥' | '≤', unit = ''): { target: string; met?: boolean } {
  if (limit === undefined) return { target: '' };
  return { target: `${sense} ${limit}${unit}`, met: sense === '≥' ? value >= limit : value <= limit };
}

const RESULTS_HEADING = '# Imaging';

/**
 * bench/RESULTS.md: `npm run bench` and `npm run soak` each rewrite their own top-level section,
 * so the imaging figures live in a top-level section of their own, replaced in place on a rerun.
 */
async function writeResults(summary: Summary, table: Figure[]): Promise<void> {
  const file = join(repoRoot(), 'bench', 'RESULTS.md');
  const m = summary.machine;
  const { real } = summary.sets;
  const body = [
    RESULTS_HEADING,
    '',
    '## Imaging (npm run bench:imaging)',
    '',
    `Measured by \`npm run bench:imaging\` on ${summary.measuredAt.slice(0, 10)} with the ${summary.engine}: ${m.cpus} × ${m.cpuModel},`,
    `${m.memoryGb} GiB, Node ${m.node}. Written from bench/imaging.json by the bench; figures vary with load.`,
    '',
    '| figure | measured | target |',
    '|---|---|---|',
    ...table.map((r) => `| ${r.figure} | ${r.value} | ${r.target}${r.met === undefined ? '' : r.met ? ' ✓' : ' ✗'} |`),
    '',
    `Real set by background (mean / worst IoU): ${Object.entries(real.backgrounds)
      .map(([name, s]) => `${name} ${s.meanIoU.toFixed(3)} / ${s.worstIoU.toFixed(3)}`)
      .join(', ')}.`,
    '',
    'Method: IoU compares the cutout\'s alpha with the truth (alpha ≥ 128 both), at the photo\'s size. The `flat` set',
    'is each corpus cutout (`../shared/corpus/products`) flattened onto white, grey, pink and a soft gradient. The',
    '`real` set (`src/bench/real-set.ts`) composites each cutout into seller-like photos, 1024–1280 px: real',
    'photographs of wood, fabric, grass and stone and of busy scenes with other salient objects (bench/real-photos,',
    'sources and licences in SOURCES.md), and synthesised off-white sweeps; the product at 35–65% of the short side',
    '(25–40% in rooms), a soft cast shadow (not part of the truth), uneven light, sensor noise, JPEG quality 80, all',
    'seeded. Each product appears on two surfaces, one sweep and one room. Rooms are cut out with the tap a seller',
    'would give (the product\'s most interior point) and again without it; the set\'s mean counts them with the tap.',
    'ΔE2000 is the mean colour difference between the photo and a studio shot made from it, over the eroded product',
    'interior, after undoing the placement the engine reports. Cutout time is `removeBackground()` per photo. Peak RSS',
    'is the process\'s, so the real set\'s includes the flat set\'s.',
    '',
    COACH_METHOD,
    '',
  ].join('\n');
  const current = await readFile(file, 'utf8').catch(() => '');
  const sections = current.split(/^(?=# )/m).filter((section) => section.trim());
  const at = sections.findIndex((section) => section.startsWith(`${RESULTS_HEADING}\n`));
  if (at >= 0) sections[at] = body;
  else sections.push(body);
  await writeFile(file, sections.map((section) => section.trimEnd() + '\n').join('\n'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
