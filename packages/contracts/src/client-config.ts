/** `GET /api/client-config`: public settings the web app needs before anyone signs in. */
/** `jwtTemplate`: the Clerk JWT template to ask tokens from (CLERK_JWT_TEMPLATE); absent, the session token. */
export type ClientAuthConfig = { mode: 'clerk'; publishableKey: string; jwtTemplate?: string } | { mode: 'embedded' };

export interface ClientConfigResponse {
  auth: ClientAuthConfig;
}
