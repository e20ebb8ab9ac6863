import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { GenerationPopup } from '../components/ui/image-popup.js';
import { Spinner } from '../components/ui/spinner.js';
import { CameraCapture } from '../features/camera/camera-capture.js';
import { QueryToastHost } from '../features/toasts/query-toast-host.js';
import { DropZone } from '../features/uploads/drop-zone.js';
import { storedSelection, toUploadItem, type EditorState, type SmartUploadState, type StoredSelection, type UploadItem } from '../features/uploads/upload-items.js';
import { useMediaQuery } from '../features/uploads/use-media-query.js';
import { api } from '../lib/api-client.js';
import { newIdempotencyKey, retryTransient } from '../lib/idempotency.js';
import { queryKeys } from '../lib/query-keys.js';

const RECENT_UPLOADS = 9;
const RECENT_GENERATIONS = 6;

interface SelectedImageState {
  selectedImage?: { id: string; fileId: string; name?: string; originalUrl: string; createdAt?: string; imageId?: string };
}

export function DashboardPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const mobile = useMediaQuery('(max-width: 768px)');
  const images = useQuery({ queryKey: queryKeys.images, queryFn: api.images });
  const recent = useQuery({ queryKey: queryKeys.recentGenerations(RECENT_GENERATIONS), queryFn: () => api.recentGenerations(RECENT_GENERATIONS) });

  const [file, setFile] = useState<File | null>(null);
  const [stored, setStored] = useState<StoredSelection | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [cameraOn, setCameraOn] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [popup, setPopup] = useState<{ id: string; imageUrl: string } | null>(null);

  // A navigation from elsewhere may hand over an image to continue with; the URL is then reset.
  useEffect(() => {
    const selected = (location.state as SelectedImageState | null)?.selectedImage;
    if (!selected) return;
    setFile(null);
    setStored(storedSelection({ imageId: selected.imageId ?? selected.id, fileId: selected.fileId, name: selected.name, createdAt: selected.createdAt }));
    setPreview(selected.originalUrl);
    navigate('/dashboard', { replace: true, state: null });
  }, [location.state, navigate]);

  // Object URLs are released when replaced or on leaving.
  useEffect(() => {
    if (!file || !preview?.startsWith('blob:')) return;
    return () => URL.revokeObjectURL(preview);
  }, [file, preview]);

  const chooseFile = useCallback((chosen: File) => {
    setCameraOn(false);
    setError(null);
    setStored(null);
    setFile(chosen);
    setPreview(URL.createObjectURL(chosen));
  }, []);

  function reuse(item: UploadItem) {
    setCameraOn(false);
    setError(null);
    setFile(null);
    setStored(storedSelection(item));
    setPreview(item.originalUrl);
  }

  const upload = useMutation({
    mutationFn: ({ file: chosen, idempotencyKey }: { file: File; idempotencyKey: string }) => api.upload(chosen, chosen.name, idempotencyKey),
    retry: retryTransient,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.images }),
  });

  async function manual() {
    setError(null);
    try {
      let state: EditorState;
      if (stored && preview) state = { imageUrl: preview, imageId: stored.imageId, fileId: stored.fileId, name: stored.name };
      else if (file) {
        const image = await upload.mutateAsync({ file, idempotencyKey: newIdempotencyKey() });
        state = { imageUrl: image.originalImage.url, imageId: image._id, fileId: image.fileId, name: image.name };
      } else return;
      navigate('/editor', { state });
    } catch {
      setError('Failed to upload image. Please try again.');
    }
  }

  function smart() {
    if (!preview) return;
    const state: SmartUploadState | null = file
      ? { file, previewUrl: preview }
      : stored
        ? { imageId: stored.imageId, fileId: stored.fileId, previewUrl: preview, name: stored.name }
        : null;
    if (state) navigate('/smart-upload', { state });
  }

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

        {(images.isError || recent.isError) && (
          <p className="form-error" role="alert">
            Failed to load data. Please try again.
          </p>
        )}

        {cameraOn ? (
          <CameraCapture onCapture={chooseFile} onCancel={() => setCameraOn(false)} onError={onCameraError} />
        ) : preview ? (
          <div className="selected card">
            <img src={preview} alt={`Selected image ${file?.name ?? stored?.name ?? ''}`.trim()} className="selected-preview" />
            <div className="selected-meta">
              <p className="selected-name">{file?.name ?? stored?.name}</p>
              <button
                type="button"
                className="link-button"
                onClick={() => {
                  setFile(null);
                  setStored(null);
                  setPreview(null);
                }}
              >
                Choose another image
              </button>
            </div>
          </div>
        ) : (
          <DropZone hint="PNG, JPG, GIF up to 10MB" onFile={chooseFile} />
        )}

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
              <button type="button" className="button button-block" onClick={smart}>
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
            <p className="empty">No uploads yet</p>
          ) : (
            <ul className="thumb-grid">
              {uploads.map((item) => (
                <li key={item.imageId}>
                  <button type="button" className="thumb" onClick={() => reuse(item)} aria-label={`Use ${item.name}`}>
                    <img src={item.originalUrl} alt={item.name} loading="lazy" />
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
                  <button type="button" className="thumb" onClick={() => setPopup({ id: item.id, imageUrl: item.imageUrl })} aria-label={`Open generation ${item.id}`}>
                    <img src={item.imageUrl} alt={`Generation ${item.id}`} loading="lazy" />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      </aside>
      {popup && <GenerationPopup id={popup.id} imageUrl={popup.imageUrl} onClose={() => setPopup(null)} />}
      <QueryToastHost />
    </div>
  );
}
