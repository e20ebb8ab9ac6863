import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repoRoot } from '../corpus/corpus.js';
import { COACH_METHOD, coachFigures, type runCoach } from './coach-bench.js';
import type { runFlat } from './flat-set-bench.js';
import type { runReal } from './real-set-bench.js';

/** What the team reads the figures against (issue 15). */
export const TARGETS = {
  flatMeanIoU: 0.99,
  flatWorstIoU: 0.95,
  realSurfaceSweepMeanIoU: 0.95,
  realSurfaceSweepWorstIoU: 0.8,
  roomWithTapMeanIoU: 0.8,
  cutoutMs1024Median: 1500,
};

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
export function figures(summary: Summary): Figure[] {
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
export async function writeResults(summary: Summary, table: Figure[]): Promise<void> {
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
    'is each corpus cutout (`packages/fixtures/corpus/products`) flattened onto white, grey, pink and a soft gradient. The',
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
  await replaceResultsSection(RESULTS_HEADING, body);
}

/** Replaces the top-level section of bench/RESULTS.md that starts with `heading` (or appends it), leaving the others as they are. */
export async function replaceResultsSection(heading: string, body: string): Promise<void> {
  const file = join(repoRoot(), 'bench', 'RESULTS.md');
  const current = await readFile(file, 'utf8').catch(() => '');
  const sections = current.split(/^(?=# )/m).filter((section) => section.trim());
  const at = sections.findIndex((section) => section.startsWith(`${heading}\n`));
  if (at >= 0) sections[at] = body;
  else sections.push(body);
  await writeFile(file, sections.map((section) => section.trimEnd() + '\n').join('\n'));
}
