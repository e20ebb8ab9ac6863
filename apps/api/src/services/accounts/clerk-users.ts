import { createClerkClient, type ClerkClient } from '@clerk/backend';
import { isClerkAPIResponseError } from '@clerk/backend/errors';
import type { Config } from '@prodshot/config';
import { HttpError } from '../http-error.js';

type ClerkAuth = Extract<Config['auth'], { mode: 'clerk' }>;

/**
 * Clerk's Backend API, asked who a signed-in user really is. A request can claim any email; Clerk
 * knows which address the user proved they own, and only that one becomes the account's (and so
 * Stripe's customer_email).
 */
export class ClerkUsers {
  private readonly clerk: ClerkClient;

  constructor(auth: ClerkAuth) {
    this.clerk = createClerkClient({ secretKey: auth.secretKey, ...(auth.apiUrl ? { apiUrl: auth.apiUrl } : {}) });
  }

  /** The user's primary email address if Clerk verified it; null when it has none or it is unverified. */
  async verifiedPrimaryEmail(clerkId: string): Promise<string | null> {
    let user;
    try {
      user = await this.clerk.users.getUser(clerkId);
    } catch (error) {
      // A verified token of a user Clerk no longer has (deleted since): nothing to register.
      if (isClerkAPIResponseError(error) && error.status === 404) return null;
      throw new HttpError(
        503,
        'The sign-in provider could not be reached. Please try again.',
        'auth_provider_unavailable',
      );
    }
    const primary = user.emailAddresses.find((address) => address.id === user.primaryEmailAddressId);
    return primary?.verification?.status === 'verified' ? primary.emailAddress : null;
  }
}
