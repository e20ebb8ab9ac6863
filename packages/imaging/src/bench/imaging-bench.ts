import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { corpusFiles, corpusFolder } from '@prodshot/fixtures';
import { repoRoot } from '../corpus/corpus.js';
import type { ImageModel } from '../types.js';
import { benchEngine, benchEngineLabel } from './bench-engine.js';
import { median, peakRssMb, round } from './bench-measures.js';
import { figures, TARGETS, writeResults } from './bench-results.js';
import { coachFigures, runCoach } from './coach-bench.js';
import { writeExtendedResults } from './extended-results.js';
import { runExtended } from './extended-set-bench.js';
import { EXTENDED_CATEGORIES, type ExtendedCategory } from './extended-set.js';
import { flatten, runFlat } from './flat-set-bench.js';
import { runReal } from './real-set-bench.js';

const SPEED_RUNS = 9;

/**
 * BENCH_IMAGING_SETS=extended runs the extended real set alone (it writes its own JSON and its own
 * section of RESULTS.md); BENCH_IMAGING_CATEGORIES=pale,empty narrows it to some categories, and
 * BENCH_IMAGING_ANCHOR=0 leaves the anchor out. BENCH_IMAGING_SETS=coach runs the coach set alone
 * (a look at its figures while tuning: its own JSON, RESULTS.md untouched). Unset: everything, with the anchor.
 */
function onlySet(): 'extended' | 'coach' | null {
  const named = process.env.BENCH_IMAGING_SETS;
  if (!named) return null;
  if (named === 'extended' || named === 'coach') return named;
  throw new Error(`BENCH_IMAGING_SETS names ${named}; the sets run alone are extended and coach`);
}

function extendedCategories(): ExtendedCategory[] {
  const named = process.env.BENCH_IMAGING_CATEGORIES?.split(',').map((c) => c.trim()).filter(Boolean);
  if (!named?.length) return [...EXTENDED_CATEGORIES];
  const unknown = named.filter((c) => !EXTENDED_CATEGORIES.includes(c as ExtendedCategory));
  if (unknown.length) throw new Error(`BENCH_IMAGING_CATEGORIES names ${unknown.join(', ')}; the categories are ${EXTENDED_CATEGORIES.join(', ')}`);
  return named as ExtendedCategory[];
}

async function runExtendedSet(model: ImageModel, productFolder: string): Promise<void> {
  const withAnchor = process.env.BENCH_IMAGING_ANCHOR !== '0';
  const rows = await runExtended(model, productFolder, extendedCategories(), withAnchor);
  await writeExtendedResults(rows, benchEngineLabel(), new Date().toISOString(), withAnchor);
  console.log(`wrote ${join(repoRoot(), 'bench', 'imaging-extended.json')} and its section of ${join(repoRoot(), 'bench', 'RESULTS.md')}`);
}

async function runCoachSet(model: ImageModel, files: string[]): Promise<void> {
  const coach = await runCoach(model, files);
  const out = join(repoRoot(), 'bench');
  await mkdir(out, { recursive: true });
  await writeFile(join(out, 'imaging-coach.json'), `${JSON.stringify({ engine: benchEngineLabel(), measuredAt: new Date().toISOString(), ...coach.summary, rows: coach.rows }, null, 2)}\n`);
  console.log(`\n${coachFigures(coach.summary).map((r) => `${r.figure}: ${r.value}`).join('\n')}\n`);
  console.log(`wrote ${join(out, 'imaging-coach.json')}`);
}

async function main(): Promise<void> {
  const all = corpusFiles('products').filter((f) => f.endsWith('.png'));
  // BENCH_IMAGING_PRODUCTS=3 runs the first 3 products only: a quick check, not figures to publish.
  const limit = Number(process.env.BENCH_IMAGING_PRODUCTS) || all.length;
  const files = all.slice(0, limit);
  const model: ImageModel = await benchEngine();
  console.log(`engine: ${benchEngineLabel()}`);
  const only = onlySet();
  if (only === 'extended') return runExtendedSet(model, corpusFolder('products'));
  if (only === 'coach') return runCoachSet(model, files);
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
  await runExtendedSet(model, corpusFolder('products'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
