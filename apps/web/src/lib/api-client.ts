import {
  IDEMPOTENCY_KEY_HEADER,
  type AcceptedResponse,
  type AddOnPackId,
  type AddOnPlansResponse,
  type ApiErrorBody,
  type BuyCreditsRequest,
  type CancelSubscriptionResponse,
  type ClientConfigResponse,
  type CreateSubscriptionRequest,
  type DevSignInRequest,
  type DevSignInResponse,
  type EnhancePromptRequest,
  type GenerationDto,
  type ImageDto,
  type PaidPlanId,
  type PaymentLinkResponse,
  type PlanRequiredErrorBody,
  type PlansResponse,
  type PortalSessionResponse,
  type ProductShotRequest,
  type RecentGenerationDto,
  type RegisterRequest,
  type RegisterResponse,
  type SmartGenerateRequest,
  type SubjectResponse,
  type SubscriptionResponse,
  type TemplateHandle,
  type UserProfile,
  type VerifyTokenResponse,
} from '@prodshot/contracts';

/** A non-OK answer: carries the server's message (spec §7), or else the status text. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | undefined,
    /** Where a refusal for want of a plan sends the seller (403 plan_required). */
    readonly upgradeUrl?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type TokenSource = () => Promise<string | null> | string | null;
let tokenSource: TokenSource = () => null;

/** The auth layer decides where tokens come from (Clerk or the embedded sign-in); the client only asks. */
export function setTokenSource(source: TokenSource): void {
  tokenSource = source;
}

export async function currentToken(): Promise<string | null> {
  return tokenSource();
}

interface RequestOptions {
  /** null for the calls made before anyone is signed in; absent, the current session's token. */
  token?: string | null;
  headers?: Record<string, string>;
}

async function request<T>(method: string, path: string, body?: unknown, { token, headers: extra }: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { ...extra };
  const bearer = token === undefined ? await tokenSource() : token;
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const response = await fetch(`/api${path}`, { method, headers, body: payload, credentials: 'include' });
  const text = await response.text();
  const json: unknown = text ? safeJson(text) : undefined;
  if (!response.ok) {
    const error = json as (Partial<ApiErrorBody> & Partial<Pick<PlanRequiredErrorBody, 'upgradeUrl'>>) | undefined;
    throw new ApiError(error?.message || response.statusText || `Server error: ${response.status}`, response.status, error?.code, error?.upgradeUrl);
  }
  return json as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * ProductShotRequest's static type reads backgroundType as undefined (its TypeBox union is built from a
 * widened array), so the handle is typed here from TemplateHandle.
 */
export type ShotRequest = Omit<ProductShotRequest, 'backgroundType'> & { backgroundType?: TemplateHandle };

/** A call that starts paid work, sent once per user action (see lib/idempotency.ts). */
function keyed(idempotencyKey: string): Record<string, string> {
  return { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey };
}

/** The API answers 202 with the generation id at once: no proxy timeout can then lose it. */
const RESPOND_ASYNC = { prefer: 'respond-async' };

/** Every call the web app makes, typed by @prodshot/contracts. */
export const api = {
  clientConfig: () => request<ClientConfigResponse>('GET', '/client-config', undefined, { token: null }),
  devSignIn: (body: DevSignInRequest) => request<DevSignInResponse>('POST', '/dev/sign-in', body, { token: null }),
  verifyToken: (token: string) => request<VerifyTokenResponse>('POST', '/auth/verify-token', { token }, { token: null }),
  register: (body: RegisterRequest, token: string) => request<RegisterResponse>('POST', '/auth/register', body, { token }),

  profile: () => request<UserProfile>('GET', '/users/profile'),
  updateProfile: (name: string) => request<UserProfile>('PATCH', '/users/profile', { name }),
  subscription: () => request<SubscriptionResponse>('GET', '/users/subscription'),

  plans: () => request<PlansResponse>('GET', '/payments/plans'),
  addOnPlans: () => request<AddOnPlansResponse>('GET', '/payments/addon-plans'),
  createSubscription: (planKey: PaidPlanId, customerData: CreateSubscriptionRequest['customerData'], returnUrl: string, idempotencyKey: string) =>
    request<PaymentLinkResponse>('POST', '/payments/subscription', { planKey, customerData, return_url: returnUrl } satisfies CreateSubscriptionRequest, {
      headers: keyed(idempotencyKey),
    }),
  buyCredits: (planKey: AddOnPackId, customerData: BuyCreditsRequest['customerData'], returnUrl: string, idempotencyKey: string) =>
    request<PaymentLinkResponse>('POST', '/payments/credits', { planKey, customerData, return_url: returnUrl } satisfies BuyCreditsRequest, { headers: keyed(idempotencyKey) }),
  cancelSubscription: () => request<CancelSubscriptionResponse>('POST', '/payments/cancel-subscription', {}),
  portalSession: () => request<PortalSessionResponse>('POST', '/payments/portal-session'),

  images: () => request<{ data: ImageDto[] }>('GET', '/images'),
  image: (id: string) => request<{ data: ImageDto }>('GET', `/images/${encodeURIComponent(id)}`),
  upload: (file: Blob, name: string | undefined, idempotencyKey: string) => {
    const form = new FormData();
    if (name) form.append('name', name);
    form.append('image', file, name ?? 'upload');
    return request<ImageDto>('POST', '/images/upload', form, { headers: keyed(idempotencyKey) });
  },
  /** Which object of the upload is the product; id is the image's _id or its fileId. */
  imageSubject: (id: string) => request<SubjectResponse>('GET', `/images/${encodeURIComponent(id)}/subject`),
  deleteImage: (id: string) => request<{ data: { id: string; deleted: true } }>('DELETE', `/images/${encodeURIComponent(id)}`),
  recentGenerations: (limit: number) =>
    request<{ data: (RecentGenerationDto & { generationId: string })[] }>('GET', `/images/recent/generations?limit=${limit}`),
  generateProductShots: (body: ShotRequest, idempotencyKey: string) =>
    request<AcceptedResponse>('POST', '/images/generate-product-shots', body, { headers: { ...keyed(idempotencyKey), ...RESPOND_ASYNC } }),
  smartGenerate: (body: SmartGenerateRequest, idempotencyKey: string) =>
    request<AcceptedResponse>('POST', '/images/smart-generate-product-shots', body, { headers: keyed(idempotencyKey) }),
  generation: (id: string) => request<{ data: GenerationDto }>('GET', `/generations/${encodeURIComponent(id)}`),
  enhancePrompt: (body: EnhancePromptRequest) => request<{ data?: { enhancedPrompt?: unknown } }>('POST', '/images/enhance-prompt', body),
};

export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}
