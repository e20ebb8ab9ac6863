import { Type, type Static } from 'typebox';
import { StringEnum } from './string-enum.js';

/** What a key may do: `read` the GET routes, `generate` everything else a seller calls (upload, generate, edit, delete). */
export const API_KEY_SCOPES = ['generate', 'read'] as const;
export const ApiKeyScope = StringEnum(API_KEY_SCOPES);
export type ApiKeyScope = Static<typeof ApiKeyScope>;

export const API_KEY_NAME_MAX_LENGTH = 60;
/** Every key starts with one of these: `psk_live_` where sign-in is Clerk, `psk_test_` in the embedded (keyless) mode. */
export const API_KEY_PREFIXES = ['psk_live_', 'psk_test_'] as const;

/** `POST /api/keys`. */
export const CreateApiKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: API_KEY_NAME_MAX_LENGTH }),
    scopes: Type.Array(ApiKeyScope, { minItems: 1, maxItems: API_KEY_SCOPES.length, uniqueItems: true }),
  },
  { additionalProperties: false },
);
export type CreateApiKeyBody = Static<typeof CreateApiKeyBody>;

/** A key as lists show it: never the key itself, only its first characters (`prefix`). */
export const ApiKey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  scopes: Type.Array(ApiKeyScope),
  prefix: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  lastUsedAddress: Type.Union([Type.String(), Type.Null()]),
});
export type ApiKey = Static<typeof ApiKey>;

/** The answer to `POST /api/keys`: the only time `key` is ever sent. */
export const CreatedApiKey = Type.Object({ ...ApiKey.properties, key: Type.String() });
export type CreatedApiKey = Static<typeof CreatedApiKey>;

/** `GET /api/keys`: the caller's unrevoked keys, newest first. */
export const ApiKeysResponse = Type.Object({ data: Type.Array(ApiKey) });
export type ApiKeysResponse = Static<typeof ApiKeysResponse>;

/** `DELETE /api/keys/:id`: the key no longer opens anything, from this request on. */
export const RevokedApiKeyResponse = Type.Object({
  data: Type.Object({ id: Type.String(), revoked: Type.Literal(true) }),
});
export type RevokedApiKeyResponse = Static<typeof RevokedApiKeyResponse>;

export const ApiKeyParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export type ApiKeyParams = Static<typeof ApiKeyParams>;

/** 401 of a key unknown or revoked. */
export const API_KEY_REFUSED_MESSAGE = 'This API key is not valid or has been revoked.';
/** 403 of a key on a session-only route: keys and payments. */
export const API_KEY_SESSION_ONLY_MESSAGE = 'API keys cannot manage keys or payments; sign in to Prodshot to do this.';
/** 403 of a key on a route its scopes do not cover. */
export function apiKeyScopeMessage(scope: ApiKeyScope): string {
  return `This API key lacks the "${scope}" scope this request needs; create a key with it on your profile.`;
}
