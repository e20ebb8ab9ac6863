import sharp from 'sharp';
import { EXPORT_PRESETS, type ComplianceCheckJob } from '@prodshot/contracts';
import { complianceLines, complianceNote, measure, outputPlate, scenePlate, type ExportScene } from '@prodshot/imaging';
import { outputSource } from '../pipeline/export-source.js';
import type { JobHandler } from './index.js';

/**
 * Measures a stored file (an output, or one of its exports) against a marketplace preset. Where the
 * local engine rendered the background, it is rendered again as the reference the product and any
 * added mark are told apart from; a plain or transparent background needs none.
 */
export const complianceCheck: JobHandler<'compliance-check'> = {
  async run(job, deps) {
    const { userId, generationId, outputIndex, preset, key, subject } = job.data;
    const source = await outputSource(deps, userId, generationId, outputIndex);
    const { data, info } = await sharp(await deps.store.get(key))
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const reference = source.scene ? await referenceFor(subject, source.scene, info.width, info.height) : null;
    const measured = measure({ data, width: info.width, height: info.height }, reference);
    const lines = complianceLines(measured, {
      preset: EXPORT_PRESETS[preset],
      exportedFor: subject.kind === 'export' ? subject.preset : undefined,
    });
    const note = complianceNote(measured, EXPORT_PRESETS[preset]);
    return {
      generationId,
      outputIndex,
      preset,
      subject,
      width: info.width,
      height: info.height,
      passed: lines.every((line) => line.status === 'pass'),
      lines,
      note,
    };
  },
};

/** The background we rendered behind the product in this file, when it was a scene. */
async function referenceFor(
  subject: ComplianceCheckJob['subject'],
  scene: ExportScene,
  width: number,
  height: number,
): Promise<Buffer | null> {
  if (subject.kind === 'output') return width === height ? outputPlate(scene, width) : null;
  return EXPORT_PRESETS[subject.preset].background === 'scene' ? scenePlate(scene, width, height) : null;
}
