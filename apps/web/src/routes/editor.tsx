// Over 250 lines: the editor screen's one stateful component holds the form, preview, history and toast it
// coordinates; its parts already live in features/editor.
import type { Focus, GenerationListItem } from '@prodshot/contracts';
import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useLocation } from 'react-router-dom';
import { BOX_SIZES, RenditionImage } from '../components/ui/rendition-image.js';
import { Spinner } from '../components/ui/spinner.js';
import { CoachNotice } from '../features/coach/coach-notice.js';
import { coachWarnings } from '../features/coach/coach-warnings.js';
import { useSubscription } from '../features/credits/api/get-subscription.js';
import { usePlanFeature } from '../features/credits/use-plan-feature.js';
import { enhancedPrompt } from '../features/editor/api/enhance-prompt.js';
import type { ShotRequest } from '../features/editor/api/generate-product-shots.js';
import { EditorControls } from '../features/editor/editor-controls.js';
import { presetFor, type EditorPreset } from '../features/editor/editor-preset.js';
import { openedShot, type Shot, type Source } from '../features/editor/editor-shots.js';
import { ResultStrip, SessionHistory } from '../features/editor/result-history.js';
import { useEditorShots, type ShotsReady } from '../features/editor/use-editor-shots.js';
import { useShotChoice } from '../features/editor/use-shot-choice.js';
import { useGeneration } from '../features/generations/api/get-generation.js';
import { useRecentGenerations } from '../features/generations/api/get-recent-generations.js';
import { GenerationNotFound } from '../features/generations/generation-not-found.js';
import { GenerationPopup } from '../features/generations/generation-popup.js';
import { GenerationStrip } from '../features/generations/generation-strip.js';
import type { FromOutputState } from '../features/generations/iterate-actions.js';
import { useSubject } from '../features/subject/api/get-subject.js';
import { focusToSend, OutlineCheck, outlineHolds } from '../features/subject/outline-check.js';
import { TapToPick } from '../features/subject/tap-to-pick.js';
import { useImage } from '../features/uploads/api/get-image.js';
import { useSaveProductTitle } from '../features/uploads/api/set-image-title.js';
import type { EditorState } from '../features/uploads/upload-items.js';
import { downloadShot, editorDownloadName } from '../lib/download.js';
import '../features/editor/editor.css';

const ALL_GENERATIONS_STRIP = 12;
/** Long enough to read and tap; short enough not to sit over the page (issue 32, point 14). */
const READY_TOAST_MS = 8000;

/**
 * Navigation state carries the upload's ids only: its links are signed afresh from the API on
 * every visit, so Back to the editor hours later still shows the photo.
 */
export function EditorPage() {
  const state = useLocation().state as (Partial<EditorState> & Partial<FromOutputState>) | null;
  if (state?.fromOutput)
    return <EditorFromOutput generationId={state.fromOutput.generationId} index={state.fromOutput.index} />;
  if (!state?.imageId || !state.fileId) return <Navigate to="/dashboard" replace />;
  return <EditorSource handedOver={state as EditorState} />;
}

