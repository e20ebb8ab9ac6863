import { Link } from 'react-router-dom';

/** An empty list of a seller's images, with the way to fill it: every one starts from an upload on the dashboard. */
export function UploadFirstPhoto({ message }: { message: string }) {
  return (
    <div className="empty">
      <p>{message}</p>
      <Link to="/dashboard" className="button button-small">
        Upload your first photo
      </Link>
    </div>
  );
}
