import type { RefObject } from 'react';
import { creditCost } from '../../components/ui/count-choice.js';
import { EditorProblemNotice, type EditorProblem } from './editor-problem.js';
import './editor.css';

export interface GenerateBarProps {
  /** What Generate asks for now ('Marble', 'Custom', 'Auto') and how many images. */
  asking: { name: string; count: number };
  /** The picture in the preview, small: on a phone the bar keeps it in sight. */
  mini: { src: string; onShow: () => void };
  problem: EditorProblem | null;
  planless: boolean;
  /** Why Generate waits for a tap on the product, when it does. */
  tapNote: string | null;
  generateButton: RefObject<HTMLButtonElement | null>;
  /** aria-disabled rather than disabled: a disabled button drops keyboard focus to <body>, and Generate disables itself on click. */
  blocked: boolean;
  busy: boolean;
  progress: number;
  onGenerate: () => void;
}

/**
 * Generate with its cost and what went wrong, where the seller looks: the foot of the controls on
 * a desktop, a bar fixed to the bottom of a phone's screen with the preview in small.
 */
export function GenerateBar({
  asking,
  mini,
  problem,
  planless,
  tapNote,
  generateButton,
  blocked,
  busy,
  progress,
  onGenerate,
}: GenerateBarProps) {
  return (
    <div className="generate-bar" data-testid="generate-bar">
      {problem && (
        <div className="editor-problem">
          <EditorProblemNotice problem={problem} planless={planless} />
        </div>
      )}
      {tapNote && (
        <p className="notice" id="editor-tap-needed">
          {tapNote}
        </p>
      )}
      <div className="generate-row">
        <button type="button" className="generate-mini" onClick={mini.onShow} aria-label="Show the preview">
          <img src={mini.src} alt="" width={48} height={48} />
          {busy && (
            <span className="generate-mini-busy">
              {progress > 0 ? `${progress}%` : <span className="spinner" aria-hidden="true" />}
            </span>
          )}
        </button>
        <p className="generate-cost">{`${asking.name} · ${creditCost(asking.count)}`}</p>
        <button
          ref={generateButton}
          type="button"
          className="button button-large"
          aria-disabled={blocked}
          aria-describedby={tapNote ? 'editor-tap-needed' : undefined}
          onClick={() => {
            if (!blocked) onGenerate();
          }}
        >
          {busy ? 'Generating…' : 'Generate'}
        </button>
      </div>
    </div>
  );
}
