import {
  TAP_PRODUCT_MESSAGE,
  TAP_TO_FIND_MESSAGE,
  type Focus,
  type SubjectCandidateDto,
  type SubjectDto,
} from '@prodshot/contracts';
import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type CSSProperties,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { Spinner } from '../../components/ui/spinner.js';
import { boxContains, focusAt, percent, pictureBox, type Box } from './image-box.js';
import type { SubjectPhase } from './api/get-subject.js';
import { useOutlineActions } from './api/outline.js';
import './tap-to-pick.css';

export const FINDING_PRODUCT = 'Finding your product…';
export const LOOKING_WHERE_TAPPED = 'Looking where you tapped…';
const FIND_FAILED = 'Could not look there. Tap your product again.';
/** Only shown if a failed subject came without its reason, which the contract does not expect. */
const NO_PRODUCT_FALLBACK = "We couldn't find a product in this photo. Please try another one.";

export interface TapToPickProps {
  src: string;
  alt: string;
  subject: SubjectDto | undefined;
  phase: SubjectPhase;
  focus: Focus | null;
  onFocus: (focus: Focus) => void;
  /** Once generation has started the choice is sent: the marker stays, taps no longer change it. */
  locked?: boolean;
  frameClassName?: string;
  imageClassName?: string;
  /** Overlays of the host screen (a busy veil) that belong over the picture. */
  children?: ReactNode;
}

function boxStyle({ box }: SubjectCandidateDto): CSSProperties {
  return { left: percent(box.x), top: percent(box.y), width: percent(box.width), height: percent(box.height) };
}

/** The picture's box relative to the frame, so outlines and the marker sit on the photo, not on its letterbox bars. */
function layerBox(frame: HTMLElement, img: HTMLImageElement): Box | null {
  const picture = pictureBox(img);
  if (!picture) return null;
  const rect = frame.getBoundingClientRect();
  return {
    left: picture.left - rect.left - frame.clientLeft,
    top: picture.top - rect.top - frame.clientTop,
    width: picture.width,
    height: picture.height,
  };
}

function useLayerBox(active: boolean) {
  const frame = useRef<HTMLDivElement>(null);
  const img = useRef<HTMLImageElement>(null);
  const [layer, setLayer] = useState<Box | null>(null);
  const measure = useCallback(() => {
    if (frame.current && img.current) setLayer(layerBox(frame.current, img.current));
  }, []);
  useEffect(() => {
    if (!active) return;
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    if (frame.current) observer.observe(frame.current);
    if (img.current) observer.observe(img.current);
    return () => observer.disconnect();
  }, [active, measure]);
  return { frame, img, layer, measure };
}

/**
 * The upload preview as the tap step: when the engine cannot tell which object is the product, the
 * seller taps it (or picks an outlined candidate by keyboard) and the chosen point is reported as
 * fractions of the photo's natural size. When the engine saw no product at all in a photo it could
 * read, the seller may tap where it is: the outline is made for that keep tap, and a product found
 * there overturns the refusal (the subject turns ready, with the outline to check).
 */
export function TapToPick({
  src,
  alt,
  subject,
  phase,
  focus,
  onFocus,
  locked = false,
  frameClassName,
  imageClassName,
  children,
}: TapToPickProps) {
  const picking = phase === 'tap' && !locked;
  const find = useOutlineActions(subject?.imageId ?? null).remake;
  const findable = phase === 'failed' && Boolean(subject?.tapMayFind) && !locked;
  // The tap being looked at is marked where it was made until the answer comes.
  const marked = phase === 'tap' ? focus : find.isPending ? (find.variables[0] ?? null) : null;
  const showLayer = (phase === 'tap' && (picking || focus !== null)) || marked !== null;
  const { frame, img, layer, measure } = useLayerBox(showLayer);
  const messageId = useId();

  function tapAt(event: MouseEvent<HTMLDivElement>) {
    // Enter or Space on a candidate also arrives here as a click without coordinates: that button handles it.
    if (!(picking || (findable && !find.isPending)) || event.detail === 0 || !img.current) return;
    const picture = pictureBox(img.current);
    const chosen = picture && focusAt(event.clientX, event.clientY, picture);
    if (!chosen) return;
    if (picking) onFocus(chosen);
    else find.mutate([{ ...chosen, keep: true }]);
  }

  function pickCandidate(event: MouseEvent<HTMLButtonElement>, candidate: SubjectCandidateDto) {
    if (event.detail !== 0) return;
    event.stopPropagation();
    onFocus(candidate.point);
  }

  const candidates = subject?.candidates ?? [];
  const frameClass = ['tap-frame', frameClassName, (picking || findable) && 'tap-frame-picking']
    .filter(Boolean)
    .join(' ');
  return (
    <div className="tap-pick">
      {picking && (
        <p className="notice tap-message" id={messageId}>
          {TAP_PRODUCT_MESSAGE}
        </p>
      )}
      {phase === 'failed' && (
        <p className="form-error" role="alert">
          {subject?.error || NO_PRODUCT_FALLBACK}
        </p>
      )}
      {findable && <p className="notice tap-message">{TAP_TO_FIND_MESSAGE}</p>}
      {phase === 'failed' && find.error && (
        <p className="form-error" role="alert">
          {find.error.message || FIND_FAILED}
        </p>
      )}
      <div ref={frame} className={frameClass} onClick={tapAt}>
        <img ref={img} src={src} alt={alt} className={imageClassName} draggable={false} onLoad={measure} />
        {showLayer && (
          <div className="tap-layer" style={layer ?? { inset: 0 }}>
            {picking &&
              candidates.map((candidate, index) => (
                <button
                  key={index}
                  type="button"
                  className="tap-candidate"
                  style={boxStyle(candidate)}
                  aria-label={`Object ${index + 1} of ${candidates.length}`}
                  aria-describedby={messageId}
                  aria-pressed={focus !== null && boxContains(candidate.box, focus)}
                  onClick={(event) => pickCandidate(event, candidate)}
                />
              ))}
            {marked && (
              <span
                className="tap-marker"
                style={{ left: percent(marked.x), top: percent(marked.y) }}
                data-testid="tap-marker"
                aria-hidden="true"
              />
            )}
          </div>
        )}
        {(phase === 'pending' || find.isPending) && (
          <div className="tap-pending">
            <Spinner label={phase === 'pending' ? FINDING_PRODUCT : LOOKING_WHERE_TAPPED} showLabel />
          </div>
        )}
        {children}
      </div>
      {picking && focus && (
        <p className="muted small tap-hint" role="status">
          Product marked. Tap again to change it.
        </p>
      )}
    </div>
  );
}
