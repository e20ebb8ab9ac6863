import { subjectDto, type SubjectFinding } from '@prodshot/contracts';
import { ImagesRepository } from '@prodshot/db';
import { isImagingError } from '@prodshot/imaging';
import { loadOrMakeCutout } from '../pipeline/cutout.js';
import { storeRenditions } from '../pipeline/renditions.js';
import type { JobHandler } from './index.js';

/**
 * After an upload: finds the product (or the candidates the seller must choose from) and, when it
 * is clear, makes the cutout every later generation reuses. The finding goes on the image's row
 * and to the owner's socket, where the upload screens wait for it; only then are the thumbnail and
 * preview written (lists show those, and the upload's own URL until they exist), so a seller
 * waiting to generate never waits for them.
 */
export const analyseUpload: JobHandler<'analyse-upload'> = {
  async run(job, deps) {
    const { userId, imageId, sourceKey } = job.data;
    const source = await deps.store.get(sourceKey);
    const images = new ImagesRepository(deps.db);
    let finding: SubjectFinding;
    let unreadable = false;
    try {
      const { width, height, subject } = await deps.engine.findProduct(source);
      finding = {
        found: true,
        needsFocus: subject.needsFocus,
        confidence: subject.confidence,
        candidates: subject.candidates.map(({ box, point, score }) => ({
          box: { x: box.x / width, y: box.y / height, width: box.width / width, height: box.height / height },
          point,
          score,
        })),
      };
      if (!subject.needsFocus) await loadOrMakeCutout(deps, sourceKey);
    } catch (error) {
      // A photo with nothing to cut out is an answer, not a failure: the screens show why.
      if (!(isImagingError(error) && (error.code === 'empty_image' || error.code === 'corrupt_image'))) throw error;
      finding = { found: false, error: error.message };
      unreadable = error.code === 'corrupt_image';
    }
    await images.setSubject(imageId, finding);
    deps.publisher.emit(userId, 'image:subject', subjectDto(imageId, finding));
    // Lists keep showing an unreadable upload by its own URL; retrying would only fail again.
    if (!unreadable) {
      await storeRenditions(deps.store, sourceKey, source);
      await images.setRenditions(imageId);
    }
    return { imageId, needsFocus: finding.found && finding.needsFocus };
  },
  async onFinalFailure(payload, message, deps) {
    const finding: SubjectFinding = { found: false, error: message };
    await new ImagesRepository(deps.db).setSubject(payload.imageId, finding);
    deps.publisher.emit(payload.userId, 'image:subject', subjectDto(payload.imageId, finding));
  },
};
