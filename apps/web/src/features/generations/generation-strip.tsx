import type { GenerationListItem } from '@prodshot/contracts';
import { BOX_SIZES, RenditionImage } from '../../components/ui/rendition-image.js';

/** The editor's 'All Generations' strip: the seller's newest shots, each opening its popup. */
export function GenerationStrip({
  items,
  onOpen,
}: {
  items: GenerationListItem[];
  onOpen: (item: GenerationListItem) => void;
}) {
  return (
    <section className="history">
      <h2>All Generations</h2>
      {items.length === 0 ? (
        <p className="empty">No generations yet</p>
      ) : (
        <ul className="strip" aria-label="All generations">
          {items.map((item) => (
            <li key={item.id}>
              <button
                type="button"
                className="thumb"
                onClick={() => onOpen(item)}
                aria-label={`Open generation ${item.id}`}
              >
                <RenditionImage image={item} sizes={BOX_SIZES.strip} alt={`Generation ${item.id}`} />
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
