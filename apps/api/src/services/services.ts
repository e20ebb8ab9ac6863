import type { Repositories } from '@prodshot/db';
import type { AppDeps } from '../deps.js';
import { BatchService } from './batch-service.js';
import { ExportService } from './export-service.js';
import { GenerationService } from './generation-service.js';
import { ImageService } from './image-service.js';

/** What the services are built from: the app's parts plus every repository, built once. */
export type ServiceDeps = AppDeps & { repos: Repositories };

/** One instance of each service for the whole app; routes reach them as `app.services`. */
export interface Services {
  generations: GenerationService;
  batches: BatchService;
  exports: ExportService;
  images: ImageService;
}

export function createServices(deps: ServiceDeps): Services {
  const generations = new GenerationService(deps);
  return {
    generations,
    batches: new BatchService(deps, generations),
    exports: new ExportService(deps),
    images: new ImageService(deps, generations),
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}
