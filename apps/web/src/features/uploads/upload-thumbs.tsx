import { BOX_SIZES, RenditionImage } from '../../components/ui/rendition-image.js';
import { SidebarSection } from '../../components/ui/sidebar-section.js';
import type { UploadItem } from './upload-items.js';

/** The dashboard sidebar's newest uploads: a tap takes one up again. */
export function UploadThumbs({
  uploads,
  offerFirstUpload,
  onReuse,
}: {
  uploads: UploadItem[];
  offerFirstUpload: boolean;
  onReuse: (item: UploadItem) => void;
}) {
  const empty = (
    <div className="empty">
      <p>No uploads yet</p>
      {offerFirstUpload && (
        <button
          type="button"
          className="button button-small"
          onClick={() => document.getElementById('image-input')?.click()}
        >
          Upload your first photo
        </button>
      )}
    </div>
  );
  return (
    <SidebarSection title="Uploads" viewAll="/all-uploads" empty={uploads.length === 0 ? empty : null}>
      {uploads.map((item) => (
        <li key={item.imageId}>
          <button type="button" className="thumb" onClick={() => onReuse(item)} aria-label={`Use ${item.name}`}>
            <RenditionImage image={item} sizes={BOX_SIZES.sidebarThumb} alt={item.name} />
          </button>
        </li>
      ))}
    </SidebarSection>
  );
}
