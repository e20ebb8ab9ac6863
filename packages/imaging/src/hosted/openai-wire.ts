import { createHash } from 'node:crypto';
import { ModelBadResponseError, ModelRejectedError } from '../errors.js';
import type { CallContext } from '../types.js';

interface OpenAIErrorObject {
  message?: string;
  type?: string;
  param?: string | null;
  code?: string | null;
}

/** The `error` object of OpenAI's ErrorResponse, or nothing when a compatible server sent another shape. */
export function openAIError(body: unknown): OpenAIErrorObject {
  const error = (body as { error?: unknown } | null)?.error;
  return error && typeof error === 'object' ? (error as OpenAIErrorObject) : {};
}

/**
 * The first choice's text. A refusal (`content: null` beside `refusal`) and an answer the model
 * stopped for its content filter or its length are the provider declining, not a broken answer.
 */
export function chatText(model: string, body: unknown): string {
  const choice = (
    body as { choices?: { finish_reason?: unknown; message?: { content?: unknown; refusal?: unknown } }[] } | null
  )?.choices?.[0];
  const refusal = choice?.message?.refusal;
  if (typeof refusal === 'string' && refusal) return refuse(model, 'refusal', refusal);
  if (choice?.finish_reason === 'content_filter') return refuse(model, 'content_filter');
  if (choice?.finish_reason === 'length') return refuse(model, 'length');
  const content = choice?.message?.content;
  if (typeof content !== 'string' || !content)
    throw new ModelBadResponseError(model, 'missing choices.0.message.content');
  return content;
}

function refuse(model: string, reason: ModelRejectedError['reason'], providerMessage?: string): never {
  throw new ModelRejectedError(model, reason, providerMessage === undefined ? {} : { providerMessage });
}

export function parseJsonObject(model: string, text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // fall through to the typed error below
  }
  throw new ModelBadResponseError(model, 'the chat answer was not a JSON object');
}

/** A stable, non-identifying id for the seller: 64 hex characters, the document's limit for `safety_identifier`. */
export function sellerHash(context: CallContext | undefined): string | undefined {
  return context?.sellerId ? createHash('sha256').update(context.sellerId).digest('hex') : undefined;
}
