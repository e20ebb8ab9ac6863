import {
  AUTO_BACKGROUND,
  GENERATION_FAILED_MESSAGE,
  OUTPUTS_PER_REQUEST_MAX,
  TAP_PRODUCT_MESSAGE,
  templateName,
  TEMPLATES,
  type CoachWarning,
  type Focus,
  type GenerationDto,
  type GenerationListItem,
  type ProcessedImageDto,
  type ShotRef,
  type TemplateHandle,
} from '@prodshot/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useLocation } from 'react-router-dom';
import { GenerationPopup } from '../components/ui/image-popup.js';
import { BOX_SIZES, RenditionImage } from '../components/ui/rendition-image.js';
import { AutoPanel } from '../features/editor/auto-panel.js';
import { CountChoice } from '../features/editor/count-choice.js';
import { GenerationNotFound } from '../features/generations/generation-not-found.js';
import { presetFor, type EditorPreset } from '../features/iterate/editor-preset.js';
import type { FromOutputState } from '../features/iterate/iterate-actions.js';
import { Spinner } from '../components/ui/spinner.js';
import { isBlankPrompt, PromptBox, ENHANCE_INVALID_RESPONSE } from '../features/editor/prompt-box.js';
import { planRefusal } from '../features/plans/upgrade-notice.js';
import { usePlanFeature } from '../features/plans/use-plan-feature.js';
import { TEMPLATE_DESCRIPTIONS } from '../features/editor/template-descriptions.js';
import { progressPercent } from '../features/generations/smart-status.js';
import { useGeneration } from '../features/generations/use-generation.js';
import { CoachNotice } from '../features/coach/coach-notice.js';
import { coachWarnings } from '../features/coach/coach-warnings.js';
import { TapToPick } from '../features/subject/tap-to-pick.js';
import { useSubject } from '../features/subject/use-subject.js';
import { ProductTitleField, useSaveProductTitle } from '../features/uploads/product-title.js';
import type { EditorState } from '../features/uploads/upload-items.js';
import { api, errorMessage, type ShotRequest } from '../lib/api-client.js';
import { downloadShot, editorDownloadName } from '../lib/download.js';
import { newIdempotencyKey, retryTransient } from '../lib/idempotency.js';
import { queryKeys } from '../lib/query-keys.js';

const ALL_GENERATIONS_STRIP = 12;
type Mode = 'templates' | 'custom' | 'auto';


/** What a click asked for: it names the shot and its history entry once the generation settles. */
interface AskedFor {
  type: string;
  prompt: string | null;
  template: TemplateHandle | null;
  /** What the shots' settings say: the template, 'custom' or 'auto'. */
  backgroundType: string;
}

interface PendingShot extends AskedFor {
  generationId: string;
}

/** A result on screen, and where its full file is downloaded from. */
type Shot = ProcessedImageDto & ShotRef;

interface HistoryEntry extends AskedFor {
  key: number;
  images: Shot[];
  /** The scene auto mode picked. */
  scene: string | null;
}

/** What a click asks for, and the part of the request body that says it. */
function askedFor(mode: Mode, template: TemplateHandle | null, prompt: string): { asked: AskedFor; background: Pick<ShotRequest, 'backgroundType' | 'prompt'> } {
  if (mode === 'templates') return { asked: { type: templateName(template), prompt: null, template, backgroundType: template! }, background: { backgroundType: template! } };
  if (mode === 'auto') return { asked: { type: templateName(AUTO_BACKGROUND), prompt: null, template: null, backgroundType: AUTO_BACKGROUND }, background: { backgroundType: AUTO_BACKGROUND } };
  const text = prompt.trim();
  return { asked: { type: 'Custom', prompt: text, template: null, backgroundType: 'custom' }, background: { prompt: text } };
}

/** Auto mode's pick, as the worker recorded it on the generation's slots. */
function pickedScene(generation: GenerationDto): { scene: string | null; prompt: string | null } {
  const slot = generation.styles.find((s) => s.prompt);
  return { scene: slot?.name ?? null, prompt: slot?.prompt ?? null };
}

/** What the editor works on: the upload as the API signs it now, and the ids it came with. */
interface Source {
  imageUrl: string;
  previewUrl: string;
  imageId: string;
  fileId: string;
  name: string | undefined;
  productTitle: string | null;
  coach: CoachWarning[] | undefined;
}

/**
 * Navigation state carries the upload's ids only: its links are signed afresh from the API on
 * every visit, so Back to the editor hours later still shows the photo.
 */
