/** Fetches the next page of a list the server pages; shown while there is one. */
export function LoadMore({ busy, failed, failedMessage, onLoadMore }: { busy: boolean; failed: boolean; failedMessage: string; onLoadMore: () => void }) {
  return (
    <div className="load-more">
      {failed && (
        <p className="form-error" role="alert">
          {failedMessage}
        </p>
      )}
      <button type="button" className="button button-ghost" onClick={onLoadMore} disabled={busy} aria-busy={busy}>
        {busy ? 'Loading…' : 'Load more'}
      </button>
    </div>
  );
}
