import { Type, type Static } from 'typebox';
import { NAME_MAX_LENGTH } from './users.js';

const Email = Type.String({ format: 'email', maxLength: 320 });

/**
 * `POST /api/auth/register`: clerkId must be the subject of the bearer token sent with it. With
 * Clerk, email is not taken from here: the account gets the primary address Clerk verified.
 */
export const RegisterRequest = Type.Object({
  email: Email,
  name: Type.String({ maxLength: NAME_MAX_LENGTH }),
  clerkId: Type.String({ minLength: 1, maxLength: 200 }),
});
export type RegisterRequest = Static<typeof RegisterRequest>;

export const RegisterResponse = Type.Object({
  /** The session token the request was made with, which the web app keeps under the auth-token key. */
  token: Type.String(),
  valid: Type.Literal(true),
  userId: Type.String(),
});
export type RegisterResponse = Static<typeof RegisterResponse>;

export const VerifyTokenRequest = Type.Object({ token: Type.String({ maxLength: 8192 }) });
export type VerifyTokenRequest = Static<typeof VerifyTokenRequest>;

/** valid: the token verifies and its user is registered; false leads the web app to register. */
export const VerifyTokenResponse = Type.Object({ valid: Type.Boolean() });
export type VerifyTokenResponse = Static<typeof VerifyTokenResponse>;

/** `POST /api/dev/sign-in`, embedded mode only. */
export const DevSignInRequest = Type.Object({
  email: Email,
  name: Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH }),
});
export type DevSignInRequest = Static<typeof DevSignInRequest>;

export const DevSignInResponse = Type.Object({ token: Type.String(), userId: Type.String() });
export type DevSignInResponse = Static<typeof DevSignInResponse>;

/** Registration with Clerk when the user's primary email address is not verified there. */
export const EMAIL_NOT_VERIFIED_MESSAGE = 'Verify your email address with the sign-in provider, then sign in again.';

/** The local-storage key the spec keeps the token under. */
export const AUTH_TOKEN_STORAGE_KEY = 'auth-token';
