import type { BatchDto, BatchItemDto, BatchOutputDto } from '@prodshot/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, type MouseEvent } from 'react';
import { BOX_SIZES, RenditionImage } from '../../components/ui/rendition-image.js';
import { byteSize } from '../../lib/download.js';
import { queryKeys } from '../../lib/query-keys.js';
import { STAGE_LABELS, useGeneration } from '../generations/index.js';
import { linkExpiry } from './link-expiry.js';

/** A link this close to its end is renewed before the browser follows it. */
const LINK_MARGIN_SECONDS = 30;

type Live = Pick<BatchItemDto, 'status' | 'stage' | 'error'> & { outputs: BatchOutputDto[] };

/** One photo as it stands now: its generation's live cache entry (socket events) once read, else the batch's copy. */
function useLiveItem(batchId: string, item: BatchItemDto): Live {
  const queryClient = useQueryClient();
  const { generation, settled } = useGeneration(item.generationId);
  const itemSettled = item.status === 'complete' || item.status === 'failed';
  // A photo that settled since the batch was read: read the batch again for its outputs and zip link.
  useEffect(() => {
    if (settled && !itemSettled) void queryClient.invalidateQueries({ queryKey: queryKeys.batch(batchId) });
  }, [settled, itemSettled, batchId, queryClient]);
  if (!generation) return item;
  return { status: generation.status, stage: generation.stage, error: generation.error, outputs: generation.styles };
}

function outputLabel(output: BatchOutputDto): string {
  if (output.status === 'complete') return 'Done';
  if (output.status === 'failed') return output.error ?? 'Failed';
  if (output.status === 'running') return output.progress > 0 ? `${output.progress}%` : 'Generating…';
  return 'Waiting';
}

function itemLabel(live: Live): string {
  const done = live.outputs.filter((output) => output.status === 'complete').length;
  if (live.status === 'failed' && done === 0) return live.error ?? 'Failed';
  if (live.outputs.length === 0)
    return live.stage ? `${STAGE_LABELS[live.stage as keyof typeof STAGE_LABELS] ?? live.stage}…` : 'Waiting in line';
  return `${done} of ${live.outputs.length} done`;
}

function BatchItemRow({ batchId, item }: { batchId: string; item: BatchItemDto }) {
  const live = useLiveItem(batchId, item);
  // 'product' is only the zip's fallback name: on screen an untitled photo goes by its place.
  const title = item.productTitle === 'product' ? `Photo ${item.position + 1}` : item.productTitle;
  return (
    <li className={`batch-item card batch-item-${live.status}`} data-testid="batch-item">
      {item.thumbnailUrl ? (
        <img
          src={item.thumbnailUrl}
          alt={`Photo ${item.position + 1}: ${title}`}
          className="batch-thumb"
          width={96}
          height={96}
        />
      ) : (
        <span className="batch-thumb" />
      )}
      <div className="batch-item-body">
        <p className="batch-item-title">{title}</p>
        <p className="muted small batch-item-status">{itemLabel(live)}</p>
        <ul className="batch-outputs">
          {live.outputs.map((output) => (
            <li key={output.index} className={`batch-output batch-output-${output.status}`} data-testid="batch-output">
              {output.url && output.thumbnailUrl && output.previewUrl ? (
                <a className="batch-output-frame" href={output.url} target="_blank" rel="noreferrer">
                  <RenditionImage
                    image={{ thumbnailUrl: output.thumbnailUrl, previewUrl: output.previewUrl }}
                    sizes={BOX_SIZES.styleThumb}
                    alt={`${title}, ${output.name}`}
                  />
                </a>
              ) : (
                <span className="batch-output-frame">
                  {output.status === 'failed' ? (
                    <span aria-hidden="true">✕</span>
                  ) : (
                    <span className="spinner" aria-hidden="true" />
                  )}
                </span>
              )}
              <span className="small">
                {output.name}: {outputLabel(output)}
              </span>
            </li>
          ))}
        </ul>
      </div>
    </li>
  );
}

/**
 * Where a batch stands, photo by photo, and 'Download all' (the JPEGs, its size on the button) with
 * the original PNGs as the second choice. The zip downloads by following the
 * batch's short-lived signed link: the browser streams it to disk itself, so a 20-photo zip is
 * never held in page memory as a blob, and no bearer token is needed on a navigation.
 */
export function BatchProgress({ batch, renew }: { batch: BatchDto; renew: () => Promise<string | null> }) {
  const settled = batch.status === 'complete' || batch.status === 'failed';
  async function download(event: MouseEvent<HTMLAnchorElement>, file?: 'original') {
    if (!batch.archiveUrl || linkExpiry(batch.archiveUrl) - LINK_MARGIN_SECONDS > Date.now() / 1000) return;
    event.preventDefault();
    const fresh = await renew();
    if (fresh) window.location.assign(file ? `${fresh}&file=${file}` : fresh);
  }
  return (
    <>
      <div className="batch-summary card">
        <p aria-live="polite">
          {settled
            ? 'Your batch is done.'
            : 'Your photos are being made. You can leave this page and come back: the batch goes on.'}
        </p>
        {batch.archiveUrl ? (
          <div className="batch-downloads">
            <a className="button" href={batch.archiveUrl} download onClick={(event) => void download(event)}>
              Download all{settled ? '' : ' finished so far'}
              {batch.archiveBytes !== null && ` · ${byteSize(batch.archiveBytes)}`}
            </a>
            <a
              className="button button-ghost"
              href={`${batch.archiveUrl}&file=original`}
              download
              onClick={(event) => void download(event, 'original')}
            >
              Original PNGs{batch.originalArchiveBytes !== null && ` · ${byteSize(batch.originalArchiveBytes)}`}
            </a>
          </div>
        ) : (
          <button type="button" className="button" disabled>
            Download all
          </button>
        )}
      </div>
      <ul className="batch-items" aria-label="Photos in this batch">
        {batch.items.map((item) => (
          <BatchItemRow key={item.generationId} batchId={batch.id} item={item} />
        ))}
      </ul>
    </>
  );
}
