import { SUPPORTED_PRODUCT_LIST, type Focus, type GenerationDto } from '@prodshot/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { isFinished, progressPercent, smartFailure, STAGE_LABELS, stepStates } from '../features/generations/smart-status.js';
import { TapToPick } from '../features/subject/tap-to-pick.js';
import { useSubject } from '../features/subject/use-subject.js';
import { DropZone } from '../features/uploads/drop-zone.js';
import type { SmartResultsState, SmartUploadState } from '../features/uploads/upload-items.js';
import { api, ApiError } from '../lib/api-client.js';
import { queryKeys } from '../lib/query-keys.js';

const SMART_MAX_BYTES = 5 * 1024 * 1024;
/** Spec §4: results show this long after the last style lands. */
const RESULTS_DELAY_MS = 500;
const STYLE_COUNT = 4;

type Source = { kind: 'file'; file: File } | { kind: 'stored'; imageId: string; fileId: string; previewUrl: string; name?: string };
/** The stored upload a run is about: its subject decides whether the seller must tap first. */
interface StoredImage {
  imageId: string;
  fileId: string;
  imageUrl?: string;
}

function sourceFromState(state: SmartUploadState | null): Source | null {
  if (!state) return null;
  if ('file' in state) return { kind: 'file', file: state.file };
  return { kind: 'stored', imageId: state.imageId, fileId: state.fileId, previewUrl: state.previewUrl, name: state.name };
}

/**
 * The preview of a fresh file comes from its own object URL: the dashboard releases the one it
 * passes along as it unmounts, which left a broken image here.
 */
function usePreviewUrl(source: Source | null): string | null {
  const file = source?.kind === 'file' ? source.file : null;
  const [fileUrl, setFileUrl] = useState<{ file: File; url: string } | null>(null);
  useEffect(() => {
    if (!file) return;
    const url = URL.createObjectURL(file);
    setFileUrl({ file, url });
    return () => URL.revokeObjectURL(url);
  }, [file]);
  if (!source) return null;
  if (source.kind === 'stored') return source.previewUrl;
  return fileUrl?.file === source.file ? fileUrl.url : null;
}

