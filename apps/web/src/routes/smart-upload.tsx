import { SUPPORTED_PRODUCT_LIST, type GenerationDto } from '@prodshot/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { isFinished, progressPercent, smartFailure, STAGE_LABELS, stepStates } from '../features/generations/smart-status.js';
import { DropZone } from '../features/uploads/drop-zone.js';
import type { SmartResultsState, SmartUploadState } from '../features/uploads/upload-items.js';
import { api, ApiError } from '../lib/api-client.js';
import { queryKeys } from '../lib/query-keys.js';

const SMART_MAX_BYTES = 5 * 1024 * 1024;
/** Spec §4: results show this long after the last style lands. */
const RESULTS_DELAY_MS = 500;
const STYLE_COUNT = 4;

type Source = { kind: 'file'; file: File; previewUrl: string } | { kind: 'stored'; imageId: string; fileId: string; previewUrl: string; name?: string };

function sourceFromState(state: SmartUploadState | null): Source | null {
  if (!state) return null;
  if ('file' in state) return { kind: 'file', file: state.file, previewUrl: state.previewUrl };
  return { kind: 'stored', imageId: state.imageId, fileId: state.fileId, previewUrl: state.previewUrl, name: state.name };
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

  async function start(chosen: Source | null) {
    setError(null);
    if (!chosen) return setError('Please select a file first');
    setBusy(true);
    setShowResults(false);
    let imageId: string;
    let fileId: string;
    let imageUrl: string | undefined;
    if (chosen.kind === 'file') {
      try {
        const image = await api.upload(chosen.file, chosen.file.name);
        if (!image?._id || !image.fileId) throw new Error('invalid');
        ({ _id: imageId, fileId } = image);
        imageUrl = image.originalImage.url;
        void queryClient.invalidateQueries({ queryKey: queryKeys.images });
      } catch (caught) {
        setBusy(false);
        return setError(caught instanceof ApiError ? `Upload failed: ${caught.message}` : 'Failed to upload image: Invalid server response');
      }
    } else {
      imageId = chosen.imageId;
      fileId = chosen.fileId;
    }
    try {
      const { data } = await api.smartGenerate({ imageId, fileId, imageUrl, styleCount: STYLE_COUNT });
      setGenerationId(data.generationId);
    } catch (caught) {
      setError(`Failed to get style recommendations: ${caught instanceof Error ? caught.message : 'unknown error'}`);
    } finally {
      setBusy(false);
    }
  }

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
    setSource({ kind: 'file', file, previewUrl: URL.createObjectURL(file) });
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

  return (
    <div className="smart narrow-wide">
      <header className="page-header center">
        <h1>Smart Product Generator</h1>
        <p className="lead">We analyse your product, design styles for it and generate each one.</p>
      </header>
      <div className="smart-grid">
        <section className="card">
          {source ? (
            <img className="selected-preview" src={source.previewUrl} alt="Your product" />
          ) : (
            <DropZone hint="Supports JPEG, PNG, WebP (Max 5MB)" onFile={pick} onReject={() => setError('Please select an image file (JPEG, PNG, etc.)')} />
          )}
          {source && !running && (
            <button type="button" className="link-button" onClick={() => (setSource(null), setGenerationId(null))}>
              Choose another image
            </button>
          )}
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          {!generationId && (
            <button type="button" className="button button-block button-large" onClick={() => start(source)} disabled={busy}>
              {busy ? 'Starting…' : 'Generate Product Shots'}
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
