import { Link } from 'react-router-dom';
import { UploadFirstPhoto } from '../../components/ui/empty-state.js';
import { FallbackImage } from './fallback-image.js';
import type { UploadItem } from './upload-items.js';

/** The profile's newest uploads, each with its Delete. */
export function RecentUploads({ uploads, onDelete }: { uploads: UploadItem[]; onDelete: (item: UploadItem) => void }) {
  return (
    <section className="section" aria-labelledby="recent-uploads-title">
      <div className="sidebar-head">
        <h2 id="recent-uploads-title">Recent uploads</h2>
        <Link to="/all-uploads">View All</Link>
      </div>
      {uploads.length === 0 ? (
        <UploadFirstPhoto message="No uploads yet" />
      ) : (
        <ul className="image-grid image-grid-6">
          {uploads.map((item) => (
            <li key={item.imageId} className="card tile">
              <div className="tile-image">
                <FallbackImage id={item.id} image={item} alt={item.name} />
              </div>
              <div className="tile-meta">
                <span className="tile-name" title={item.name}>
                  {item.name}
                </span>
              </div>
              <button type="button" className="link-button danger small" onClick={() => onDelete(item)}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
