import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { GenerationListItem } from '@prodshot/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { GenerationPopup } from '../components/ui/image-popup.js';
import { BOX_SIZES, RenditionImage } from '../components/ui/rendition-image.js';
import { Spinner } from '../components/ui/spinner.js';
import { CameraCapture } from '../features/camera/camera-capture.js';
import { CoachNotice } from '../features/coach/coach-notice.js';
import { QueryToastHost } from '../features/toasts/query-toast-host.js';
import { pickBatchFiles, type BatchDraftState } from '../features/batches/batch-files.js';
import { DropZone } from '../features/uploads/drop-zone.js';
import { DASHBOARD_MAX_BYTES, imageFileProblem } from '../features/uploads/image-intake.js';
import { ProductTitleField, useSaveProductTitle } from '../features/uploads/product-title.js';
import { usePasteImage } from '../features/uploads/use-paste-image.js';
import { storedSelection, toUploadItem, type EditorState, type SmartUploadState, type StoredSelection, type UploadItem } from '../features/uploads/upload-items.js';
import { useMediaQuery } from '../features/uploads/use-media-query.js';
import { api } from '../lib/api-client.js';
import { newIdempotencyKey, retryTransient } from '../lib/idempotency.js';
import { queryKeys } from '../lib/query-keys.js';

const RECENT_UPLOADS = 9;
const RECENT_GENERATIONS = 6;

/**
 * An upload handed over from another page (spec §2's selectedImage), by its ids only: a signed
 * link kept in history would have expired by the time Back or a reload brings the state again.
 */
interface SelectedImageState {
  selectedImage?: { id: string; fileId: string; name?: string; createdAt?: string; imageId?: string };
}

/** Where focus goes once the chosen image's card, or the drop zone, has taken the place of what had it. */
type FocusTarget = 'selected' | 'dropzone' | null;

