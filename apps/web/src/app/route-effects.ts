import { useEffect, useRef, type RefObject } from 'react';
import { useLocation, useMatches } from 'react-router-dom';

const SITE = 'Prodshot';
/** How long a new page may take (its code, then its data) to show its h1. */
const HEADING_WAIT_MS = 10_000;

/** Every route names itself in its `handle`; the document title follows. */
export interface RouteHandle {
  title: string;
  /** Starts fetching the page's chunk (routes.tsx preloadPages). */
  preload?: () => Promise<unknown>;
}

export function useRouteTitle(): void {
  const matches = useMatches();
  const title = [...matches]
    .reverse()
    .map((match) => (match.handle as RouteHandle | undefined)?.title)
    .find(Boolean);
  useEffect(() => {
    document.title = title ? `${title} · ${SITE}` : SITE;
  }, [title]);
}

/**
 * After a client-side navigation, focus moves to the new page's h1 (once its code and data have
 * brought it), as a full page load would start reading there. The first page keeps the browser's own
 * start, and focus the seller has already put inside the new page stays where it is.
 */
export function useRouteFocus(main: RefObject<HTMLElement | null>): void {
  const { pathname } = useLocation();
  // The path focus was last placed for: the first page's, so a re-run of the effect (StrictMode) moves nothing.
  const placed = useRef(pathname);
  useEffect(() => {
    if (placed.current === pathname) return;
    placed.current = pathname;
    const container = main.current;
    if (!container) return;
    const focusHeading = () => {
      const heading = container.querySelector('h1');
      if (!heading) return false;
      if (!container.contains(document.activeElement)) {
        heading.tabIndex = -1;
        heading.focus({ preventScroll: true });
      }
      return true;
    };
    if (focusHeading()) return;
    const observer = new MutationObserver(() => {
      if (focusHeading()) observer.disconnect();
    });
    observer.observe(container, { childList: true, subtree: true });
    const timer = setTimeout(() => observer.disconnect(), HEADING_WAIT_MS);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [pathname, main]);
}
