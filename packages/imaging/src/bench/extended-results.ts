import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repoRoot } from '../corpus/corpus.js';
import { ANCHOR_LABEL } from './anchor-engine.js';
import { replaceResultsSection } from './bench-results.js';
import { THIN_PART_PRESENT, type Half } from './extended-measures.js';
import { summarise, type EngineSummary, type ExtendedRow, type ExtendedSummary, type Measured } from './extended-set-bench.js';
import { EXTENDED_SPECS, type ExtendedCategory } from './extended-set.js';

/** Issue 30's targets, read on the hold-out half. */
export const EXTENDED_TARGETS: Record<ExtendedCategory, { mean?: number; worst?: number; thinPresent?: number; noShadow?: true; refused?: number }> = {
  pale: { mean: 0.95, worst: 0.85 },
  'same-colour': { mean: 0.92, worst: 0.75 },
  'small-front': { mean: 0.9, worst: 0.7 },
  thin: { mean: 0.95, thinPresent: 0.95 },
  'shadow-floor': { mean: 0.95, noShadow: true },
  empty: { refused: 1 },
};
export const EXTENDED_CUTOUT_MS_TARGET = 1000;

const TITLES: Record<ExtendedCategory, string> = {
  pale: 'Light and white products on pale textured surfaces',
  'same-colour': 'Touching or overlapping an object of their own colour, with taps',
  'small-front': 'Small products in front of a larger salient thing, with taps',
  thin: 'Thin parts (sunglasses bridge, mug handle, bag strap)',
  'shadow-floor': 'On a coloured floor with a cast shadow',
  empty: 'Empty textured photos (no product): refused or not',
};

const met = (ok: boolean) => (ok ? '✓ met' : '✗ not met');
const share = (n: number, of: number) => `${n}/${of}`;

/** The cells of one engine on one half, against the category's targets (judged on the hold-out half only). */
function cells(category: ExtendedCategory, s: EngineSummary | null, judge: boolean): string[] {
  if (!s) return ['—', '—', '—'];
  const t = EXTENDED_TARGETS[category];
  const mark = (ok: boolean) => (judge ? ` ${ok ? '✓' : '✗'}` : '');
  if (category === 'empty') return ['—', '—', `refused ${share(s.refused, s.cases)}${mark(s.refused === s.cases)}`];
  const mean = `${s.meanIoU.toFixed(3)}${t.mean === undefined ? '' : mark(s.meanIoU >= t.mean)}`;
  const worst = `${s.worstIoU.toFixed(3)}${t.worst === undefined ? '' : mark(s.worstIoU >= t.worst)} (${s.worstCase})`;
  let extra = s.refused ? `refused ${s.refused}` : '';
  if (s.thinPresent !== undefined) extra = `thin part present ${share(s.thinPresent, s.cases)}${mark(s.thinPresent / s.cases >= t.thinPresent!)}; mean kept ${s.meanThinKept!.toFixed(3)}`;
  if (s.casesWithShadowInMask !== undefined) extra = `shadow in mask: ${share(s.casesWithShadowInMask, s.cases)} cases, ${s.shadowPixelsInMask} px${mark(s.casesWithShadowInMask === 0)}`;
  return [mean, worst, extra];
}

function targetText(category: ExtendedCategory): string {
  const t = EXTENDED_TARGETS[category];
  return [
    t.mean !== undefined && `mean ≥ ${t.mean}`,
    t.worst !== undefined && `worst ≥ ${t.worst}`,
    t.thinPresent !== undefined && `thin part present in ≥ ${t.thinPresent * 100}%`,
    t.noShadow && 'no shadow pixel in the mask',
    t.refused !== undefined && `refused ${t.refused * 100}%`,
  ]
    .filter(Boolean)
    .join(', ');
}

