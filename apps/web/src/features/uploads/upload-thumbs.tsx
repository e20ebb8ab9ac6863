import { Link } from 'react-router-dom';
import { BOX_SIZES, RenditionImage } from '../../components/ui/rendition-image.js';
import { Spinner } from '../../components/ui/spinner.js';
import type { UploadItem } from './upload-items.js';

/** The dashboard sidebar's newest uploads: a tap takes one up again. */
export function UploadThumbs({ loading, uploads, offerFirstUpload, onReuse }: { loading: boolean; uploads: UploadItem[]; offerFirstUpload: boolean; onReuse: (item: UploadItem) => void }) {
  return (
    <section>
      <div className="sidebar-head">
        <h2>Uploads</h2>
        <Link to="/all-uploads">View All</Link>
      </div>
      {loading ? (
        <Spinner label="Loading uploads" />
      ) : uploads.length === 0 ? (
        <div className="empty">
          <p>No uploads yet</p>
          {offerFirstUpload && (
            <button type="button" className="button button-small" onClick={() => document.getElementById('image-input')?.click()}>
              Upload your first photo
            </button>
          )}
        </div>
      ) : (
        <ul className="thumb-grid">
          {uploads.map((item) => (
            <li key={item.imageId}>
              <button type="button" className="thumb" onClick={() => onReuse(item)} aria-label={`Use ${item.name}`}>
                <RenditionImage image={item} sizes={BOX_SIZES.sidebarThumb} alt={item.name} />
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
