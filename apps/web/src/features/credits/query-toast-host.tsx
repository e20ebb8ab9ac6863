import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useSubscription } from './api/get-subscription.js';
import { isSubscriptionReturn, TOAST_DURATION_MS, TOAST_PARAMS, toastFromQuery } from './query-toast.js';
import './query-toast.css';

/** Reads the toast parameters once, shows the toast bottom-right, and clears both after 10 s or on close. */
export function QueryToastHost() {
  const location = useLocation();
  const navigate = useNavigate();
  const subscription = useSubscription();
  const [params, setParams] = useState<URLSearchParams | null>(null);

  useEffect(() => {
    const found = new URLSearchParams(location.search);
    if (!toastFromQuery(found)) return;
    setParams(found);
    const timer = setTimeout(() => {
      setParams(null);
      clearRef.current();
    }, TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [location.search]);

  function clearParams() {
    const next = new URLSearchParams(location.search);
    for (const key of TOAST_PARAMS) next.delete(key);
    const search = next.toString();
    navigate({ pathname: location.pathname, search: search ? `?${search}` : '' }, { replace: true });
  }
  // The timer outlives renders; it calls the latest clearParams through this ref.
  const clearRef = useRef(clearParams);
  clearRef.current = clearParams;

  // After a purchase the subscription is read again: its old state would tell of a change that is not there.
  const toast =
    !params || (isSubscriptionReturn(params) && subscription.isFetching)
      ? null
      : toastFromQuery(params, subscription.data?.subscription);
  const box = useRef<HTMLDivElement>(null);
  useToastRoom(box, toast !== null);
  if (!toast) return null;
  return (
    <div
      ref={box}
      className={`toast toast-${toast.type}`}
      role={toast.type === 'error' ? 'alert' : 'status'}
      aria-live="polite"
    >
      <div>
        <p className="toast-title">{toast.title}</p>
        <p>{toast.description}</p>
        {toast.details && <p className="toast-details">{toast.details}</p>}
      </div>
      <button
        type="button"
        className="toast-close"
        aria-label="Close notification"
        onClick={() => {
          setParams(null);
          clearParams();
        }}
      >
        ✕
      </button>
    </div>
  );
}

/** The CSS variable the page's bottom padding reads (query-toast.css). */
export const TOAST_ROOM_VAR = '--toast-room';

/**
 * While the toast shows, the page gets room under its content as tall as the toast (and its 1rem
 * offset), so a phone can scroll its last controls above it and scrollIntoView stops short of it.
 */
function useToastRoom(box: RefObject<HTMLDivElement | null>, shown: boolean) {
  useLayoutEffect(() => {
    const root = document.documentElement;
    if (!shown || !box.current) return;
    root.style.setProperty(TOAST_ROOM_VAR, `${box.current.offsetHeight + 24}px`);
    return () => {
      root.style.removeProperty(TOAST_ROOM_VAR);
    };
  }, [shown, box]);
}
