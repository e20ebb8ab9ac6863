import { Type, type Static } from 'typebox';

/** `jwtTemplate`: the Clerk JWT template to ask tokens from (CLERK_JWT_TEMPLATE); absent, the session token. */
export const ClientAuthConfig = Type.Union([
  Type.Object({
    mode: Type.Literal('clerk'),
    publishableKey: Type.String(),
    jwtTemplate: Type.Optional(Type.String()),
  }),
  Type.Object({ mode: Type.Literal('embedded') }),
]);
export type ClientAuthConfig = Static<typeof ClientAuthConfig>;

/** `GET /api/client-config`: public settings the web app needs before anyone signs in. */
export const ClientConfigResponse = Type.Object({ auth: ClientAuthConfig });
export type ClientConfigResponse = Static<typeof ClientConfigResponse>;
