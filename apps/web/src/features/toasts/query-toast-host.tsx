import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { TOAST_DURATION_MS, TOAST_PARAMS, toastFromQuery, type ToastMessage } from './query-toast.js';

/** Reads the toast parameters once, shows the toast bottom-right, and clears both after 10 s or on close. */
export function QueryToastHost() {
  const location = useLocation();
  const navigate = useNavigate();
  const [toast, setToast] = useState<ToastMessage | null>(null);

  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const found = toastFromQuery(params);
    if (!found) return;
    setToast(found);
    const timer = setTimeout(() => {
      setToast(null);
      clearRef.current();
    }, TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [location.search]);

  function clearParams() {
    const params = new URLSearchParams(location.search);
    for (const key of TOAST_PARAMS) params.delete(key);
    const search = params.toString();
    navigate({ pathname: location.pathname, search: search ? `?${search}` : '' }, { replace: true });
  }
  // The timer outlives renders; it calls the latest clearParams through this ref.
  const clearRef = useRef(clearParams);
  clearRef.current = clearParams;

  if (!toast) return null;
  return (
    <div className={`toast toast-${toast.type}`} role={toast.type === 'error' ? 'alert' : 'status'} aria-live="polite">
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
          setToast(null);
          clearParams();
        }}
      >
        ✕
      </button>
    </div>
  );
}
