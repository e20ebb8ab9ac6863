import {
  emptyPhotoWarning,
  outlineDto,
  productReading,
  subjectDto,
  type CoachWarning,
  type OutlineDto,
  type ShotSize,
  type SubjectFinding,
} from '@prodshot/contracts';
import {
  EmptyImageError,
  guessKind,
  isImagingError,
  productWarnings,
  readProductMask,
  type ProductFinding,
} from '@prodshot/imaging';
import { storeCutout } from '../pipeline/cutout.js';
import { makeOutline } from '../pipeline/outline.js';
import { storeRenditions } from '../pipeline/renditions.js';
import type { JobHandler } from './index.js';

/**
 * After an upload: finds the product (or the candidates the seller must choose from) and, when it
 * is clear, makes the cutout every later generation reuses, while the main thread writes the
 * upload's thumbnail and preview (lists show those), so the seller waiting to generate does not
 * wait for them in turn. The finding goes on the image's row and to the owner's socket, where the
 * upload screens wait for it; the renditions are recorded first, as a list asks a worker for those
 * of any analysed upload that has none. The photo coach's product checks (cut off, too small, busy
 * background) go with the finding: they need the product's mask; a refused photo's reason goes
 * to the coach too. So does the outline the seller
 * checks before paying: made from that cutout (the untapped one, even where the tap step will ask),
 * with whether the engine is unsure of it. So does what the photo shows (its product kind), so that
 * a batch says which photos Prodshot shoots before the seller confirms it.
 */
export const analyseUpload: JobHandler<'analyse-upload'> = {
  async run(job, deps) {
    const { userId, imageId, sourceKey, shotSize } = job.data;
    const source = await deps.store.get(sourceKey);
    const images = deps.repos.images;
    const renditions = storeRenditions(deps.store, sourceKey, source).then(
      () => null,
      (error: unknown) => error,
    );
    // The untapped cutout starts beside the finding, on a second engine thread: both read the one
    // model run (the model thread keeps its mask), so the cutout's edge work overlaps the analysis
    // instead of following it, and the outline reaches the seller sooner. It is kept only for a
    // photo the finding does not refuse.
    const cutout = deps.engine.removeBackground(source);
    // Its failure is read where the outline needs it; until then it is no unhandled rejection.
    cutout.catch(() => undefined);
    let finding: SubjectFinding;
    let coach: CoachWarning[] = [];
    let unreadable = false;
    let outline: OutlineDto | null = null;
    // The photo's kind, read beside the product (a hosted vision call): the batch draft shows it
    // before anything is charged. A reading that fails leaves none: the run reads the photo again.
    const reading = deps.engine.readKind(source, { sellerId: userId }).then(
      ({ kind }) => productReading(kind),
      () => undefined,
    );
    try {
      const { width, height, subject } = await deps.engine.findProduct(source);
      finding = {
        found: true,
        product: await reading,
        needsFocus: subject.needsFocus,
        confidence: subject.confidence,
        candidates: subject.candidates.map(({ box, point, score }) => ({
          box: { x: box.x / width, y: box.y / height, width: box.width / width, height: box.height / height },
          point,
          score,
        })),
      };
      coach = await coachProduct({ subject, width, shotSize }, (await images.findOwned(userId, imageId))?.name);
      const made = await makeOutline(
        deps,
        { imageId, sourceKey },
        { confidence: subject.confidence, severalObjects: subject.needsFocus },
        await storeCutout(deps, sourceKey, await cutout),
      );
      outline = outlineDto(made, await deps.store.signedUrl(made.key));
    } catch (error) {
      // Nothing of the job is left computing when it ends, whatever ended it.
      await cutout.catch(() => undefined);
      // A photo with nothing to cut out is an answer, not a failure: the screens show why.
      if (!(isImagingError(error) && (error.code === 'empty_image' || error.code === 'corrupt_image'))) {
        // The job ends with nothing of its own still writing: a retry or a shutdown follows it.
        await renditions;
        throw error;
      }
      // The seller may still tap their product where the engine saw none in a readable photo.
      finding = {
        found: false,
        error: error.message,
        tapMayFind: error instanceof EmptyImageError && error.tapMayFind,
      };
      unreadable = error.code === 'corrupt_image';
      // The coach says why too, where the seller reads its advice.
      if (error instanceof EmptyImageError)
        coach = [
          emptyPhotoWarning(error.reason, guessKind({ title: (await images.findOwned(userId, imageId))?.name }).kind),
        ];
    }
    const renditionsFailure = await renditions;
    // Lists keep showing an unreadable upload by its own URL; retrying would only fail again.
    if (renditionsFailure && !unreadable) throw renditionsFailure;
    if (!renditionsFailure) await images.setRenditions(imageId);
    const warnings = await images.setSubject(imageId, finding, coach);
    deps.publisher.emit(userId, 'image:subject', subjectDto(imageId, finding, warnings, outline));
    return { imageId, needsFocus: finding.found && finding.needsFocus };
  },
  async onFinalFailure(payload, message, deps) {
    const finding: SubjectFinding = { found: false, error: message };
    const warnings = await deps.repos.images.setSubject(payload.imageId, finding);
    deps.publisher.emit(payload.userId, 'image:subject', subjectDto(payload.imageId, finding, warnings));
  },
};

/** The coach's product checks on the found product, for the plan's shots, its advice naming the kind the upload's name suggests. */
async function coachProduct(
  found: { subject: ProductFinding['subject']; width: number; shotSize: ShotSize },
  name: string | undefined,
): Promise<CoachWarning[]> {
  const { subject } = found;
  const mask = await readProductMask(subject.maskPng);
  return productWarnings(
    { mask, photoWidth: found.width, candidates: subject.candidates.length, needsFocus: subject.needsFocus },
    found.shotSize,
    guessKind({ title: name }).kind,
  );
}
