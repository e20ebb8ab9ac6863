import {
  IDEMPOTENCY_KEY_HEADER,
  shotDownloadPath,
  type AcceptedResponse,
  type AddOnPackId,
  type AddOnPlansResponse,
  type ApiErrorBody,
  type BuyCreditsRequest,
  type CancelSubscriptionResponse,
  type ClientConfigResponse,
  type ComplianceResponse,
  type ExportFormat,
  type ExportPresetId,
  type ExportRequest,
  type ExportResponse,
  type CreateSubscriptionRequest,
  type DevSignInRequest,
  type DevSignInResponse,
  type EnhancePromptRequest,
  type GenerationDto,
  type GenerationListResponse,
  type ImageDto,
  type ImageResponse,
  type ImageListResponse,
  type MoreLikeThisResponse,
  type RetryStyleResponse,
  type PaidPlanId,
  type PaymentLinkResponse,
  type PlanRequiredErrorBody,
  type PlansResponse,
  type PortalSessionResponse,
  type ProductShotRequest,
  type RegisterRequest,
  type RegisterResponse,
  type ShotRef,
  type SmartGenerateRequest,
  type SubjectResponse,
  type SubscriptionResponse,
  type BatchResponse,
  type CreateBatchRequest,
  type CreateBatchResponse,
  type ShotBackground,
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

/** fetch itself failed: no answer came back at all (offline, DNS, a dropped connection). */
export class NoResponseError extends Error {
  constructor(options: ErrorOptions) {
    super('No response received from the server', options);
    this.name = 'NoResponseError';
  }
}

/** What a non-OK answer without a server message reads as: spec §7's status text, or §8's 'Server error: {status}' for the payment helpers. */
type StatusMessage = 'status-text' | 'server-error';

interface RequestOptions {
  /** null for the calls made before anyone is signed in; absent, the current session's token. */
  token?: string | null;
  headers?: Record<string, string>;
  statusMessage?: StatusMessage;
}

/** One authenticated call: the answer when it is OK, else an ApiError carrying the server's message. */
async function send(method: string, url: string, body: unknown, { token, headers: extra, statusMessage = 'status-text' }: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { ...extra };
  const bearer = token === undefined ? await tokenSource() : token;
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const response = await fetch(url, { method, headers, body: payload, credentials: 'include' }).catch((cause: unknown) => {
    throw new NoResponseError({ cause });
  });
  if (response.ok) return response;
  const text = await response.text();
  const error = (text ? safeJson(text) : undefined) as (Partial<ApiErrorBody> & Partial<Pick<PlanRequiredErrorBody, 'upgradeUrl'>>) | undefined;
  const serverError = `Server error: ${response.status}`;
  throw new ApiError(error?.message || (statusMessage === 'status-text' && response.statusText) || serverError, response.status, error?.code, error?.upgradeUrl);
}

async function request<T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const text = await (await send(method, `/api${path}`, body, options)).text();
  return (text ? safeJson(text) : undefined) as T;
}

/** A file the API answers the signed-in seller (an image, a download), read with the bearer token like any call. */
async function requestBlob(url: string): Promise<Blob> {
  return (await send('GET', url, undefined, {})).blob();
}

/**
 * Spec §8's payment helpers: the server's message or 'Server error: {status}', 'No response received
 * from payment server' when nothing came back, and `otherwise` for anything else (a request that
 * could not be made, an answer without its payment link).
 */
async function paymentCall(call: () => Promise<PaymentLinkResponse>, otherwise: string): Promise<PaymentLinkResponse> {
  let answer: PaymentLinkResponse;
  try {
    answer = await call();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof NoResponseError) throw new Error(PAYMENT_NO_RESPONSE, { cause: error });
    throw new Error(otherwise, { cause: error });
  }
  const link: unknown = (answer as Partial<PaymentLinkResponse> | undefined)?.payment_link;
  if (link !== null && typeof link !== 'string') throw new Error(otherwise);
  return answer;
}

const PAYMENT_NO_RESPONSE = 'No response received from payment server';
const CREATE_SUBSCRIPTION_FAILED = 'Error creating subscription';
const BUY_CREDITS_FAILED = 'Error purchasing credits';

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * ProductShotRequest's static type reads backgroundType as undefined (its TypeBox union is built from a
 * widened array), so it is typed here from ShotBackground (a template handle or 'auto').
 */
