const AFTER_SIGN_IN = '/dashboard';

/**
 * Where a fresh session may be sent: a path on this site only. Anything that could leave it (an
 * absolute URL, `//host`, `/\host`, which browsers read as `//host`, or a control character that
 * a browser strips) falls back to the dashboard, so a crafted link cannot hand the session elsewhere.
 */
export function safeReturnPath(value: string | null | undefined, origin: string = window.location.origin): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\') || hasControlCharacter(value))
    return AFTER_SIGN_IN;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return AFTER_SIGN_IN;
  }
  return url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : AFTER_SIGN_IN;
}

function hasControlCharacter(value: string): boolean {
  return Array.from(value).some((character) => {
    const code = character.charCodeAt(0);
    return code < 0x20 || code === 0x7f;
  });
}

/** The sign-in (or sign-up) page that brings the seller back to `returnTo` afterwards. */
export function authPath(kind: 'sign-in' | 'sign-up', returnTo: string): string {
  return `/${kind}?redirect_url=${encodeURIComponent(returnTo)}`;
}

const PENDING_KEY = 'prodshot:return-path';

/**
 * The return path of this sign-in: from the address when it carries one (kept for the steps of the
 * sign-in that drop the query, as a hosted provider's redirects may), else the one kept earlier in
 * this tab, else the dashboard. Checked with safeReturnPath either way.
 */
export function pendingReturnPath(fromAddress: string | null): string {
  if (fromAddress) {
    const path = safeReturnPath(fromAddress);
    sessionStorage.setItem(PENDING_KEY, path);
    return path;
  }
  return safeReturnPath(sessionStorage.getItem(PENDING_KEY));
}

/** Once signed in, the kept path has been used: a later sign-in starts from the dashboard again. */
export function clearPendingReturnPath(): void {
  sessionStorage.removeItem(PENDING_KEY);
}
