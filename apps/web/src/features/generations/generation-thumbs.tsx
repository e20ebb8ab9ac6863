import type { GenerationListItem } from '@prodshot/contracts';
import { Link } from 'react-router-dom';
import { BOX_SIZES, RenditionImage } from '../../components/ui/rendition-image.js';
import { Spinner } from '../../components/ui/spinner.js';

/** The dashboard sidebar's newest shots, each opening its popup. */
export function GenerationThumbs({ loading, items, onOpen }: { loading: boolean; items: GenerationListItem[]; onOpen: (item: GenerationListItem) => void }) {
  return (
    <section>
      <div className="sidebar-head">
        <h2>Generations</h2>
        <Link to="/all-generations">View All</Link>
      </div>
      {loading ? (
        <Spinner label="Loading generations" />
      ) : items.length === 0 ? (
        <p className="empty">No recent generations</p>
      ) : (
        <ul className="thumb-grid">
          {items.map((item) => (
            <li key={item.id}>
              <button type="button" className="thumb" onClick={() => onOpen(item)} aria-label={`Open generation ${item.id}`}>
                <RenditionImage image={item} sizes={BOX_SIZES.sidebarThumb} alt={`Generation ${item.id}`} />
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