export function EditorPage() {
  const state = useLocation().state as (Partial<EditorState> & Partial<FromOutputState>) | null;
  if (state?.fromOutput) return <EditorFromOutput generationId={state.fromOutput.generationId} index={state.fromOutput.index} />;
  if (!state?.imageId || !state.fileId) return <Navigate to="/dashboard" replace />;
  return <EditorSource handedOver={state as EditorState} />;
}

/** Opened from a result: the output's generation names the upload and the template or prompt to start on. */
function EditorFromOutput({ generationId, index }: { generationId: string; index: number }) {
  const { generation, notFound } = useGeneration(generationId);
  if (notFound) return <GenerationNotFound />;
  if (!generation) return <Spinner label="Loading your shot" fullPage />;
  if (!generation.imageId) return <Unavailable message="The photo this shot was made from was deleted. Upload it again to keep editing." />;
  return <EditorSource handedOver={{ imageId: generation.imageId }} preset={presetFor(generation, index)} />;
}

function Unavailable({ message }: { message: string }) {
  return (
    <section className="narrow center-card card">
      <p className="form-error" role="alert">
        {message}
      </p>
      <Link to="/dashboard" className="button">
        Back to Dashboard
      </Link>
    </section>
  );
}

function EditorSource({ handedOver, preset = null }: { handedOver: Pick<EditorState, 'imageId'> & Partial<EditorState>; preset?: EditorPreset | null }) {
  const image = useQuery({ queryKey: queryKeys.image(handedOver.imageId), queryFn: () => api.image(handedOver.imageId) });
  if (image.isPending) return <Spinner label="Loading your photo" fullPage />;
  if (!image.data) return <Unavailable message="Failed to load data. Please try again." />;
  const { originalImage, name, fileId, productTitle, coach } = image.data.data;
  const source: Source = {
    imageUrl: originalImage.url,
    previewUrl: originalImage.previewUrl,
    imageId: handedOver.imageId,
    fileId: handedOver.fileId ?? fileId,
    name: handedOver.name ?? name,
    productTitle,
    coach,
  };
  return <Editor source={source} preset={preset} />;
}

