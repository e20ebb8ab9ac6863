/** `GET /api/client-config`: public settings the web app needs before anyone signs in. */
export type ClientAuthConfig = { mode: 'clerk'; publishableKey: string } | { mode: 'embedded' };

export interface ClientConfigResponse {
  auth: ClientAuthConfig;
}
