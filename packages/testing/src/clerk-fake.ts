import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EmailAddressJSON, UserJSON } from '@clerk/backend';

/** One email address of a fake user: verified or not, as Clerk's verification object says. */
export interface ClerkFakeEmail {
  address: string;
  verified: boolean;
}

export interface ClerkFakeUser {
  id: string;
  emails: ClerkFakeEmail[];
  /** Index into emails of the primary address; none when null. */
  primary: number | null;
}

export interface ClerkFakeRequest {
  method: string;
  path: string;
  authorization: string | undefined;
}

export interface ClerkFake {
  /** http://127.0.0.1:port, for CLERK_API_URL. */
  url: string;
  requests: ClerkFakeRequest[];
  /** Makes (or replaces) a user that GET /v1/users/:id answers. */
  putUser(user: ClerkFakeUser): void;
  close(): Promise<void>;
}

const nowMs = () => Date.now();
const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** An email address as Clerk's Backend API answers it (components/schemas/EmailAddress), with an OTP verification. */
function emailJson(email: ClerkFakeEmail): EmailAddressJSON {
  return {
    id: id('idn'),
    object: 'email_address',
    email_address: email.address,
    // Clerk's verification object (verification_otp) has no id, which the SDK's JSON type asks for.
    verification: {
      object: 'verification_otp',
      status: email.verified ? 'verified' : 'unverified',
      strategy: 'email_code',
      attempts: email.verified ? 1 : 0,
      expire_at: nowMs() + 600_000,
    } as unknown as EmailAddressJSON['verification'],
    linked_to: [],
  };
}

/** A user as GET /v1/users/{user_id} answers it (Clerk's Backend API, components/schemas/User), with Clerk's own field names. */
function userJson(user: ClerkFakeUser): UserJSON {
  const emails = user.emails.map(emailJson);
  const created = nowMs();
  return {
    id: user.id,
    object: 'user',
    username: null,
    first_name: null,
    last_name: null,
    image_url: 'https://img.clerk.com/placeholder',
    has_image: false,
    primary_email_address_id: user.primary === null ? null : (emails[user.primary]?.id ?? null),
    primary_phone_number_id: null,
    primary_web3_wallet_id: null,
    password_enabled: false,
    two_factor_enabled: false,
    totp_enabled: false,
    backup_code_enabled: false,
    email_addresses: emails,
    phone_numbers: [],
    web3_wallets: [],
    organization_memberships: null,
    external_accounts: [],
    enterprise_accounts: [],
    password_last_updated_at: null,
    public_metadata: {},
    private_metadata: {},
    unsafe_metadata: {},
    external_id: null,
    last_sign_in_at: created,
    banned: false,
    locked: false,
    deprovisioned: false,
    lockout_expires_in_seconds: null,
    verification_attempts_remaining: 100,
    created_at: created,
    updated_at: created,
    last_active_at: created,
    create_organization_enabled: true,
    create_organizations_limit: null,
    delete_self_enabled: true,
    legal_accepted_at: null,
    locale: null,
    timezone: null,
  } as UserJSON;
}

/** Clerk's error body (components/schemas/ClerkErrors). */
function clerkErrors(code: string, message: string, longMessage: string) {
  return {
    errors: [{ code, message, long_message: longMessage, meta: {} }],
    clerk_trace_id: randomBytes(16).toString('hex'),
  };
}

/**
 * A local HTTP stand-in for Clerk's Backend API (https://api.clerk.com/v1), for the one call
 * Prodshot makes: GET /v1/users/{user_id}. It checks the secret key as Clerk does (401
 * authentication_invalid), answers 404 resource_not_found for a user it was not given, and speaks
 * Clerk's field names, so the real @clerk/backend client parses its answers.
 */
export async function startClerkFake(secretKey: string): Promise<ClerkFake> {
  const requests: ClerkFakeRequest[] = [];
  const users = new Map<string, UserJSON>();
  const server: Server = createServer((request, response) => {
    const method = request.method ?? 'GET';
    const path = (request.url ?? '/').split('?')[0]!;
    const authorization = request.headers.authorization;
    requests.push({ method, path, authorization });
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (authorization !== `Bearer ${secretKey}`) {
      return reply(
        401,
        clerkErrors('authentication_invalid', 'Invalid authentication', 'The provided secret key is invalid.'),
      );
    }
    const match = /^\/v1\/users\/([^/]+)$/.exec(path);
    if (method !== 'GET' || !match)
      return reply(404, clerkErrors('resource_not_found', 'not found', `${method} ${path} is not part of this fake`));
    const user = users.get(decodeURIComponent(match[1]!));
    return user ? reply(200, user) : reply(404, clerkErrors('resource_not_found', 'not found', 'User not found'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    putUser: (user) => users.set(user.id, userJson(user)),
    close: () => new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