export function SmartUploadPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const initial = useRef(sourceFromState(location.state as SmartUploadState | null));
  const [source, setSource] = useState<Source | null>(initial.current);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [generationId, setGenerationId] = useState<string | null>(null);
  const [showResults, setShowResults] = useState(false);
  const [image, setImage] = useState<StoredImage | null>(null);
  const [focus, setFocus] = useState<Focus | null>(null);
  // The image whose run started without a tap: once, so a failed start waits for the seller's retry.
  const [autoStarted, setAutoStarted] = useState<StoredImage | null>(null);
  const { subject, phase } = useSubject(image?.imageId ?? null);
  const previewUrl = usePreviewUrl(source);

  // The live state of the run: filled by socket events in the cache, read once here on start and after reconnects.
  const generation = useQuery({
    queryKey: queryKeys.generation(generationId ?? 'none'),
    queryFn: () => api.generation(generationId!),
    enabled: generationId !== null,
    staleTime: Infinity,
  });
  const run: GenerationDto | undefined = generation.data?.data;

  useEffect(() => {
    if (!isFinished(run)) return;
    const timer = setTimeout(() => setShowResults(true), RESULTS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [run]);

  /** Stores the upload (or takes the stored image); generation waits for its subject. */
  async function start(chosen: Source | null) {
    setError(null);
    if (!chosen) return setError('Please select a file first');
    setShowResults(false);
    setFocus(null);
    if (chosen.kind === 'stored') return setImage({ imageId: chosen.imageId, fileId: chosen.fileId });
    setBusy(true);
    try {
      const uploaded = await api.upload(chosen.file, chosen.file.name);
      if (!uploaded?._id || !uploaded.fileId) throw new Error('invalid');
      setImage({ imageId: uploaded._id, fileId: uploaded.fileId, imageUrl: uploaded.originalImage.url });
      void queryClient.invalidateQueries({ queryKey: queryKeys.images });
    } catch (caught) {
      setError(caught instanceof ApiError ? `Upload failed: ${caught.message}` : 'Failed to upload image: Invalid server response');
    } finally {
      setBusy(false);
    }
  }

  async function generate(target: StoredImage, chosenFocus: Focus | null) {
    setError(null);
    setBusy(true);
    try {
      const { imageId, fileId, imageUrl } = target;
      const { data } = await api.smartGenerate({ imageId, fileId, imageUrl, styleCount: STYLE_COUNT, ...(chosenFocus ? { focus: chosenFocus } : {}) });
      setGenerationId(data.generationId);
    } catch (caught) {
      setError(`Failed to get style recommendations: ${caught instanceof Error ? caught.message : 'unknown error'}`);
    } finally {
      setBusy(false);
    }
  }

  // No tap needed (or the subject cannot be read: the engine then keeps the most salient object): start at once.
  const startsByItself = image !== null && !generationId && autoStarted !== image && (phase === 'ready' || phase === 'unavailable');
  useEffect(() => {
    if (!startsByItself || !image) return;
    setAutoStarted(image);
    void generate(image, null);
  }, [startsByItself, image]);

  // Arriving from the dashboard's 'Continue with Smart Upload' starts at once: that click was the request.
  const started = useRef(false);
  useEffect(() => {
    if (started.current || !initial.current) return;
    started.current = true;
    void start(initial.current);
  }, []);

  function pick(file: File) {
    if (file.size > SMART_MAX_BYTES) return setError('Please select an image under 5MB');
    setError(null);
    setGenerationId(null);
    setSource({ kind: 'file', file });
  }

  function chooseAnother() {
    setSource(null);
    setGenerationId(null);
    setImage(null);
    setFocus(null);
    setError(null);
  }

  function viewResults() {
    if (!run) return;
    const state: SmartResultsState = {
      generationId: run.id,
      images: run.styles.filter((s) => s.status === 'complete' && s.url).map((s) => ({ url: s.url!, styleName: s.name, index: s.index })),
      productInfo: run.productInfo,
    };
    navigate('/smart-results', { state });
  }

  const failure = smartFailure(run);
  const running = generationId !== null && !isFinished(run);
  const completed = run?.styles.filter((s) => s.status === 'complete').length ?? 0;
  const waiting = busy || startsByItself || (image !== null && phase === 'pending');
  const tapMissing = phase === 'tap' && focus === null;

  return (
    <div className="smart narrow-wide">
      <header className="page-header center">
        <h1>Smart Product Generator</h1>
        <p className="lead">We analyse your product, design styles for it and generate each one.</p>
      </header>
      <div className="smart-grid">
        <section className="card">
          {source && image && previewUrl ? (
            <TapToPick
              src={previewUrl}
              alt="Your product"
              subject={subject}
              phase={phase}
              focus={focus}
              onFocus={setFocus}
              locked={generationId !== null || busy}
              imageClassName="selected-preview"
            />
          ) : source ? (
            previewUrl && <img className="selected-preview" src={previewUrl} alt="Your product" />
          ) : (
            <DropZone hint="Supports JPEG, PNG, WebP (Max 5MB)" onFile={pick} onReject={() => setError('Please select an image file (JPEG, PNG, etc.)')} />
          )}
          {source && !running && (
            <button type="button" className="link-button" onClick={chooseAnother}>
              Choose another image
            </button>
          )}
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          {!generationId && phase !== 'failed' && (
            <button
              type="button"
              className="button button-block button-large"
              onClick={() => (image ? generate(image, focus) : start(source))}
              disabled={waiting || tapMissing}
            >
              {waiting ? 'Starting…' : 'Generate Product Shots'}
            </button>
          )}
        </section>

        {generationId && (
          <section className="card progress-card" aria-live="polite">
            <ol className="steps">
              {stepStates(run).map(({ stage, state }) => (
                <li key={stage} className={`step step-${state}`}>
                  <span className="step-dot" aria-hidden="true">
                    {state === 'done' ? '✓' : ''}
                  </span>
                  {STAGE_LABELS[stage]}
                  <span className="sr-only">{state === 'done' ? ' (done)' : state === 'current' ? ' (in progress)' : ''}</span>
                </li>
              ))}
            </ol>
            {failure ? (
              <div className="form-error" role="alert">
                <p>{failure.message}</p>
                {failure.unsupported && (
                  <>
                    <p>We currently support:</p>
                    <ul>
                      {SUPPORTED_PRODUCT_LIST.map((kind) => (
                        <li key={kind}>{kind}</li>
                      ))}
                    </ul>
                  </>
                )}
              </div>
            ) : (
              <ul className="style-cards">
                {(run?.styles ?? []).map((style) => (
                  <li key={style.index} className={`style-card style-${style.status}`} data-testid="style-card">
                    <div className="style-thumb">{style.url ? <img src={style.url} alt={`${style.name} style`} /> : <span className="spinner" aria-hidden="true" />}</div>
                    <div>
                      <p className="style-name">{style.name}</p>
                      <p className="style-status">
                        {style.status === 'complete'
                          ? 'Complete!'
                          : style.status === 'failed'
                            ? `Failed: ${style.error ?? 'unknown error'}`
                            : style.status === 'running'
                              ? `Generating… ${progressPercent(style.progress)}%`
                              : 'Waiting…'}
                      </p>
                    </div>
                  </li>
                ))}
              </ul>
            )}
            {showResults && completed > 0 && (
              <button type="button" className="button button-block button-large" onClick={viewResults}>
                View All Results
              </button>
            )}
          </section>
        )}
      </div>
    </div>
  );
}
