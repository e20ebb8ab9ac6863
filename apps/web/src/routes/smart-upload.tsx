import { SMART_STYLES_DEFAULT, SMART_STYLES_MAX, type Focus } from '@prodshot/contracts';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { CoachNotice } from '../features/coach/coach-notice.js';
import { coachWarnings } from '../features/coach/coach-warnings.js';
import { focusToSend, OutlineCheck, outlineHolds } from '../features/subject/outline-check.js';
import { TapToPick } from '../features/subject/tap-to-pick.js';
import { useSubject } from '../features/subject/api/get-subject.js';
import { DropZone } from '../features/uploads/drop-zone.js';
import { useCachedImage, useImage } from '../features/uploads/api/get-image.js';
import { useUploadNamedImage } from '../features/uploads/api/upload-image.js';
import { ProductTitleField } from '../components/ui/product-title-field.js';
import { usePasteImage } from '../features/uploads/use-paste-image.js';
import type { SmartUploadState } from '../features/uploads/upload-items.js';
import { CountChoice } from '../components/ui/count-choice.js';
import { useSmartGenerate } from '../features/generations/api/smart-generate.js';
import { SmartHeader } from '../features/generations/smart-header.js';
import { ApiErrorNotice } from '../components/ui/api-error-notice.js';
import { ApiError } from '../lib/api-client.js';
import { newIdempotencyKey } from '../lib/idempotency.js';
import { imageFileProblem, SMART_MAX_BYTES } from '../lib/image-intake.js';
import '../features/uploads/uploads.css';
import '../features/generations/smart.css';

type Source = { kind: 'file'; file: File } | { kind: 'stored'; imageId: string; fileId: string; name?: string };
/** The stored upload a run is about: its subject decides whether the seller must tap first. */
interface StoredImage {
  imageId: string;
  fileId: string;
  imageUrl?: string;
}

function sourceFromState(state: SmartUploadState | null): Source | null {
  if (!state) return null;
  if ('file' in state) return { kind: 'file', file: state.file };
  return { kind: 'stored', imageId: state.imageId, fileId: state.fileId, name: state.name };
}

/**
 * The preview of a fresh file comes from its own object URL: the dashboard releases the one it
 * passes along as it unmounts, which left a broken image here. A stored image's comes from the API,
 * signed now.
 */
function usePreviewUrl(source: Source | null): string | null {
  const file = source?.kind === 'file' ? source.file : null;
  const storedId = source?.kind === 'stored' ? source.imageId : null;
  const stored = useImage(storedId);
  const [fileUrl, setFileUrl] = useState<{ file: File; url: string } | null>(null);
  useEffect(() => {
    if (!file) return;
    const url = URL.createObjectURL(file);
    setFileUrl({ file, url });
    return () => URL.revokeObjectURL(url);
  }, [file]);
  if (!source) return null;
  if (source.kind === 'stored') return stored.data?.data.originalImage.previewUrl ?? null;
  return fileUrl?.file === source.file ? fileUrl.url : null;
}

/**
 * The start of a smart run: upload (or take the stored image), tap the product when the engine
 * asks, start. Once the run has an id the page gives way to /smart/:generationId, in place of this
 * history entry, so Back and reload lead to that run and never to a second one.
 */
