import type { GenerationListItem } from '@prodshot/contracts';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Spinner } from '../components/ui/spinner.js';
import { pickBatchFiles, type BatchDraftState } from '../features/batches/batch-files.js';
import { CameraCapture } from '../features/camera/camera-capture.js';
import { CoachNotice } from '../features/coach/coach-notice.js';
import { totalCredits, useSubscription } from '../features/credits/api/get-subscription.js';
import { QueryToastHost } from '../features/credits/query-toast-host.js';
import { useRecentGenerations } from '../features/generations/api/get-recent-generations.js';
import { GenerationThumbs } from '../features/generations/generation-thumbs.js';
import { useSaveProductTitle } from '../features/uploads/api/set-image-title.js';
import { useUploadImage } from '../features/uploads/api/upload-image.js';
import { DropZone } from '../features/uploads/drop-zone.js';
import { PathChoice } from '../features/uploads/path-choice.js';
import { SelectedImage } from '../features/uploads/selected-image.js';
import { toUploadItem, type EditorState, type SmartUploadState } from '../features/uploads/upload-items.js';
import { UploadThumbs } from '../features/uploads/upload-thumbs.js';
import { usePasteImage } from '../features/uploads/use-paste-image.js';
import { usePhotoSelection } from '../features/uploads/use-photo-selection.js';
import { useMediaQuery } from '../hooks/use-media-query.js';
import { newIdempotencyKey } from '../lib/idempotency.js';
import './dashboard.css';

// The popup (export, checklist, more like this) is its own chunk, fetched on the first tap on a shot:
// the dashboard's first screen does not wait for it.
const GenerationPopup = lazy(() =>
  import('../features/generations/generation-popup.js').then((m) => ({ default: m.GenerationPopup })),
);

const RECENT_UPLOADS = 9;
const RECENT_GENERATIONS = 6;

export function DashboardPage() {
  const navigate = useNavigate();
  const mobile = useMediaQuery('(max-width: 768px)');
  const selection = usePhotoSelection();
  const { images, file, stored, storedImage, preview, cameraOn, setCameraOn, error, setError, title, accept } =
    selection;
  const recent = useRecentGenerations(RECENT_GENERATIONS);
  const [popup, setPopup] = useState<GenerationListItem | null>(null);
  const saveTitle = useSaveProductTitle();
  const upload = useUploadImage();
  const subscription = useSubscription();
  const paths = useRef<HTMLDivElement>(null);

  // On a phone the chosen photo fills the screen: the next step is brought into view with it.
  const chosen = Boolean(preview) && !cameraOn;
  useEffect(() => {
    if (chosen) paths.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [chosen]);

  // Several photos at once make a batch: one choice and one confirmation for all of them.
  function chooseFiles(chosen: File[]) {
    const { files, error: refused } = pickBatchFiles(chosen);
    if (files.length === 1) accept(files[0]!);
    else if (files.length > 1) navigate('/batches/new', { state: { files } satisfies BatchDraftState });
    setError(refused);
  }

  async function manual() {
    setError(null);
    let state: EditorState;
    try {
      if (stored && preview) state = { imageId: stored.imageId, fileId: stored.fileId, name: stored.name };
      else if (file) {
        const image = await upload.mutateAsync({ file, idempotencyKey: newIdempotencyKey() });
        state = { imageId: image._id, fileId: image.fileId, name: image.name };
      } else return;
    } catch {
      return setError('Failed to upload image. Please try again.');
    }
    if (await titleSaved(state.imageId)) navigate('/editor', { state });
  }

  async function titleSaved(imageId: string): Promise<boolean> {
    try {
      await saveTitle({ _id: imageId }, title);
      return true;
    } catch {
      setError('Failed to save the product title. Please try again.');
      return false;
    }
  }

  async function smart() {
    if (!preview) return;
    setError(null);
    // A fresh file is uploaded on the smart page, which names it there; a stored one is named now.
    if (file) return navigate('/smart-upload', { state: { file, productTitle: title } satisfies SmartUploadState });
    if (stored && (await titleSaved(stored.imageId)))
      navigate('/smart-upload', {
        state: { imageId: stored.imageId, fileId: stored.fileId, name: stored.name } satisfies SmartUploadState,
      });
  }

  usePasteImage(accept, !cameraOn && !upload.isPending);

  const uploads = (images.data?.data ?? []).map(toUploadItem).slice(0, RECENT_UPLOADS);
  const loading = images.isPending || recent.isPending;
  // Everything under the heading appears at once, when the account and both lists are known: a
  // banner or a list landing later pushed the rest of the page down.
  const settling = loading || subscription.isPending;
  const planless =
    subscription.data !== undefined &&
    subscription.data.effectivePlan === 'none' &&
    totalCredits(subscription.data) === 0;

  return (
    <div className="dashboard">
      <section className="dashboard-main">
        <header className="page-header">
          <h1>Upload Your Image, We&apos;ll Do the Magic</h1>
          <p className="lead">Turn a basic product photo into a polished, professional shoot</p>
        </header>

        {settling ? (
          <Spinner label="Loading your dashboard" />
        ) : (
          <>
            {planless && (
              <p className="notice plan-banner" role="note">
                <strong>Pick a plan to start.</strong> Your account has no plan and no credits yet.{' '}
                <Link to="/pricing" className="button button-small">
                  See plans
                </Link>
              </p>
            )}
            {(images.isError || recent.isError || storedImage.isError) && (
              <p className="form-error" role="alert">
                Failed to load data. Please try again.
              </p>
            )}

            {cameraOn ? (
              <CameraCapture
                onCapture={selection.chooseFile}
                onCancel={() => setCameraOn(false)}
                onError={selection.onCameraError}
              />
            ) : preview ? (
              <SelectedImage
                cardRef={selection.selectedCard}
                preview={preview}
                name={file?.name ?? stored?.name}
                title={title}
                onTitle={selection.setTitle}
                onChooseAnother={selection.chooseAnother}
              />
            ) : stored && storedImage.isPending ? (
              <Spinner label="Loading your image" />
            ) : (
              <DropZone
                hint="PNG, JPG, GIF up to 10MB · up to 20 photos at once for a batch"
                onFile={accept}
                onFiles={chooseFiles}
                onReject={accept}
                pasteHint
              />
            )}

            {stored && !cameraOn && <CoachNotice warnings={storedImage.data?.data.coach} />}

            {/* Once a photo is chosen the way on is Continue: a second camera button only pushed it down. */}
            {mobile && !cameraOn && !preview && (
              <button type="button" className="button button-ghost button-block" onClick={() => setCameraOn(true)}>
                Take Photo
              </button>
            )}

            {error && (
              <p className="form-error" role="alert">
                {error}
              </p>
            )}

            {chosen && (
              <PathChoice ref={paths} onSmart={() => void smart()} onManual={manual} uploading={upload.isPending} />
            )}
          </>
        )}
      </section>

      {!settling && (
        <aside className="sidebar" aria-label="Your images">
          <UploadThumbs uploads={uploads} offerFirstUpload={!preview && !cameraOn} onReuse={selection.reuse} />
          <GenerationThumbs items={recent.data?.data ?? []} onOpen={setPopup} />
        </aside>
      )}
      {popup && (
        <Suspense fallback={null}>
          <GenerationPopup generation={popup} onClose={() => setPopup(null)} />
        </Suspense>
      )}
      <QueryToastHost />
    </div>
  );
}
