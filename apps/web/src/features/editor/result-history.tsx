import { BOX_SIZES, RenditionImage } from '../../components/ui/rendition-image.js';
import type { HistoryEntry, Shot } from './editor-shots.js';
import './editor.css';

/** The shots of one request, when it made more than one: a tap shows one in the preview. */
export function ResultStrip({
  results,
  shown,
  onShow,
}: {
  results: Shot[];
  shown: number;
  onShow: (index: number) => void;
}) {
  if (results.length <= 1) return null;
  return (
    <ul className="strip" aria-label="Results">
      {results.map((image, index) => (
        <li key={image.url}>
          <button
            type="button"
            className={index === shown ? 'thumb selected' : 'thumb'}
            onClick={() => onShow(index)}
            aria-label={`Show result ${index + 1}`}
          >
            <RenditionImage image={image} sizes={BOX_SIZES.strip} alt={`Result ${index + 1}`} />
          </button>
        </li>
      ))}
    </ul>
  );
}

/** This visit's requests, newest first: a tap brings a request's shots back into the preview. */
export function SessionHistory({
  history,
  activeEntry,
  onShow,
}: {
  history: HistoryEntry[];
  activeEntry: number | null;
  onShow: (entry: HistoryEntry) => void;
}) {
  if (history.length === 0) return null;
  return (
    <section className="history">
      <h2>Session history</h2>
      <ul>
        {history.map((entry) => (
          <li key={entry.key}>
            <button
              type="button"
              className={entry.key === activeEntry ? 'history-entry selected' : 'history-entry'}
              onClick={() => onShow(entry)}
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
  );
}