export function DashboardPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const mobile = useMediaQuery('(max-width: 768px)');
  const images = useQuery({ queryKey: queryKeys.images, queryFn: api.images });
  const recent = useQuery({ queryKey: queryKeys.recentGenerations(RECENT_GENERATIONS), queryFn: () => api.recentGenerations(RECENT_GENERATIONS) });

  const [file, setFile] = useState<File | null>(null);
  const [filePreview, setFilePreview] = useState<string | null>(null);
  const [stored, setStored] = useState<StoredSelection | null>(null);
  // A stored upload's links come from the API: from the list when it holds the upload, else asked for.
  const storedImage = useQuery({
    queryKey: queryKeys.image(stored?.imageId ?? ''),
    queryFn: () => api.image(stored!.imageId),
    enabled: stored !== null,
    initialData: () => {
      const listed = images.data?.data.find((image) => image._id === stored?.imageId);
      return listed ? { data: listed } : undefined;
    },
    initialDataUpdatedAt: () => images.dataUpdatedAt,
  });
  const preview = file ? filePreview : stored ? (storedImage.data?.data.originalImage.previewUrl ?? null) : null;
  const [cameraOn, setCameraOn] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [popup, setPopup] = useState<GenerationListItem | null>(null);
  const [focusTarget, setFocusTarget] = useState<FocusTarget>(null);
  const selectedCard = useRef<HTMLDivElement>(null);
  const [title, setTitle] = useState('');
  const saveTitle = useSaveProductTitle();
  // A stored upload comes with the title the seller gave it; a fresh file starts without one.
  const storedTitle = stored ? (storedImage.data?.data.productTitle ?? '') : '';
  useEffect(() => setTitle(storedTitle), [stored?.imageId, storedTitle]);

  // The control that had focus (the file input, 'Choose another image') is gone once the
  // screen changes: focus follows to what took its place rather than falling back to <body>.
  useEffect(() => {
    if (!focusTarget) return;
    if (focusTarget === 'selected') selectedCard.current?.focus();
    else document.getElementById('image-input')?.focus();
    setFocusTarget(null);
  }, [focusTarget]);

  // A navigation from elsewhere may hand over an image to continue with; the URL is then reset.
  useEffect(() => {
    const selected = (location.state as SelectedImageState | null)?.selectedImage;
    if (!selected) return;
    setFile(null);
    setStored(storedSelection({ imageId: selected.imageId ?? selected.id, fileId: selected.fileId, name: selected.name, createdAt: selected.createdAt }));
    navigate('/dashboard', { replace: true, state: null });
  }, [location.state, navigate]);

  // Object URLs are released when replaced or on leaving.
  useEffect(() => {
    if (!filePreview) return;
    return () => URL.revokeObjectURL(filePreview);
  }, [filePreview]);

  const chooseFile = useCallback((chosen: File) => {
    setCameraOn(false);
    setError(null);
    setStored(null);
    setFile(chosen);
    setFilePreview(URL.createObjectURL(chosen));
    setFocusTarget('selected');
  }, []);

  // Dropped, picked or pasted: checked here, before anything is sent.
  const accept = useCallback(
    (chosen: File) => {
      const problem = imageFileProblem(chosen, DASHBOARD_MAX_BYTES);
      if (problem) return setError(problem);
      chooseFile(chosen);
    },
    [chooseFile],
  );

  // Several photos at once make a batch: one choice and one confirmation for all of them.
  function chooseFiles(chosen: File[]) {
    const { files, error: refused } = pickBatchFiles(chosen);
    if (files.length === 1) accept(files[0]!);
    else if (files.length > 1) navigate('/batches/new', { state: { files } satisfies BatchDraftState });
    setError(refused);
  }

  function reuse(item: UploadItem) {
    setCameraOn(false);
    setError(null);
    setFile(null);
    setFilePreview(null);
    setStored(storedSelection(item));
  }

  const upload = useMutation({
    mutationFn: ({ file: chosen, idempotencyKey }: { file: File; idempotencyKey: string }) => api.upload(chosen, chosen.name, idempotencyKey),
    retry: retryTransient,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.images }),
  });

  async function manual() {
    setError(null);
    let state: EditorState;
    try {
      if (stored && preview) state = { imageId: stored.imageId, fileId: stored.fileId, name: stored.name };
      else if (file) {
        const image = await upload.mutateAsync({ file, idempotencyKey: newIdempotencyKey() });
        // The editor reads the upload from the cache, fresh as it is, rather than asking again.
        queryClient.setQueryData(queryKeys.image(image._id), { data: image });
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
    if (stored && (await titleSaved(stored.imageId))) navigate('/smart-upload', { state: { imageId: stored.imageId, fileId: stored.fileId, name: stored.name } satisfies SmartUploadState });
  }

  usePasteImage(accept, !cameraOn && !upload.isPending);

  const onCameraError = useCallback((message: string) => {
    setCameraOn(false);
    setError(message);
  }, []);

  const uploads = (images.data?.data ?? []).map(toUploadItem).slice(0, RECENT_UPLOADS);
  const generations = recent.data?.data ?? [];
  const loading = images.isPending || recent.isPending;

  return (
    <div className="dashboard">
      <section className="dashboard-main">
        <header className="page-header">
          <h1>Upload Your Image, We&apos;ll Do the Magic</h1>
          <p className="lead">Turn a basic product photo into a polished, professional shoot</p>
        </header>

        {(images.isError || recent.isError || storedImage.isError) && (
          <p className="form-error" role="alert">
            Failed to load data. Please try again.
          </p>
        )}

        {cameraOn ? (
          <CameraCapture onCapture={chooseFile} onCancel={() => setCameraOn(false)} onError={onCameraError} />
        ) : preview ? (
          <div className="selected card" ref={selectedCard} tabIndex={-1} role="group" aria-label="Selected image">
            <img src={preview} alt={`Selected image ${file?.name ?? stored?.name ?? ''}`.trim()} className="selected-preview" width={256} height={256} />
            <div className="selected-meta">
              <p className="selected-name">{file?.name ?? stored?.name}</p>
              <ProductTitleField value={title} onChange={setTitle} />
              <button
                type="button"
                className="link-button"
                onClick={() => {
                  setFile(null);
                  setFilePreview(null);
                  setStored(null);
                  setFocusTarget('dropzone');
                }}
              >
                Choose another image
              </button>
            </div>
          </div>
        ) : stored && storedImage.isPending ? (
          <Spinner label="Loading your image" />
        ) : (
          <DropZone hint="PNG, JPG, GIF up to 10MB · up to 20 photos at once for a batch" onFile={accept} onFiles={chooseFiles} onReject={accept} pasteHint />
        )}

        {stored && !cameraOn && <CoachNotice warnings={storedImage.data?.data.coach} />}

        {mobile && !cameraOn && (
          <button type="button" className="button button-ghost button-block" onClick={() => setCameraOn(true)}>
            Take Photo
          </button>
        )}

        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}

        {preview && !cameraOn && (
          <div className="paths">
            <div className="path card">
              <h2>Smart Generation</h2>
              <p className="muted">We analyse your product and design four styles for it automatically.</p>
              <button type="button" className="button button-block" onClick={() => void smart()}>
                Continue with Smart Upload
              </button>
            </div>
            <div className="path card">
              <h2>Manual Generation</h2>
              <p className="muted">Pick one of nine templates or describe your own background.</p>
              <button type="button" className="button button-ghost button-block" onClick={manual} disabled={upload.isPending}>
                {upload.isPending ? 'Uploading…' : 'Continue with Manual Design'}
              </button>
            </div>
          </div>
        )}
      </section>

      <aside className="sidebar" aria-label="Your images">
        <section>
          <div className="sidebar-head">
            <h2>Uploads</h2>
            <Link to="/all-uploads">View All</Link>
          </div>
          {loading ? (
            <Spinner label="Loading uploads" />
          ) : uploads.length === 0 ? (
            <div className="empty">
              <p>No uploads yet</p>
              {!preview && !cameraOn && (
                <button type="button" className="button button-small" onClick={() => document.getElementById('image-input')?.click()}>
                  Upload your first photo
                </button>
              )}
            </div>
          ) : (
            <ul className="thumb-grid">
              {uploads.map((item) => (
                <li key={item.imageId}>
                  <button type="button" className="thumb" onClick={() => reuse(item)} aria-label={`Use ${item.name}`}>
                    <RenditionImage image={item} sizes={BOX_SIZES.sidebarThumb} alt={item.name} />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section>
          <div className="sidebar-head">
            <h2>Generations</h2>
            <Link to="/all-generations">View All</Link>
          </div>
          {loading ? (
            <Spinner label="Loading generations" />
          ) : generations.length === 0 ? (
            <p className="empty">No recent generations</p>
          ) : (
            <ul className="thumb-grid">
              {generations.map((item) => (
                <li key={item.id}>
                  <button type="button" className="thumb" onClick={() => setPopup(item)} aria-label={`Open generation ${item.id}`}>
                    <RenditionImage image={item} sizes={BOX_SIZES.sidebarThumb} alt={`Generation ${item.id}`} />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      </aside>
      {popup && <GenerationPopup generation={popup} onClose={() => setPopup(null)} />}
      <QueryToastHost />
    </div>
  );
}
