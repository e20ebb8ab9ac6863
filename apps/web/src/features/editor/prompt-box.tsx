import {
  planRequiredMessage,
  PROMPT_CHIPS,
  PROMPT_MAX_LENGTH,
  PROMPT_WARN_LENGTH,
  UPGRADE_URL,
} from '@prodshot/contracts';
import { useEffect, useRef, useState } from 'react';
import { planRefusal, UpgradeNotice } from '../../components/ui/upgrade-notice.js';
import './editor.css';

export const ENHANCE_SCREEN_ERROR = 'Failed to enhance prompt. Please try again.';
export const ENHANCE_INVALID_RESPONSE = 'Invalid response from prompt enhancement service';

/** docs/product-spec.md §4: the applied prompt glows for 200 ms, then fades over 800 ms. */
const APPLY_FLASH_MS = 200;
const APPLY_FADE_MS = 800;

export function isBlankPrompt(prompt: string): boolean {
  return prompt.trim().length === 0;
}

/** Custom Background prompt: 1000-character cap, a counter that turns red above 900, enhance and chips. */
export function PromptBox({
  value,
  onChange,
  onEnhance,
  enhanceAllowed,
}: {
  value: string;
  onChange: (value: string) => void;
  /** Resolves to the enhanced prompt; rejects with a message to show, or the API's plan refusal. */
  onEnhance: (prompt: string) => Promise<string>;
  /** Whether the seller's plan includes prompt enhancement; undefined while unknown (the server decides). */
  enhanceAllowed?: boolean | undefined;
}) {
  const [enhanced, setEnhanced] = useState<string | null>(null);
  const [enhancing, setEnhancing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<{ message: string; upgradeUrl: string } | null>(null);
  const upgrade =
    refusal ??
    (enhanceAllowed === false ? { message: planRequiredMessage('promptEnhancement'), upgradeUrl: UPGRADE_URL } : null);
  const [flash, setFlash] = useState<'none' | 'on' | 'fade'>('none');
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  useEffect(() => () => timers.current.forEach(clearTimeout), []);

  const length = value.length;
  const over = length > PROMPT_WARN_LENGTH;
  const blank = isBlankPrompt(value);

  async function enhance() {
    setEnhancing(true);
    setError(null);
    try {
      setEnhanced(await onEnhance(value));
    } catch (caught) {
      const refused = planRefusal(caught);
      if (refused) setRefusal(refused);
      else setError(caught instanceof Error && caught.message ? caught.message : ENHANCE_SCREEN_ERROR);
    } finally {
      setEnhancing(false);
    }
  }

  function apply() {
    if (enhanced === null) return;
    onChange(enhanced.slice(0, PROMPT_MAX_LENGTH));
    setEnhanced(null);
    setFlash('on');
    timers.current.push(
      setTimeout(() => setFlash('fade'), APPLY_FLASH_MS),
      setTimeout(() => setFlash('none'), APPLY_FLASH_MS + APPLY_FADE_MS),
    );
  }

  return (
    <div className="prompt-box">
      <label className="field">
        <span>Describe the background</span>
        <textarea
          value={value}
          maxLength={PROMPT_MAX_LENGTH}
          rows={5}
          placeholder="e.g. on a rustic wooden table with soft morning light"
          className={flash === 'none' ? undefined : `prompt-flash-${flash}`}
          onChange={(event) => onChange(event.target.value.slice(0, PROMPT_MAX_LENGTH))}
        />
      </label>
      <div className="prompt-row">
        <span className={over ? 'counter counter-over' : 'counter'} data-testid="prompt-counter" aria-live="polite">
          {length}/{PROMPT_MAX_LENGTH}
        </span>
        <button
          type="button"
          className="button button-ghost button-small"
          onClick={enhance}
          disabled={blank || enhancing || upgrade !== null}
        >
          {enhancing ? 'Enhancing…' : '✨ Enhance Prompt'}
        </button>
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {upgrade && <UpgradeNotice {...upgrade} />}
      {enhanced !== null && (
        <div className="enhanced card" role="region" aria-label="Enhanced prompt">
          <div className="enhanced-head">
            <strong>Enhanced prompt</strong>
            <button
              type="button"
              className="toast-close"
              aria-label="Dismiss enhanced prompt"
              onClick={() => setEnhanced(null)}
            >
              ✕
            </button>
          </div>
          <p>{enhanced}</p>
          <button type="button" className="button button-small" onClick={apply}>
            Apply Magic Prompt
          </button>
        </div>
      )}
      <div className="chips" aria-label="Popular prompts">
        <span className="muted small">Popular:</span>
        {PROMPT_CHIPS.map((chip) => (
          <button key={chip} type="button" className="chip" onClick={() => onChange(chip)}>
            {chip}
          </button>
        ))}
      </div>
    </div>
  );
}
