import type { EnhancePromptRequest } from '@prodshot/contracts';
import { request } from '../../../lib/api-client.js';
import { planRefusal } from '../../../components/ui/upgrade-notice.js';
import { ENHANCE_INVALID_RESPONSE } from '../prompt-box.js';

/** The engine's rewrite of a custom background prompt; what it answers is checked by the caller. */
// Typed loosely on purpose: a malformed answer is shown as the spec's invalid-response message, not trusted.
export const enhancePrompt = (body: EnhancePromptRequest) =>
  request<{ data?: { enhancedPrompt?: unknown } }>('POST', '/images/enhance-prompt', body);

/** The rewrite, or the error the prompt box shows: a plan refusal and an empty answer as they are, anything else as one message. */
export async function enhancedPrompt(body: EnhancePromptRequest): Promise<string> {
  try {
    const response = await enhancePrompt(body);
    const enhanced = response.data?.enhancedPrompt;
    if (typeof enhanced !== 'string' || !enhanced) throw new Error(ENHANCE_INVALID_RESPONSE);
    return enhanced;
  } catch (caught) {
    if ((caught instanceof Error && caught.message === ENHANCE_INVALID_RESPONSE) || planRefusal(caught)) throw caught;
    throw new Error('Failed to enhance prompt. Please try again.', { cause: caught });
  }
}