export function SmartUploadPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const [handedOver] = useState(() => sourceFromState(location.state as SmartUploadState | null));
  // A handed-over file over this page's limit is refused (below) before anything is sent.
  const [refusedHandover] = useState(() =>
    handedOver?.kind === 'file' ? imageFileProblem(handedOver.file, SMART_MAX_BYTES) : null,
  );
  const [source, setSource] = useState<Source | null>(refusedHandover ? null : handedOver);
  const [error, setError] = useState<string | null>(refusedHandover);
  // The start's own failure: a refusal for credits or a plan shows its way on, not a plain line.
  const [startError, setStartError] = useState<Error | null>(null);
  const [title, setTitle] = useState(() => (location.state as { productTitle?: string } | null)?.productTitle ?? '');
  const [image, setImage] = useState<StoredImage | null>(null);
  const [focus, setFocus] = useState<Focus | null>(null);
  const [styleCount, setStyleCount] = useState(SMART_STYLES_DEFAULT);
  // The image whose run started without a tap: once, so a failed start waits for the seller's retry.
  const [autoStarted, setAutoStarted] = useState<StoredImage | null>(null);
  const { subject, phase } = useSubject(image?.imageId ?? null);
  const previewUrl = usePreviewUrl(source);

  const upload = useUploadNamedImage({
    onUploaded: (uploaded) =>
      setImage({ imageId: uploaded._id, fileId: uploaded.fileId, imageUrl: uploaded.originalImage.url }),
    onError: (caught) =>
      setError(
        caught instanceof ApiError
          ? `Upload failed: ${caught.message}`
          : 'Failed to upload image: Invalid server response',
      ),
  });

  const smart = useSmartGenerate({
    onStarted: (generationId) => navigate(`/smart/${encodeURIComponent(generationId)}`, { replace: true }),
    onError: setStartError,
  });

  /** Stores the upload (or takes the stored image); generation waits for its subject. */
  function start(chosen: Source | null) {
    setError(null);
    setStartError(null);
    if (!chosen) return setError('Please select a file first');
    setFocus(null);
    if (chosen.kind === 'stored') return setImage({ imageId: chosen.imageId, fileId: chosen.fileId });
    upload.mutate({ file: chosen.file, title, idempotencyKey: newIdempotencyKey() });
  }

  function generate(target: StoredImage, chosenFocus: Focus | null) {
    setError(null);
    setStartError(null);
    const focus = focusToSend(subject, chosenFocus);
    smart.mutate({
      body: {
        imageId: target.imageId,
        fileId: target.fileId,
        imageUrl: target.imageUrl,
        styleCount,
        ...(focus ? { focus } : {}),
      },
      idempotencyKey: newIdempotencyKey(),
    });
  }

  const uploaded = useCachedImage(image?.imageId ?? null);
  const warnings = image ? coachWarnings(subject, uploaded) : [];
  // No tap needed (or the subject cannot be read: the engine then keeps the most salient object):
  // start at once. The coach's tips never hold a run: they stay in sight on the run page.
  // An unsure outline waits for the seller's "Yes, that's my product" or their tap: no credit is held before.
  const outlineWaits = outlineHolds(subject, focus);
  // Taps on the outline are fixed one after another (and undone): the seller says when they are done.
  const fixingOutline = Boolean(subject?.outline?.focus);
  const startsByItself =
    image !== null &&
    autoStarted !== image &&
    (phase === 'ready' || phase === 'unavailable') &&
    !outlineWaits &&
    !fixingOutline;
  useEffect(() => {
    if (!startsByItself || !image) return;
    setAutoStarted(image);
    generate(image, null);
  }, [startsByItself, image]);

  // The dashboard's 'Continue with Smart Upload' click is the request, handed over in router state.
  // History keeps that state for Back and reload: it is cleared before anything starts, so only the
  // click itself ever starts a run.
  const started = useRef(false);
  useEffect(() => {
    if (started.current || !handedOver) return;
    started.current = true;
    navigate(location.pathname, { replace: true, state: null });
    if (!refusedHandover) start(handedOver);
  }, []);

  function pick(file: File) {
    const problem = imageFileProblem(file, SMART_MAX_BYTES);
    if (problem) return setError(problem);
    setError(null);
    setSource({ kind: 'file', file });
  }

  function chooseAnother() {
    setSource(null);
    setImage(null);
    setFocus(null);
    setError(null);
    setStartError(null);
  }

  const busy = upload.isPending || smart.isPending;
  const waiting = busy || startsByItself || (image !== null && phase === 'pending');
  const tapMissing = phase === 'tap' && focus === null;
  usePasteImage(pick, image === null && !busy);

  return (
    <div className="smart narrow">
      <SmartHeader />
      <div className="smart-grid smart-grid-one">
        <section className="card">
          {/* First in the card: the run did not start, and the pictures below it may still be loading. */}
          {startError && (
            <ApiErrorNotice error={startError} prefix="Failed to get style recommendations" fallback="unknown error" />
          )}
          {source && image && previewUrl ? (
            <TapToPick
              src={previewUrl}
              alt="Your product"
              subject={subject}
              phase={phase}
              focus={focus}
              onFocus={setFocus}
              locked={busy}
              imageClassName="selected-preview"
            />
          ) : source ? (
            previewUrl && <img className="selected-preview" src={previewUrl} alt="Your product" />
          ) : (
            <DropZone hint="Supports JPEG, PNG, WebP (Max 5MB)" onFile={pick} onReject={pick} pasteHint />
          )}
          {image && <OutlineCheck subject={subject} locked={busy} />}
          <CoachNotice warnings={warnings} />
          {source && !busy && (
            <button type="button" className="link-button" onClick={chooseAnother}>
              Choose another image
            </button>
          )}
          {source?.kind === 'file' && image === null && !busy && (
            <ProductTitleField value={title} onChange={setTitle} />
          )}
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          {phase !== 'failed' && !waiting && (
            <div className="smart-count">
              <CountChoice
                name="style-count"
                legend="Number of styles"
                max={SMART_STYLES_MAX}
                count={styleCount}
                onCount={setStyleCount}
              />
            </div>
          )}
          {phase !== 'failed' && (
            <button
              type="button"
              className="button button-block button-large"
              onClick={() => (image ? generate(image, focus) : start(source))}
              disabled={waiting || tapMissing || outlineWaits}
            >
              {waiting ? 'Starting…' : 'Generate Product Shots'}
            </button>
          )}
        </section>
      </div>
    </div>
  );
}
