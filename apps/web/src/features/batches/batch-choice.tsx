import {
  OUTPUTS_PER_REQUEST_MAX,
  PROMPT_MAX_LENGTH,
  SMART_STYLES_DEFAULT,
  SMART_STYLES_MAX,
  TEMPLATES,
  type BatchChoice,
} from '@prodshot/contracts';

export type ChoiceMode = BatchChoice['mode'];

/** Every field the three modes use, so switching mode and back keeps what the seller set. */
export interface ChoiceDraft {
  mode: ChoiceMode;
  styleCount: number;
  backgroundType: string;
  prompt: string;
  count: number;
}

export const INITIAL_CHOICE: ChoiceDraft = {
  mode: 'smart',
  styleCount: SMART_STYLES_DEFAULT,
  backgroundType: 'studio',
  prompt: '',
  count: 1,
};

/** The request's choice, or null while it is incomplete (a prompt not written yet). */
export function toChoice(draft: ChoiceDraft): BatchChoice | null {
  if (draft.mode === 'smart') return { mode: 'smart', styleCount: draft.styleCount };
  if (draft.mode === 'template')
    return {
      mode: 'template',
      backgroundType: draft.backgroundType as Extract<BatchChoice, { mode: 'template' }>['backgroundType'],
      count: draft.count,
    };
  const prompt = draft.prompt.trim();
  return prompt ? { mode: 'prompt', prompt, count: draft.count } : null;
}

const range = (max: number) => Array.from({ length: max }, (_, n) => n + 1);

const MODES: { mode: ChoiceMode; label: string; hint: string }[] = [
  { mode: 'smart', label: 'Smart styles', hint: 'We study each product and design styles for it.' },
  { mode: 'template', label: 'One template', hint: 'The same scene for every photo.' },
  { mode: 'prompt', label: 'Describe a scene', hint: 'Your words, for every photo.' },
];

/** One choice for the whole batch: smart with N styles, a template, or a prompt, with a count. */
export function BatchChoiceFields({ draft, onChange }: { draft: ChoiceDraft; onChange: (draft: ChoiceDraft) => void }) {
  const set = (change: Partial<ChoiceDraft>) => onChange({ ...draft, ...change });
  return (
    <fieldset className="batch-choice">
      <legend>What to make of every photo</legend>
      <div className="batch-modes" role="radiogroup" aria-label="Kind of shots">
        {MODES.map(({ mode, label, hint }) => (
          <label key={mode} className={draft.mode === mode ? 'batch-mode batch-mode-on' : 'batch-mode'}>
            <input
              type="radio"
              name="batch-mode"
              value={mode}
              checked={draft.mode === mode}
              onChange={() => set({ mode })}
            />
            <span className="batch-mode-label">{label}</span>
            <span className="muted small">{hint}</span>
          </label>
        ))}
      </div>
      {draft.mode === 'smart' ? (
        <label className="batch-field">
          Styles per photo
          <select value={draft.styleCount} onChange={(event) => set({ styleCount: Number(event.target.value) })}>
            {range(SMART_STYLES_MAX).map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
      ) : (
        <>
          {draft.mode === 'template' ? (
            <label className="batch-field">
              Template
              <select value={draft.backgroundType} onChange={(event) => set({ backgroundType: event.target.value })}>
                {TEMPLATES.map((template) => (
                  <option key={template.handle} value={template.handle}>
                    {template.name}
                  </option>
                ))}
              </select>
            </label>
          ) : (
            <label className="batch-field batch-prompt">
              Scene
              <textarea
                value={draft.prompt}
                maxLength={PROMPT_MAX_LENGTH}
                rows={2}
                placeholder="On a marble counter in soft morning light"
                onChange={(event) => set({ prompt: event.target.value })}
              />
            </label>
          )}
          <label className="batch-field">
            Shots per photo
            <select value={draft.count} onChange={(event) => set({ count: Number(event.target.value) })}>
              {range(OUTPUTS_PER_REQUEST_MAX).map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
        </>
      )}
    </fieldset>
  );
}