/** Opened from a result: that shot on screen, its generation naming the upload and the template or prompt to start on. */
function EditorFromOutput({ generationId, index }: { generationId: string; index: number }) {
  const { generation, notFound } = useGeneration(generationId);
  if (notFound) return <GenerationNotFound />;
  if (!generation) return <Spinner label="Loading your shot" fullPage />;
  if (!generation.imageId)
    return <Unavailable message="The photo this shot was made from was deleted. Upload it again to keep editing." />;
  return (
    <EditorSource
      handedOver={{ imageId: generation.imageId }}
      preset={presetFor(generation, index)}
      opened={openedShot(generation, index)}
    />
  );
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

function EditorSource({
  handedOver,
  preset = null,
  opened = null,
}: {
  handedOver: Pick<EditorState, 'imageId'> & Partial<EditorState>;
  preset?: EditorPreset | null;
  opened?: Shot | null;
}) {
  const image = useImage(handedOver.imageId);
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
  return <Editor source={source} preset={preset} opened={opened} />;
}

function Editor({ source, preset, opened }: { source: Source; preset: EditorPreset | null; opened: Shot | null }) {
  const choice = useShotChoice(preset);
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
  const stage = useRef<HTMLDivElement>(null);
  const recent = useRecentGenerations(ALL_GENERATIONS_STRIP);
  const shots = useEditorShots(opened, () => void recent.refetch());
  const enhanceAllowed = usePlanFeature('promptEnhancement');
  const planless = useSubscription().data?.effectivePlan === 'none';
  // The original is one tap from the shot on screen; a new shot on screen shows itself again.
  const [originalFor, setOriginalFor] = useState<string | null>(null);

  function generate() {
    const { asked, background, count } = choice.requested();
    const focusSent = focusToSend(subject, phase === 'tap' ? focus : null);
    const body: ShotRequest = {
      imageUrl: source.imageUrl,
      imageId: source.imageId,
      fileId: source.fileId,
      productTitle: product,
      count,
      ...(focusSent ? { focus: focusSent } : {}),
      ...background,
    };
    shots.generate(body, asked);
  }

  const latest = shots.results[shots.shown];
  const current = latest && originalFor !== latest.url ? latest : undefined;
  // An unsure outline waits for the seller's "Yes, that's my product" or their tap: no credit is held before.
  const outlineWaits = outlineHolds(subject, phase === 'tap' ? focus : null);
  const canGenerate = choice.chosen && !tapMissing && !outlineWaits && phase !== 'failed';
  const { busy, progress } = shots;
  const busyVeil = busy && (
    <div className="preview-busy" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>Generating your shot…{progress > 0 && ` ${progress}%`}</span>
    </div>
  );

  const showStage = () => {
    stage.current?.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
    stage.current?.focus({ preventScroll: true });
  };

  return (
    <div className="editor">
      <header className="editor-head">
        <Link to="/dashboard" className="back-link">
          ← Back to Dashboard
        </Link>
        <h1 className="editor-title">{opened ? `Editing: ${opened.name}` : 'Design your product shot'}</h1>
      </header>
      <section className="editor-preview">
        {/* The stage is where the veil and the shots appear: a toast or the phone's bar brings the seller back to it. */}
        <div className="editor-stage" id="editor-stage" ref={stage} tabIndex={-1} aria-label="Preview" role="region">
          {current ? (
            <div className="preview-frame card">
              {busyVeil}
              <RenditionImage
                image={current}
                sizes={BOX_SIZES.mainColumn}
                alt={`${current.name} shot of ${source.name ?? 'your product'}`}
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
            <span className="muted small">{current ? `${current.name} result` : 'Original image'}</span>
            {latest && (
              <button
                type="button"
                className="button button-ghost"
                onClick={() => setOriginalFor(current ? latest.url : null)}
              >
                {current ? 'Show original' : `Show ${latest.name} shot`}
              </button>
            )}
            <button
              type="button"
              className="button"
              disabled={!current}
              onClick={() =>
                current &&
                downloadShot(current, editorDownloadName(product)).catch(() =>
                  shots.setError('Download failed. Please try again.'),
                )
              }
            >
              Download
            </button>
          </div>
        </div>
        {!latest && <OutlineCheck subject={subject} locked={busy} />}
        {/* Going ahead is generating with the background chosen; without a usable choice it leads to what is missing. */}
        {!latest && (
          <CoachNotice
            warnings={coachWarnings(subject, source)}
            busy={busy}
            onGoAhead={() => (canGenerate ? generate() : goToGenerate(generateButton.current))}
          />
        )}
        <ResultStrip results={shots.results} shown={shots.shown} onShow={shots.setShown} />
        <SessionHistory history={shots.history} activeEntry={shots.activeEntry} onShow={shots.showEntry} />
        <GenerationStrip items={recent.data?.data ?? []} onOpen={setPopup} />
      </section>

      <EditorControls
        choice={choice}
        title={{
          value: title,
          onChange: setTitle,
          onCommit: () =>
            void saveTitle({ _id: source.imageId }, title).catch(() =>
              shots.setError('Failed to save the product title. Please try again.'),
            ),
        }}
        preset={preset}
        onEnhance={(text) => enhancedPrompt({ prompt: text, imageUrl: source.imageUrl, productTitle: product })}
        enhanceAllowed={enhanceAllowed}
        tapMissing={tapMissing}
        generate={{
          mini: { src: current?.thumbnailUrl ?? source.previewUrl, onShow: showStage },
          problem: shots.problem,
          planless,
          generateButton,
          blocked: !canGenerate || busy,
          busy,
          progress,
          onGenerate: generate,
        }}
      />
      {shots.ready && <ReadyToast ready={shots.ready} onView={showStage} onClose={shots.dismissReady} />}
      {popup && <GenerationPopup generation={popup} onClose={() => setPopup(null)} />}
    </div>
  );
}

/** 'Marble shot ready', with the way to it: on a phone or a short screen the preview may be out of sight. */
function ReadyToast({ ready, onView, onClose }: { ready: ShotsReady; onView: () => void; onClose: () => void }) {
  useEffect(() => {
    const timer = setTimeout(onClose, READY_TOAST_MS);
    return () => clearTimeout(timer);
  }, [ready.key]);
  return (
    <div className="toast editor-toast" role="status">
      <p className="toast-title">{ready.title}</p>
      <button
        type="button"
        className="button button-small"
        onClick={() => {
          onView();
          onClose();
        }}
      >
        View shot
      </button>
      <button type="button" className="toast-close" onClick={onClose} aria-label="Dismiss">
        ✕
      </button>
    </div>
  );
}

function goToGenerate(button: HTMLButtonElement | null): void {
  button?.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
  button?.focus({ preventScroll: true });
}
