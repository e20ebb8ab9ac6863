import { UNSUPPORTED_PRODUCT_MESSAGE, type JobResults } from '@prodshot/contracts';
import { jobIds, sameOrder } from '@prodshot/queue';
import { loadOrMakeCutout } from '../pipeline/cutout.js';
import {
  assertGenerationOpen,
  failOpenSlots,
  GenerationSettledError,
  finishIfDone,
  refundUnused,
} from '../pipeline/slot-lifecycle.js';
import type { JobHandler } from './index.js';
import { recommendationMode } from './style-recommendation-mode.js';

type Result = JobResults['style-recommendation'];

/**
 * Smart generation's first half: analyse → recommend. In 'fan-out' mode (the server-run flow) it then
 * opens one slot per style and enqueues one style-shot job each; job ids derive from the slot, so
 * a retry after a crash finds the slots and jobs already there. The style-shots take this job's
 * place in the queue (the seller's plan's).
 */
export const styleRecommendation: JobHandler<'style-recommendation'> = {
  async run(job, deps) {
    const p = recommendationMode(job.data);
    await assertGenerationOpen(deps, p.generationId);
    const hints = { title: p.productTitle, description: p.productDescription };
    await stage(deps, p.userId, p.generationId, 'analysing');
    // The analysis reads the product from the upload's cutout: one model run serves the whole flow.
    const cutout = await loadOrMakeCutout(deps, p.sourceKey, p.focus);
    const analysis = await deps.engine.analyse(cutout, hints, { sellerId: p.userId });

    if (!analysis.supported && analysis.unsupported) {
      const message = analysis.unsupported.message || UNSUPPORTED_PRODUCT_MESSAGE;
      const productInfo = {
        productTitle: p.productTitle ?? '',
        productDescription: p.productDescription ?? '',
        productType: analysis.kind,
      };
      await deps.repos.generations.setStage(p.generationId, 'analysing', { ...productInfo, unsupportedProduct: true });
      if (p.mode === 'fan-out') await refundUnused(deps, p.userId, p.generationId, p.styleCount, 'unsupported');
      await finishIfDone(deps, p.userId, p.generationId, message);
      return {
        generationId: p.generationId,
        productInfo,
        styles: [],
        unsupportedProduct: { message },
      } satisfies Result;
    }

    await stage(deps, p.userId, p.generationId, 'designing recommendations');
    const recommended = await deps.engine.recommendStyles(analysis, hints, { sellerId: p.userId });
    const styles = p.mode === 'fan-out' ? recommended.styles.slice(0, p.styleCount) : recommended.styles;
    await deps.repos.generations.setStage(p.generationId, 'generating', recommended.productInfo);

    if (p.mode === 'fan-out') {
      await refundUnused(deps, p.userId, p.generationId, p.styleCount - styles.length, 'unused');
      const opened = await deps.repos.generations.addSlots(
        p.generationId,
        styles.map((style, index) => ({ index, name: style.name, prompt: style.prompt, backgroundType: null })),
      );
      if (!opened) throw new GenerationSettledError(p.generationId);
      deps.publisher.emit(p.userId, 'generation:stage', {
        generationId: p.generationId,
        stage: 'generating',
        productInfo: recommended.productInfo,
        styles: styles.map((style, index) => ({ index, name: style.name })),
      });
      for (const [index, style] of styles.entries()) {
        await deps.producer.enqueue(
          'style-shot',
          { ...p, styleIndex: index, styleName: style.name, stylePrompt: style.prompt, size: p.size },
          // The seller's plan placed the flow in the queue when it started: its styles keep that place.
          { jobId: jobIds.style(p.generationId, index), ...sameOrder(job.opts) },
        );
        deps.publisher.emit(p.userId, 'generation:style', { generationId: p.generationId, index, status: 'queued' });
      }
    } else {
      await deps.repos.generations.completeRecommendations(p.generationId);
    }
    return {
      generationId: p.generationId,
      productInfo: recommended.productInfo,
      styles,
      unsupportedProduct: null,
    } satisfies Result;
  },
  async onFinalFailure(queued, message, deps) {
    const payload = recommendationMode(queued);
    await failOpenSlots(deps, payload.userId, payload.generationId, message);
    if (payload.mode === 'fan-out')
      await refundUnused(deps, payload.userId, payload.generationId, payload.styleCount, 'recommendation');
    await finishIfDone(deps, payload.userId, payload.generationId, message);
  },
};

async function stage(
  deps: Parameters<JobHandler<'style-recommendation'>['run']>[1],
  userId: string,
  generationId: string,
  name: 'analysing' | 'designing recommendations',
): Promise<void> {
  await deps.repos.generations.setStage(generationId, name);
  deps.publisher.emit(userId, 'generation:stage', { generationId, stage: name });
}
