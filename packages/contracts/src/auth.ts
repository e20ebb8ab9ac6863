/** `POST /api/auth/register`: clerkId must be the subject of the bearer token sent with it. */
export interface RegisterRequest {
  email: string;
  name: string;
  clerkId: string;
}

export interface RegisterResponse {
  /** The session token the request was made with, which the web app keeps under the auth-token key. */
  token: string;
  valid: true;
  userId: string;
}

export interface VerifyTokenRequest {
  token: string;
}

/** valid: the token verifies and its user is registered; false leads the web app to register. */
export interface VerifyTokenResponse {
  valid: boolean;
}

/** `POST /api/dev/sign-in`, embedded mode only. */
export interface DevSignInRequest {
  email: string;
  name: string;
}

export interface DevSignInResponse {
  token: string;
  userId: string;
}

/** The local-storage key the spec keeps the token under. */
export const AUTH_TOKEN_STORAGE_KEY = 'auth-token';
