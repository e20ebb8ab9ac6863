import type { JobHandler } from './index.js';

export const enhancePrompt: JobHandler<'enhance-prompt'> = {
  async run(job, deps) {
    const enhancedPrompt = await deps.engine.enhancePrompt(job.data.prompt, undefined, { sellerId: job.data.userId });
    return { enhancedPrompt };
  },
};
