import { SUPPORTED_PRODUCT_LIST, UNSUPPORTED_PRODUCT_MESSAGE, type SubjectDto } from '@prodshot/contracts';
import './photo-support.css';

/** A photo of the draft its upload analysis read as a kind Prodshot does not shoot yet: the photo decides, never its title. */
export function photoRefused(subject: SubjectDto | undefined): boolean {
  return subject?.status === 'ready' && subject.product?.supported === false;
}

/** What holds the batch back while some photos are refused: which to take out. */
export function refusedBlocker(places: number[]): string {
  const which =
    places.length === 1
      ? `photo ${places[0]}`
      : `photos ${places.slice(0, -1).join(', ')} and ${places[places.length - 1]}`;
  return `Remove ${which} to start: Prodshot does not shoot that product type yet.`;
}

/**
 * Under one photo of the batch draft, before anything is charged: whether Prodshot shoots it, as
 * its upload analysis read the photo (docs/decisions.md, "Product kind"). A refused photo gets the
 * spec's message and list in a notice with the way on (remove it), where the seller is looking,
 * rather than a failure after 'Confirm and start'. Nothing shows for a photo with no product found:
 * the outline check says why.
 */
export function PhotoSupport({
  subject,
  place,
  onRemove,
}: {
  subject: SubjectDto | undefined;
  place: number;
  onRemove: () => void;
}) {
  if (subject?.status === 'failed') return null;
  if (!subject || subject.status === 'pending') {
    return (
      <p className="photo-support muted small" data-testid="photo-support">
        Checking the product type…
      </p>
    );
  }
  const kind = subject.product?.kind ?? 'unknown';
  if (photoRefused(subject)) {
    return (
      <div className="photo-support photo-support-refused form-error" role="alert" data-testid="photo-support">
        <p className="photo-support-title">
          Photo {place}: {UNSUPPORTED_PRODUCT_MESSAGE} ({kind}).
        </p>
        <p>Nothing is charged for it. We currently support:</p>
        <ul>
          {SUPPORTED_PRODUCT_LIST.map((supported) => (
            <li key={supported}>{supported}</li>
          ))}
        </ul>
        <button type="button" className="button button-small button-danger" onClick={onRemove}>
          Remove photo {place}
        </button>
      </div>
    );
  }
  return (
    <p className="photo-support photo-support-ok small" data-testid="photo-support">
      <span aria-hidden="true">✓ </span>
      {kind === 'unknown' ? 'Ready to shoot' : `${kind[0]!.toUpperCase()}${kind.slice(1)}: ready to shoot`}
    </p>
  );
}
