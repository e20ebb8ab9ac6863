import type { ProductShotJob } from '@prodshot/contracts';
import type { WorkerDeps } from '../deps.js';

export interface AutoScene {
  name: string;
  prompt: string;
}

/**
 * Auto mode's scene: the style the engine recommends first from its analysis of the product (its
 * kind, colours and brightness), so the same product gets the same scene. A hosted engine picks it
 * the same way, through its own recommendations. Picked once per generation and recorded on its
 * slots, so a retried job renders the remaining outputs in the scene the first attempt chose.
 */
export async function autoScene(deps: WorkerDeps, p: ProductShotJob, cutout: Buffer): Promise<AutoScene> {
  const picked = (await deps.repos.generations.styles(p.generationId)).find((slot) => slot.prompt);
  if (picked) return { name: picked.name, prompt: picked.prompt! };
  const hints = { title: p.productTitle, description: p.productDescription };
  const context = { sellerId: p.userId };
  const analysis = await deps.engine.analyse(cutout, hints, context);
  const { productInfo, styles } = await deps.engine.recommendStyles(analysis, hints, context);
  // Engines answer 3 to 6 styles, best first.
  const scene = { name: styles[0]!.name, prompt: styles[0]!.prompt };
  await deps.repos.generations.recordAutoScene(p.generationId, scene, productInfo);
  return scene;
}
