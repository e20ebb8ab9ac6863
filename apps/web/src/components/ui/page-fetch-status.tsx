import { Spinner } from './spinner.js';

/** What a numbered page shows while its items are fetched, or when fetching them failed. */
export function PageFetchStatus({
  loading,
  failed,
  label,
  failedMessage,
  onRetry,
}: {
  loading: boolean;
  failed: boolean;
  label: string;
  failedMessage: string;
  onRetry: () => void;
}) {
  if (loading) return <Spinner label={label} />;
  if (!failed) return null;
  return (
    <div className="page-fetch-failed">
      <p className="form-error" role="alert">
        {failedMessage}
      </p>
      <button type="button" className="button button-ghost" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
