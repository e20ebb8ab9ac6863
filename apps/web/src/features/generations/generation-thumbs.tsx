import type { GenerationListItem } from '@prodshot/contracts';
import { BOX_SIZES, RenditionImage } from '../../components/ui/rendition-image.js';
import { SidebarSection } from '../../components/ui/sidebar-section.js';

/** The dashboard sidebar's newest shots, each opening its popup. */
export function GenerationThumbs({
  items,
  onOpen,
}: {
  items: GenerationListItem[];
  onOpen: (item: GenerationListItem) => void;
}) {
  return (
    <SidebarSection
      title="Generations"
      viewAll="/all-generations"
      empty={items.length === 0 ? <p className="empty">No recent generations</p> : null}
    >
      {items.map((item) => (
        <li key={item.id}>
          <button
            type="button"
            className="thumb"
            onClick={() => onOpen(item)}
            aria-label={`Open generation ${item.id}`}
          >
            <RenditionImage image={item} sizes={BOX_SIZES.sidebarThumb} alt={`Generation ${item.id}`} />
          </button>
        </li>
      ))}
    </SidebarSection>
  );
}