function Editor({ source, preset }: { source: Source; preset: EditorPreset | null }) {
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<Mode>(preset?.mode ?? 'templates');
  const [template, setTemplate] = useState<TemplateHandle | null>(preset?.template ?? 'lifestyle');
  const [prompt, setPrompt] = useState(preset?.prompt ?? '');
  // Auto mode keeps its own count: a 4 picked there does not carry over to a template.
  const [autoCount, setAutoCount] = useState(1);
  const [count, setCount] = useState(1);
  const [results, setResults] = useState<Shot[]>([]);
  const [shown, setShown] = useState(0);
  const [history, setHistory] = useState<HistoryEntry[]>([]);
  const [activeEntry, setActiveEntry] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [popup, setPopup] = useState<GenerationListItem | null>(null);
  const [focus, setFocus] = useState<Focus | null>(null);
  const [title, setTitle] = useState(source.productTitle ?? '');
  const saveTitle = useSaveProductTitle();
  // The seller's title names the product; without one, the file's name stands in as before.
  const product = title.trim() || source.name;
  // Unlike the smart screen, generation never waits for a pending subject: without a tap the engine keeps the most salient object.
  const { subject, phase } = useSubject(source.imageId ?? null);
  const tapMissing = phase === 'tap' && focus === null;
  const generateButton = useRef<HTMLButtonElement>(null);
  const recent = useQuery({ queryKey: queryKeys.recentGenerations(ALL_GENERATIONS_STRIP), queryFn: () => api.recentGenerations(ALL_GENERATIONS_STRIP) });

  const [pending, setPending] = useState<PendingShot | null>(null);
  const shot = useGeneration(pending?.generationId ?? null);

  // The API answers at once with the generation's id; the shot itself arrives over the socket.
  const start = useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: ShotRequest; asked: AskedFor; idempotencyKey: string }) => api.generateProductShots(body, idempotencyKey),
    retry: retryTransient,
    onMutate: () => {
      setError(null);
      setResults([]);
    },
    onSuccess: ({ data }, { asked }) => setPending({ ...asked, generationId: data.generationId }),
    onError: (caught) => setError(errorMessage(caught, GENERATION_FAILED_MESSAGE)),
  });

  function generate() {
    const { asked, background } = askedFor(mode, template, prompt);
    const body: ShotRequest = {
      imageUrl: source.imageUrl,
      imageId: source.imageId,
      fileId: source.fileId,
      productTitle: product,
      count: mode === 'auto' ? autoCount : count,
      ...(phase === 'tap' && focus ? { focus } : {}),
      ...background,
    };
    start.mutate({ body, asked, idempotencyKey: newIdempotencyKey() });
  }

  const settledShot = shot.settled ? shot.generation : undefined;
  const lostShot = pending !== null && !shot.generation && shot.error ? shot.error : null;
  useEffect(() => {
    if (!pending || (!settledShot && !lostShot)) return;
    setPending(null);
    // Reserved credits are settled or refunded by now.
    void queryClient.invalidateQueries({ queryKey: queryKeys.subscription });
    if (!settledShot) return setError(errorMessage(lostShot, GENERATION_FAILED_MESSAGE));
    const images: Shot[] = settledShot.styles
      .filter((s) => s.status === 'complete' && s.url)
      .map((s) => ({
        url: s.url!,
        thumbnailUrl: s.thumbnailUrl!,
        previewUrl: s.previewUrl!,
        settings: { backgroundType: pending.backgroundType },
        generationId: settledShot.id,
        index: s.index,
      }));
    if (images.length === 0) return setError(settledShot.error ?? settledShot.styles.find((s) => s.error)?.error ?? GENERATION_FAILED_MESSAGE);
    setResults(images);
    setShown(0);
    const picked = pending.backgroundType === AUTO_BACKGROUND ? pickedScene(settledShot) : { scene: null, prompt: pending.prompt };
    const entry: HistoryEntry = { ...pending, key: Date.now(), images, ...picked };
    setHistory((previous) => [entry, ...previous]);
    setActiveEntry(entry.key);
    void recent.refetch();
  }, [pending, settledShot, lostShot]);

  const enhanceAllowed = usePlanFeature('promptEnhancement');

  async function enhance(text: string): Promise<string> {
    try {
      const response = await api.enhancePrompt({ prompt: text, imageUrl: source.imageUrl, productTitle: product });
      const enhanced = response.data?.enhancedPrompt;
      if (typeof enhanced !== 'string' || !enhanced) throw new Error(ENHANCE_INVALID_RESPONSE);
      return enhanced;
    } catch (caught) {
      if ((caught instanceof Error && caught.message === ENHANCE_INVALID_RESPONSE) || planRefusal(caught)) throw caught;
      throw new Error('Failed to enhance prompt. Please try again.', { cause: caught });
    }
  }

  const current = results[shown];
  const chosen = mode === 'templates' ? template !== null : mode === 'custom' ? !isBlankPrompt(prompt) : true;
  const canGenerate = chosen && !tapMissing && phase !== 'failed';
  const recentItems = recent.data?.data ?? [];
  const busy = start.isPending || pending !== null;
  // aria-disabled rather than disabled: a disabled button drops keyboard focus to <body>, and Generate disables itself on click.
  const generateBlocked = !canGenerate || busy;
  const progress = shot.generation?.styles[0]?.progress ?? 0;
  const busyVeil = busy && (
    <div className="preview-busy" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>Generating your shot…{progress > 0 && ` ${progressPercent(progress)}%`}</span>
    </div>
  );

  return (
    <div className="editor">
      <section className="editor-preview">
        <Link to="/dashboard" className="back-link">
          ← Back to Dashboard
        </Link>
        <h1 className="editor-title">Design your product shot</h1>
        {current ? (
          <div className="preview-frame card">
            {busyVeil}
            <RenditionImage
              image={current}
              sizes={BOX_SIZES.mainColumn}
              alt={`${templateName(current.settings.backgroundType)} shot of ${source.name ?? 'your product'}`}
              eager
            />
          </div>
        ) : (
          <TapToPick
            src={source.previewUrl}
            alt={`Original photo of ${source.name ?? 'your product'}`}
            subject={subject}
            phase={phase}
            focus={focus}
            onFocus={setFocus}
            locked={busy}
            frameClassName="preview-frame card"
          >
            {busyVeil}
          </TapToPick>
        )}
        <div className="preview-actions">
          <span className="muted small">{current ? `${templateName(current.settings.backgroundType)} result` : 'Original image'}</span>
          <button
            type="button"
            className="button"
            disabled={!current}
            onClick={() => current && downloadShot(current, editorDownloadName(product)).catch(() => setError('Download failed. Please try again.'))}
          >
            Download
          </button>
        </div>
        {/* Going ahead here is going on to choose a background: the coach takes the seller to Generate, it spends nothing itself. */}
        {!current && <CoachNotice warnings={coachWarnings(subject, source)} onGoAhead={() => goToGenerate(generateButton.current)} />}
        {results.length > 1 && (
          <ul className="strip" aria-label="Results">
            {results.map((image, index) => (
              <li key={image.url}>
                <button type="button" className={index === shown ? 'thumb selected' : 'thumb'} onClick={() => setShown(index)} aria-label={`Show result ${index + 1}`}>
                  <RenditionImage image={image} sizes={BOX_SIZES.strip} alt={`Result ${index + 1}`} />
                </button>
              </li>
            ))}
          </ul>
        )}
        {history.length > 0 && (
          <section className="history">
            <h2>Session history</h2>
            <ul>
              {history.map((entry) => (
                <li key={entry.key}>
                  <button
                    type="button"
                    className={entry.key === activeEntry ? 'history-entry selected' : 'history-entry'}
                    onClick={() => {
                      setActiveEntry(entry.key);
                      setResults(entry.images);
                      setShown(0);
                    }}
                  >
                    {entry.images[0] && <RenditionImage image={entry.images[0]} sizes={BOX_SIZES.historyEntry} alt="" />}
                    <span>
                      <strong>{entry.type}</strong>
                      {entry.scene && <span className="small history-scene">Scene: {entry.scene}</span>}
                      {entry.prompt && <span className="muted small history-prompt">{entry.prompt}</span>}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </section>
        )}
        <section className="history">
          <h2>All Generations</h2>
          {recentItems.length === 0 ? (
            <p className="empty">No generations yet</p>
          ) : (
            <ul className="strip" aria-label="All generations">
              {recentItems.map((item) => (
                <li key={item.id}>
                  <button type="button" className="thumb" onClick={() => setPopup(item)} aria-label={`Open generation ${item.id}`}>
                    <RenditionImage image={item} sizes={BOX_SIZES.strip} alt={`Generation ${item.id}`} />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      </section>

      <section className="editor-controls card">
        <ProductTitleField
          value={title}
          onChange={setTitle}
          onCommit={() => void saveTitle({ _id: source.imageId }, title).catch(() => setError('Failed to save the product title. Please try again.'))}
        />
        {preset && (
          <p className="notice" role="status">
            Starting from <strong>{preset.from}</strong>: change anything, then generate.
          </p>
        )}
        <div className="tabs" role="tablist" aria-label="Background source">
          <button type="button" role="tab" id="tab-templates" aria-selected={mode === 'templates'} aria-controls="panel-templates" onClick={() => setMode('templates')}>
            Templates
          </button>
          <button type="button" role="tab" id="tab-custom" aria-selected={mode === 'custom'} aria-controls="panel-custom" onClick={() => setMode('custom')}>
            Custom Background
          </button>
          <button type="button" role="tab" id="tab-auto" aria-selected={mode === 'auto'} aria-controls="panel-auto" onClick={() => setMode('auto')}>
            Auto
          </button>
        </div>
        {mode === 'templates' ? (
          <div id="panel-templates" role="tabpanel" aria-labelledby="tab-templates">
            <ul className="templates">
              {TEMPLATES.map((t) => (
                <li key={t.handle}>
                  <button type="button" className={t.handle === template ? 'template selected' : 'template'} aria-pressed={t.handle === template} onClick={() => setTemplate(t.handle)}>
                    <img src={`/templates/${t.handle}.jpg`} alt="" width={240} height={240} loading="lazy" decoding="async" />
                    <span className="template-name">{t.name}</span>
                    <span className="template-description">{TEMPLATE_DESCRIPTIONS[t.handle]}</span>
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ) : mode === 'custom' ? (
          <div id="panel-custom" role="tabpanel" aria-labelledby="tab-custom">
            <PromptBox value={prompt} onChange={setPrompt} onEnhance={enhance} enhanceAllowed={enhanceAllowed} />
          </div>
        ) : (
          <div id="panel-auto" role="tabpanel" aria-labelledby="tab-auto">
            <AutoPanel count={autoCount} onCount={setAutoCount} />
          </div>
        )}
        {mode !== 'auto' && (
          <div className="editor-count">
            <CountChoice name="editor-count" legend="Number of images" max={OUTPUTS_PER_REQUEST_MAX} count={count} onCount={setCount} />
          </div>
        )}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        {tapMissing && (
          <p className="notice" id="editor-tap-needed">
            {TAP_PRODUCT_MESSAGE}
          </p>
        )}
        <button
          ref={generateButton}
          type="button"
          className="button button-block button-large"
          aria-disabled={generateBlocked}
          aria-describedby={tapMissing ? 'editor-tap-needed' : undefined}
          onClick={() => {
            if (!generateBlocked) generate();
          }}
        >
          {busy ? 'Generating…' : 'Generate'}
        </button>
        <p className="muted small center">Each generated image uses one credit.</p>
      </section>
      {popup && <GenerationPopup generation={popup} onClose={() => setPopup(null)} />}
    </div>
  );
}

function goToGenerate(button: HTMLButtonElement | null): void {
  button?.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
  button?.focus({ preventScroll: true });
}
