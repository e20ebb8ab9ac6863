import { OUTPUTS_PER_REQUEST_MAX, TAP_PRODUCT_MESSAGE, TEMPLATES } from '@prodshot/contracts';
import { CountChoice } from '../../components/ui/count-choice.js';
import { ProductTitleField } from '../../components/ui/product-title-field.js';
import { AutoPanel } from './auto-panel.js';
import type { EditorPreset } from './editor-preset.js';
import { GenerateBar, type GenerateBarProps } from './generate-bar.js';
import { PromptBox } from './prompt-box.js';
import { TEMPLATE_DESCRIPTIONS } from './template-descriptions.js';
import type { ShotChoice } from './use-shot-choice.js';
import './editor.css';

interface EditorControlsProps {
  choice: ShotChoice;
  title: { value: string; onChange: (title: string) => void; onCommit: () => void };
  preset: EditorPreset | null;
  onEnhance: (text: string) => Promise<string>;
  enhanceAllowed: boolean | undefined;
  tapMissing: boolean;
  generate: Omit<GenerateBarProps, 'asking' | 'tapNote'>;
}

/** The editor's side panel: the product's title, the background (template, custom prompt or auto), the count and Generate. */
export function EditorControls({
  choice,
  title,
  preset,
  onEnhance,
  enhanceAllowed,
  tapMissing,
  generate,
}: EditorControlsProps) {
  const { mode, setMode, template, setTemplate } = choice;
  const { asked, count } = choice.requested();
  return (
    <section className="editor-controls card">
      <ProductTitleField value={title.value} onChange={title.onChange} onCommit={title.onCommit} />
      {preset && (
        <p className="notice" role="status">
          Starting from <strong>{preset.from}</strong>: change anything, then generate.
        </p>
      )}
      <div className="tabs" role="tablist" aria-label="Background source">
        <button
          type="button"
          role="tab"
          id="tab-templates"
          aria-selected={mode === 'templates'}
          aria-controls="panel-templates"
          onClick={() => setMode('templates')}
        >
          Templates
        </button>
        <button
          type="button"
          role="tab"
          id="tab-custom"
          aria-selected={mode === 'custom'}
          aria-controls="panel-custom"
          onClick={() => setMode('custom')}
        >
          Custom Background
        </button>
        <button
          type="button"
          role="tab"
          id="tab-auto"
          aria-selected={mode === 'auto'}
          aria-controls="panel-auto"
          onClick={() => setMode('auto')}
        >
          Auto
        </button>
      </div>
      {mode === 'templates' ? (
        <div id="panel-templates" role="tabpanel" aria-labelledby="tab-templates">
          <ul className="templates">
            {TEMPLATES.map((t) => (
              <li key={t.handle}>
                <button
                  type="button"
                  className={t.handle === template ? 'template selected' : 'template'}
                  aria-pressed={t.handle === template}
                  onClick={() => setTemplate(t.handle)}
                >
                  <img
                    src={`/templates/${t.handle}.jpg`}
                    alt=""
                    width={240}
                    height={240}
                    loading="lazy"
                    decoding="async"
                  />
                  <span className="template-name">{t.name}</span>
                  <span className="template-description">{TEMPLATE_DESCRIPTIONS[t.handle]}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : mode === 'custom' ? (
        <div id="panel-custom" role="tabpanel" aria-labelledby="tab-custom">
          <PromptBox
            value={choice.prompt}
            onChange={choice.setPrompt}
            onEnhance={onEnhance}
            enhanceAllowed={enhanceAllowed}
          />
        </div>
      ) : (
        <div id="panel-auto" role="tabpanel" aria-labelledby="tab-auto">
          <AutoPanel count={choice.autoCount} onCount={choice.setAutoCount} />
        </div>
      )}
      {mode !== 'auto' && (
        <div className="editor-count">
          <CountChoice
            name="editor-count"
            legend="Number of images"
            max={OUTPUTS_PER_REQUEST_MAX}
            count={choice.count}
            onCount={choice.setCount}
          />
        </div>
      )}
      <GenerateBar
        asking={{ name: asked.type, count }}
        tapNote={tapMissing ? TAP_PRODUCT_MESSAGE : null}
        {...generate}
      />
      <p className="muted small center generate-note">Each generated image uses one credit.</p>
    </section>
  );
}
