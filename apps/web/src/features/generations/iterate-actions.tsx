import { MORE_LIKE_THIS_CREDITS, RETRY_STYLE_CREDITS, type ShotRef } from '@prodshot/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { creditCost } from '../../components/ui/count-choice.js';
import { BOX_SIZES, RenditionImage } from '../../components/ui/rendition-image.js';
import { ApiErrorNotice } from '../../components/ui/api-error-notice.js';
import { downloadShot, generationDownloadName } from '../../lib/download.js';
import { newIdempotencyKey } from '../../lib/idempotency.js';
import { queryKeys } from '../../lib/query-keys.js';
import { useGeneration } from './api/get-generation.js';
import { useMoreLikeThis } from './api/more-like-this.js';
import { useRetryStyle } from './api/retry-style.js';
import './iterate.css';

/** Navigation state of /editor opened from a result: the output's ids only; the editor reads its generation. */
export interface FromOutputState {
  fromOutput: ShotRef;
}

/** 'Open in editor' and 'More like this' for one finished output, wherever it is shown. */
export function IterateActions({ shot, label }: { shot: ShotRef; label: string }) {
  const navigate = useNavigate();
  const [made, setMade] = useState<string | null>(null);
  // One key per take asked for: a double click is the same request, which the API starts once.
  const key = useRef(newIdempotencyKey());
  const more = useMoreLikeThis(shot, (generationId) => {
    key.current = newIdempotencyKey();
    setMade(generationId);
  });
  const state: FromOutputState = { fromOutput: shot };
  return (
    <div className="iterate">
      <div className="iterate-actions">
        <button
          type="button"
          className="button button-small button-ghost"
          onClick={() => navigate('/editor', { state })}
        >
          Open in editor <span className="sr-only">({label})</span>
        </button>
        {/* A ghost: the button that spends is never the loudest on a result (issue 32). */}
        <button
          type="button"
          className="button button-small button-ghost"
          aria-disabled={more.isPending}
          onClick={() => {
            if (!more.isPending) more.mutate(key.current);
          }}
        >
          More like this <span className="button-cost">· {creditCost(MORE_LIKE_THIS_CREDITS)}</span>{' '}
          <span className="sr-only">({label})</span>
        </button>
      </div>
      {more.isError && (
        <ApiErrorNotice error={more.error} fallback="Could not start another take. Please try again." small />
      )}
      {made && <NewTake generationId={made} label={label} />}
    </div>
  );
}

/** The take More like this started: its progress, then the picture with its download. */
function NewTake({ generationId, label }: { generationId: string; label: string }) {
  const queryClient = useQueryClient();
  const { generation, settled } = useGeneration(generationId);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!settled) return;
    // Charged or refunded by now, and the history lists the new shot.
    void queryClient.invalidateQueries({ queryKey: queryKeys.subscription });
    void queryClient.invalidateQueries({ queryKey: queryKeys.recentGenerationsAll });
  }, [settled]);
  const slot = generation?.styles[0];
  if (slot?.status === 'failed') {
    return (
      <p className="form-error small" role="alert">
        {slot.error ?? 'The new take failed.'} Your credit was refunded.
      </p>
    );
  }
  if (!slot || slot.status !== 'complete' || !slot.thumbnailUrl || !slot.previewUrl) {
    return (
      <p className="muted small" role="status">
        <span className="spinner" aria-hidden="true" /> Making another take…
      </p>
    );
  }
  const shot = { generationId, index: slot.index };
  return (
    <figure className="new-take" data-testid="new-take">
      <RenditionImage
        image={{ thumbnailUrl: slot.thumbnailUrl, previewUrl: slot.previewUrl }}
        sizes={BOX_SIZES.styleThumb}
        alt={`Another take of ${label}`}
      />
      <figcaption>
        <span className="small">New take ready</span>
        <button
          type="button"
          className="button button-small button-ghost"
          onClick={() =>
            downloadShot(shot, generationDownloadName(generationId)).catch(() =>
              setError('Download failed. Please try again.'),
            )
          }
        >
          Download
        </button>
        {error && <span className="form-error small">{error}</span>}
      </figcaption>
    </figure>
  );
}

/** 'Retry' for a failed smart style: charged only if the new attempt succeeds. */
export function RetryStyle({ shot, label }: { shot: ShotRef; label: string }) {
  const key = useRef(newIdempotencyKey());
  const retry = useRetryStyle(shot, () => {
    key.current = newIdempotencyKey();
  });
  return (
    <div className="iterate">
      <button
        type="button"
        className="button button-small"
        aria-disabled={retry.isPending}
        onClick={() => {
          if (!retry.isPending) retry.mutate(key.current);
        }}
      >
        Retry <span className="button-cost">· {creditCost(RETRY_STYLE_CREDITS)} if it works</span>{' '}
        <span className="sr-only">({label})</span>
      </button>
      {retry.isError && (
        <ApiErrorNotice error={retry.error} fallback="Could not retry this style. Please try again." small />
      )}
    </div>
  );
}
