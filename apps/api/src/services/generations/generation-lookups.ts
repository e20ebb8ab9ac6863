import {
  planAllows,
  PLAN_REQUIRED_CODE,
  planRequiredMessage,
  UPGRADE_URL,
  type PlanFeature,
  type PlanId,
  type PlanRequiredErrorBody,
} from '@prodshot/contracts';
import type { GenerationWithStyles, ImageRow, Repositories } from '@prodshot/db';
import type { ObjectStore } from '@prodshot/storage';
import { effectivePlan } from '../billing/subscription-lifecycle.js';
import { HttpError } from '../http-error.js';
import { imageNotFound, uploadByUrl } from '../uploads/image-url.js';

export interface LookupDeps {
  repos: Pick<Repositories, 'images' | 'generations' | 'subscriptions'>;
  store: ObjectStore;
  /** Where the app is served (PUBLIC_URL): relative links in an `imageUrl` are relative to it. */
  config: { http: { publicUrl: string } };
}

/** What a generation call works on, found within the caller's own: their upload, their generation, their plan. */
export class GenerationLookups {
  constructor(private readonly deps: LookupDeps) {}

  /**
   * The caller's image by imageId or fileId, or else by an imageUrl of ours (see uploadByUrl); 404
   * for anything else, another user's ids and links included. Ids win over a URL sent beside them.
   */
  async ownedImage(
    userId: string,
    ref: { imageId?: string | undefined; fileId?: string | undefined; imageUrl?: string | undefined },
  ): Promise<ImageRow> {
    const { images } = this.deps.repos;
    const id = ref.imageId ?? ref.fileId;
    if (!id && ref.imageUrl)
      return uploadByUrl(
        { store: this.deps.store, images, appOrigin: this.deps.config.http.publicUrl },
        userId,
        ref.imageUrl,
      );
    if (!id) throw new HttpError(400, 'Name the image: imageId, fileId or imageUrl', 'missing_image');
    const image = await images.findOwned(userId, id);
    if (!image) throw imageNotFound();
    return image;
  }

  async ownedGeneration(userId: string, id: string): Promise<GenerationWithStyles> {
    const generation = await this.deps.repos.generations.findOwned(userId, id);
    if (!generation) throw new HttpError(404, 'Generation not found', 'generation_not_found');
    return generation;
  }

  /** The plan whose quality, features and priority apply: a cancelled plan's until the paid period ends (docs/decisions.md, Money). */
  async effectivePlan(userId: string): Promise<PlanId> {
    return effectivePlan(await this.deps.repos.subscriptions.findByUserId(userId));
  }

  /**
   * Refuses a call the seller's plan does not include (403 with where to upgrade), before anything
   * is reserved or queued; answers the plan, which the call goes on with.
   */
  async planWith(userId: string, feature: PlanFeature): Promise<PlanId> {
    const plan = await this.effectivePlan(userId);
    if (!planAllows(plan, feature)) throw new PlanRequiredError(feature);
    return plan;
  }
}

/** 403 for a feature outside the seller's plan; its body says which feature and where to upgrade. */
export class PlanRequiredError extends HttpError {
  constructor(feature: PlanFeature) {
    const details: Pick<PlanRequiredErrorBody, 'feature' | 'upgradeUrl'> = { feature, upgradeUrl: UPGRADE_URL };
    super(403, planRequiredMessage(feature), PLAN_REQUIRED_CODE, details);
  }
}
