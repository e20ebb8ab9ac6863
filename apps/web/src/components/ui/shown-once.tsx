import { useState, type ReactNode } from 'react';

type CopyState = 'idle' | 'copied' | 'failed';

/**
 * A secret the server sends once (an API key, a webhook's signing secret): shown in full with
 * Copy, and a button to put it away. `noun` names it in the fallback when the clipboard refuses.
 */
export function ShownOnce({
  titleId,
  title,
  intro,
  secret,
  noun,
  testId,
  classNames,
  onDone,
}: {
  titleId: string;
  title: ReactNode;
  intro: ReactNode;
  secret: string;
  noun: string;
  testId: string;
  /** The feature's own classes for the panel and for the row holding the secret and Copy. */
  classNames: { panel: string; secret: string };
  onDone: () => void;
}) {
  const [copy, setCopy] = useState<CopyState>('idle');

  async function copySecret() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  }

  return (
    <div className={classNames.panel} role="region" aria-labelledby={titleId}>
      <h3 id={titleId}>{title}</h3>
      <p>{intro}</p>
      <div className={classNames.secret}>
        <code data-testid={testId}>{secret}</code>
        <button type="button" className="button button-small" onClick={() => void copySecret()}>
          Copy
        </button>
      </div>
      <p className="small" role="status">
        {copy === 'copied'
          ? 'Copied to the clipboard.'
          : copy === 'failed'
            ? `Could not copy: select the ${noun} and copy it yourself.`
            : ''}
      </p>
      <button type="button" className="button button-ghost button-small" onClick={onDone}>
        I have copied it
      </button>
    </div>
  );
}
