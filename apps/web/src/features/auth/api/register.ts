import type { RegisterRequest, RegisterResponse, VerifyTokenResponse } from '@prodshot/contracts';
import { request } from '../../../lib/api-client.js';

/** Whether the API already knows the Clerk session's token. */
export const verifyToken = (token: string) =>
  request<VerifyTokenResponse>('POST', '/auth/verify-token', { token }, { token: null });

/** Makes the Clerk user a seller of this app, with the Clerk session's own token. */
export const register = (body: RegisterRequest, token: string) =>
  request<RegisterResponse>('POST', '/auth/register', body, { token });