export type ShotRequest = Omit<ProductShotRequest, 'backgroundType'> & { backgroundType?: ShotBackground };

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
    paymentCall(
      () =>
        request<PaymentLinkResponse>('POST', '/payments/subscription', { planKey, customerData, return_url: returnUrl } satisfies CreateSubscriptionRequest, {
          headers: keyed(idempotencyKey),
          statusMessage: 'server-error',
        }),
      CREATE_SUBSCRIPTION_FAILED,
    ),
  buyCredits: (planKey: AddOnPackId, customerData: BuyCreditsRequest['customerData'], returnUrl: string, idempotencyKey: string) =>
    paymentCall(
      () =>
        request<PaymentLinkResponse>('POST', '/payments/credits', { planKey, customerData, return_url: returnUrl } satisfies BuyCreditsRequest, {
          headers: keyed(idempotencyKey),
          statusMessage: 'server-error',
        }),
      BUY_CREDITS_FAILED,
    ),
  cancelSubscription: () => request<CancelSubscriptionResponse>('POST', '/payments/cancel-subscription', {}, { statusMessage: 'server-error' }),
  portalSession: () => request<PortalSessionResponse>('POST', '/payments/portal-session'),

  /** The newest uploads: one page of the API's default size. */
  images: () => request<ImageListResponse>('GET', '/images'),
  imagesPage: (limit: number, cursor: string | null) => request<ImageListResponse>('GET', `/images?${pageQuery(limit, cursor)}`),
  image: (id: string) => request<{ data: ImageDto }>('GET', `/images/${encodeURIComponent(id)}`),
  upload: (file: Blob, name: string | undefined, idempotencyKey: string) => {
    const form = new FormData();
    if (name) form.append('name', name);
    form.append('image', file, name ?? 'upload');
    return request<ImageDto>('POST', '/images/upload', form, { headers: keyed(idempotencyKey) });
  },
  /** Names the upload's product (blank clears it): download names and the engine's hints use it. */
  setImageTitle: (id: string, productTitle: string) => request<ImageResponse>('PUT', `/images/${encodeURIComponent(id)}/title`, { productTitle }),
  /** Which object of the upload is the product; id is the image's _id or its fileId. */
  imageSubject: (id: string) => request<SubjectResponse>('GET', `/images/${encodeURIComponent(id)}/subject`),
  deleteImage: (id: string) => request<{ data: { id: string; deleted: true } }>('DELETE', `/images/${encodeURIComponent(id)}`),
  recentGenerations: (limit: number, cursor: string | null = null) =>
    request<GenerationListResponse>('GET', `/images/recent/generations?${pageQuery(limit, cursor)}`),
  generateProductShots: (body: ShotRequest, idempotencyKey: string) =>
    request<AcceptedResponse>('POST', '/images/generate-product-shots', body, { headers: { ...keyed(idempotencyKey), ...RESPOND_ASYNC } }),
  smartGenerate: (body: SmartGenerateRequest, idempotencyKey: string) =>
    request<AcceptedResponse>('POST', '/images/smart-generate-product-shots', body, { headers: keyed(idempotencyKey) }),
  generation: (id: string) => request<{ data: GenerationDto }>('GET', `/generations/${encodeURIComponent(id)}`),
  moreLikeThis: ({ generationId, index }: ShotRef, idempotencyKey: string) =>
    request<MoreLikeThisResponse>('POST', `/generations/${encodeURIComponent(generationId)}/outputs/${index}/more-like-this`, undefined, { headers: keyed(idempotencyKey) }),
  retryStyle: ({ generationId, index }: ShotRef, idempotencyKey: string) =>
    request<RetryStyleResponse>('POST', `/generations/${encodeURIComponent(generationId)}/styles/${index}/retry`, undefined, { headers: keyed(idempotencyKey) }),
  enhancePrompt: (body: EnhancePromptRequest) => request<{ data?: { enhancedPrompt?: unknown } }>('POST', '/images/enhance-prompt', body),
  /** Spec §8's fallback for an upload whose link failed: the image from the API itself, as the bearer token's owner. */
  uploadFallback: (fileId: string) => requestBlob(`/uploads/${encodeURIComponent(fileId)}?fallback=true`),
  /** A shot's full file from the app's own origin, whatever origin its signed link is on. */
  shotFile: (shot: ShotRef) => requestBlob(shotDownloadPath(shot)),
  createBatch: (body: CreateBatchRequest, idempotencyKey: string) => request<CreateBatchResponse>('POST', '/batches', body, { headers: keyed(idempotencyKey) }),
  batch: (id: string) => request<BatchResponse>('GET', `/batches/${encodeURIComponent(id)}`),
  /** A marketplace export of a finished shot (no credit); its file is then read from `downloadPath`. */
  exportShot: (body: ExportRequest) => request<ExportResponse>('POST', '/exports', body),
  exportFile: (downloadPath: string) => requestBlob(downloadPath),
  /** The checklist of a shot for a preset; with `exportFormat`, of the shot's export for that preset instead. */
  compliance: ({ generationId, index }: ShotRef, preset: ExportPresetId, exportFormat?: ExportFormat) =>
    request<ComplianceResponse>(
      'GET',
      `/generations/${encodeURIComponent(generationId)}/compliance?${new URLSearchParams({ preset, output: String(index), ...(exportFormat ? { exportFormat } : {}) })}`,
    ),
};

/** A list page's query: `cursor` is the previous page's nextCursor, null for the first page. */
function pageQuery(limit: number, cursor: string | null): string {
  return new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) }).toString();
}

export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}