/** Whether Prodshot meets the category's targets on the hold-out half. */
export function holdoutMet(category: ExtendedCategory, s: EngineSummary | null): boolean {
  if (!s) return false;
  const t = EXTENDED_TARGETS[category];
  if (t.refused !== undefined) return s.refused / s.cases >= t.refused;
  return (
    (t.mean === undefined || s.meanIoU >= t.mean) &&
    (t.worst === undefined || s.worstIoU >= t.worst) &&
    (t.thinPresent === undefined || (s.thinPresent ?? 0) / s.cases >= t.thinPresent) &&
    (!t.noShadow || s.casesWithShadowInMask === 0)
  );
}

function categoryTable(category: ExtendedCategory, halves: NonNullable<ExtendedSummary['categories'][ExtendedCategory]>, measured: string): string[] {
  const withTaps = EXTENDED_SPECS[category].taps;
  const lines = [
    `### ${TITLES[category]}`,
    '',
    `Measured ${measured}.`,
    '',
    `Target (hold-out half): ${targetText(category)}. Prodshot on the hold-out half: **${met(holdoutMet(category, halves.holdout.prodshot))}**.`,
    '',
    '| half (photographs) | engine | mean IoU | worst IoU | |',
    '|---|---|---|---|---|',
  ];
  for (const half of ['holdout', 'tuning'] as Half[]) {
    const h = halves[half];
    const label = `${half === 'holdout' ? 'hold-out' : 'tuning'} (${h.photos.join(', ')})`;
    // Only Prodshot's own figure on the hold-out half is judged against the target.
    const engines: Array<[string, EngineSummary | null, boolean]> = [
      [withTaps ? 'Prodshot, all taps (keep and drop)' : 'Prodshot', h.prodshot, half === 'holdout'],
      ...(withTaps
        ? ([
            ['Prodshot, positive tap only', h.prodshotKeepTap, false],
            ['Prodshot, no tap', h.prodshotNoTap, false],
          ] as Array<[string, EngineSummary | null, boolean]>)
        : []),
      ['anchor (no taps)', h.anchor, false],
    ];
    for (const [engine, s, judge] of engines) lines.push(`| ${label} | ${engine} | ${cells(category, s, judge).join(' | ')} |`);
  }
  return [...lines, ''];
}

const HEADING = '# Imaging: extended real set (issue 30)';

/** The commit the bench runs at (its short hash, "+local changes" when tracked files outside bench/ differ from it); "unknown" outside a git checkout. */
function benchedCode(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot(), encoding: 'utf8' }).trim();
    // bench/ is what the run itself writes (RESULTS.md before this section): it says nothing of the code measured.
    const changed = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', '.', ':(exclude)bench'], { cwd: repoRoot(), encoding: 'utf8' }).trim();
    return changed ? `${commit}+local changes` : commit;
  } catch {
    return 'unknown';
  }
}

/** How a category's rows were measured, for its table: rows kept from runs at other code say so. */
export function measuredText(rows: readonly ExtendedRow[]): string {
  const runs = [...new Set(rows.map((r) => (r.measured ? `at ${r.measured.code} on ${r.measured.day}` : 'at an unrecorded commit')))];
  return runs.join('; ');
}

/**
 * Writes bench/imaging-extended.json and this set's section of RESULTS.md. A run of some categories
 * keeps the rows of the others from the last run, so the set can be measured a few categories at a
 * time on a busy machine; each row records the commit and day it was measured at, each category's
 * table shows them, and the run warns when kept rows were measured at other code than its own.
 */
