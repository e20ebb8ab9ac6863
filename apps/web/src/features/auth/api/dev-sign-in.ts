import type { DevSignInRequest, DevSignInResponse } from '@prodshot/contracts';
import { request } from '../../../lib/api-client.js';

/** The embedded sign-in: mints a session token for the email, before anyone is signed in. */
export const devSignIn = (body: DevSignInRequest) =>
  request<DevSignInResponse>('POST', '/dev/sign-in', body, { token: null });
