import { SUPPORTED_PRODUCT_LIST, type GenerationDto, type StyleSlotDto } from '@prodshot/contracts';
import type { ReactNode } from 'react';
import { BOX_SIZES, RenditionImage } from '../../components/ui/rendition-image.js';
import { smartFailure, STAGE_LABELS, stepStates } from './smart-status.js';
import './smart.css';

/**
 * The smart flow's steps, then each style's state, or the reason the run produced nothing.
 * `summary` sits between the steps and the styles, in a slot of fixed height: what it holds may
 * change (a count, then a button) without moving the styles below it.
 */
export function SmartProgress({
  run,
  actions,
  summary,
}: {
  run: GenerationDto | undefined;
  actions?: (style: StyleSlotDto) => ReactNode;
  summary?: ReactNode;
}) {
  const failure = smartFailure(run);
  // Styles that all failed stay listed under the message: each can still be retried.
  const showStyles = !failure || (!failure.unsupported && (run?.styles.length ?? 0) > 0);
  return (
    <>
      <ol className="steps">
        {stepStates(run).map(({ stage, state }) => (
          <li key={stage} className={`step step-${state}`}>
            <span className="step-dot" aria-hidden="true">
              {state === 'done' ? '✓' : ''}
            </span>
            {STAGE_LABELS[stage]}
            <span className="sr-only">
              {state === 'done' ? ' (done)' : state === 'current' ? ' (in progress)' : ''}
            </span>
          </li>
        ))}
      </ol>
      {summary !== undefined && <div className="smart-summary">{summary}</div>}
      {failure && (
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
      )}
      {showStyles && (
        <ul className="style-cards">
          {(run?.styles ?? []).map((style) => (
            <li key={style.index} className={`style-card style-${style.status}`} data-testid="style-card">
              <div className="style-thumb">
                {style.thumbnailUrl && style.previewUrl ? (
                  <RenditionImage
                    image={{ thumbnailUrl: style.thumbnailUrl, previewUrl: style.previewUrl }}
                    sizes={BOX_SIZES.styleThumb}
                    alt={`${style.name} style`}
                    eager
                  />
                ) : style.status === 'failed' ? (
                  // A failed style is not coming: no spinner, and Retry beside it.
                  <span className="style-failed-mark" aria-hidden="true">
                    !
                  </span>
                ) : (
                  <span className="spinner" aria-hidden="true" />
                )}
              </div>
              <div>
                <p className="style-name">{style.name}</p>
                <p className="style-status">{styleStatus(style)}</p>
                {actions?.(style)}
              </div>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function styleStatus(style: StyleSlotDto): string {
  switch (style.status) {
    case 'complete':
      return 'Complete!';
    case 'failed':
      return `Failed: ${style.error ?? 'unknown error'}`;
    case 'running':
      return `Generating… ${style.progress}%`;
    default:
      return 'Waiting…';
  }
}