export async function writeExtendedResults(ran: ExtendedRow[], engine: string, measuredAt: string, withAnchor: boolean): Promise<void> {
  const out = join(repoRoot(), 'bench', 'imaging-extended.json');
  const previous = await readFile(out, 'utf8').then((text) => (JSON.parse(text) as { rows: ExtendedRow[] }).rows, () => [] as ExtendedRow[]);
  const measured: Measured = { code: benchedCode(), day: measuredAt.slice(0, 10) };
  const fresh = ran.map((row) => ({ ...row, measured }));
  const categories = new Set(fresh.map((r) => r.category));
  const kept = previous.filter((r) => !categories.has(r.category));
  const stale = [...new Set(kept.filter((r) => r.measured?.code !== measured.code).map((r) => r.category))];
  if (stale.length) console.warn(`[bench] kept from an earlier run at other code than ${measured.code}: ${stale.join(', ')} (RESULTS.md says which)`);
  const rows = [...kept, ...fresh];
  const summary = summarise(rows);
  await writeFile(out, `${JSON.stringify({ engine, anchor: ANCHOR_LABEL, lastRunWithAnchor: withAnchor, measuredAt, targets: EXTENDED_TARGETS, ...summary, rows }, null, 2)}\n`);
  const speed = summary.cutoutMs1024Median;
  const body = [
    HEADING,
    '',
    `Measured by \`npm run bench:imaging\` (\`BENCH_IMAGING_SETS=extended\` runs this set alone) on ${measuredAt.slice(0, 10)} with the ${engine}; anchor: ${ANCHOR_LABEL} (— where a category was measured with \`BENCH_IMAGING_ANCHOR=0\`).`,
    'Written from bench/imaging-extended.json by the bench; `BENCH_IMAGING_CATEGORIES=pale,empty` remeasures some categories and keeps the others\' last rows.',
    '✓/✗ mark Prodshot against the target on the hold-out half only.',
    '',
    ...Object.entries(summary.categories).flatMap(([category, halves]) =>
      categoryTable(category as ExtendedCategory, halves!, measuredText(rows.filter((r) => r.category === category))),
    ),
    speed.photos
      ? `Cutout median on the ${speed.photos} photos 1024 px on their long side: Prodshot ${speed.prodshot} ms (target ≤ ${EXTENDED_CUTOUT_MS_TARGET} ms: ${met(speed.prodshot <= EXTENDED_CUTOUT_MS_TARGET)}), anchor ${Number.isNaN(speed.anchor) ? '—' : `${speed.anchor} ms`}. The machine is shared: times vary with load.`
      : 'No photo 1024 px on its long side was cut out in the categories measured: no cutout time yet.',
    '',
    'Method: made like the `real` set (src/bench/extended-set.ts): a corpus cutout composited into a photograph of',
    'bench/real-photos that the first set does not use (SOURCES.md there), 1024–1280 px, with a cast and contact shadow,',
    'uneven light, sensor noise and JPEG quality 80, all seeded; the truth is the product\'s alpha. Same-colour: another',
    'corpus cutout recoloured to the product\'s mean colour (keeping its shading) stands behind it, overlapping its side.',
    'Small in front of large: the product at 16–24% of the short side in front of a photographed scene or of a large',
    'corpus cutout. Taps are `{ x, y, keep }` fractions: a positive tap on the product\'s most interior pixel and, where a',
    'neighbour was composited, a negative tap on its most interior visible pixel; on a photographed scene (cups, bird on a',
    'trunk), a negative tap on each of its salient things (points read off the photograph alone, `salient` in',
    'extended-set.ts) the product does not cover. Prodshot is scored with all the taps, with the positive tap only (a',
    'single `focus` point) and with none. The anchor takes no taps.',
    'Thin part: the truth pixels of the part named per product (the bridge between the lenses, the mug\'s handle, the',
    'tote\'s strap), a box in fractions of the product\'s outline read off its picture (`thinParts` in extended-set.ts);',
    `present when the cutout keeps ≥ ${THIN_PART_PRESENT * 100}% of them. Shadow: pixels the source shadow darkened by ≥ 8%, 3 px or more from the product;`,
    'any of them in the mask (alpha ≥ 128) counts. Empty: Prodshot refuses by throwing EmptyImageError; the anchor has no',
    'refusal and counts as refusing only when it keeps under 0.5% of the photo. Split: each category\'s photographs sorted by',
    'file name, the 1st, 3rd… are the tuning half and the 2nd, 4th… the hold-out half (`halfOf` in extended-measures.ts).',
    '',
  ].join('\n');
  await replaceResultsSection(HEADING, body);
}
