import { useCallback, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import './home.css';

export function clampPercent(value: number): number {
  return Math.min(100, Math.max(0, value));
}

/** Before/after comparison: a divider dragged (or moved with the keyboard) from 0 to 100 %, starting at 50 %. */
export function BeforeAfterSlider({
  before,
  after,
  beforeAlt,
  afterAlt,
}: {
  before: string;
  after: string;
  beforeAlt: string;
  afterAlt: string;
}) {
  const [position, setPosition] = useState(50);
  const frame = useRef<HTMLDivElement>(null);
  const dragging = useRef(false);

  const moveTo = useCallback((clientX: number) => {
    const rect = frame.current?.getBoundingClientRect();
    if (!rect || rect.width === 0) return;
    setPosition(clampPercent(((clientX - rect.left) / rect.width) * 100));
  }, []);

  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    dragging.current = true;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    moveTo(event.clientX);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const step = event.shiftKey ? 10 : 1;
    const next: Record<string, number> = {
      ArrowLeft: position - step,
      ArrowDown: position - step,
      ArrowRight: position + step,
      ArrowUp: position + step,
      PageDown: position - 10,
      PageUp: position + 10,
      Home: 0,
      End: 100,
    };
    if (event.key in next) {
      event.preventDefault();
      setPosition(clampPercent(next[event.key]!));
    }
  }

  return (
    <div
      ref={frame}
      className="compare"
      onPointerDown={onPointerDown}
      onPointerMove={(event) => dragging.current && moveTo(event.clientX)}
      onPointerUp={() => (dragging.current = false)}
      onPointerCancel={() => (dragging.current = false)}
    >
      <img
        src={after}
        alt={afterAlt}
        className="compare-image"
        draggable={false}
        width={640}
        height={640}
        loading="lazy"
        decoding="async"
      />
      <div className="compare-before" style={{ clipPath: `inset(0 ${100 - position}% 0 0)` }}>
        <img
          src={before}
          alt={beforeAlt}
          className="compare-image"
          draggable={false}
          width={640}
          height={640}
          loading="lazy"
          decoding="async"
        />
      </div>
      <span className="compare-label compare-label-before">Before</span>
      <span className="compare-label compare-label-after">After</span>
      <div
        className="compare-handle"
        style={{ left: `${position}%` }}
        role="slider"
        tabIndex={0}
        aria-label="Before and after divider"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(position)}
        aria-valuetext={`${Math.round(position)}% before`}
        onKeyDown={onKeyDown}
      >
        <span className="compare-knob" aria-hidden="true">
          ⟷
        </span>
      </div>
    </div>
  );
}
