import { NotFoundNotice } from '../../components/ui/not-found-notice.js';

/** The API answers 404 alike for an id that never existed and for another seller's generation. */
export function GenerationNotFound() {
  return (
    <NotFoundNotice
      title="Generation not found"
      message="This generation does not exist, or it belongs to another account."
      next={{ to: '/smart-upload', label: 'Start a new generation' }}
    />
  );
}

/** A generation that could not be read (the network, a 5xx): say so and offer to read it again. */
export function GenerationLoadError({ onRetry, className = '' }: { onRetry: () => void; className?: string }) {
  return (
    <div className={`form-error ${className}`.trim()} role="alert">
      <p>Failed to load this generation. Please try again.</p>
      <button type="button" className="button button-small" onClick={onRetry}>
        Try Again
      </button>
    </div>
  );
}
