import type { ExportFormat, ExportPresetId } from '@prodshot/contracts';

/**
 * Query keys in one place: each feature's api file reads and writes its entries under these keys,
 * and the socket (app/socket-provider.tsx) writes into the same entries.
 */
export const queryKeys = {
  clientConfig: ['client-config'] as const,
  subscription: ['subscription'] as const,
  profile: ['profile'] as const,
  apiKeys: ['api-keys'] as const,
  webhooks: ['webhooks'] as const,
  webhookDeliveries: (endpointId: string) => ['webhooks', endpointId, 'deliveries'] as const,
  images: ['images'] as const,
  /** /all-uploads: every page fetched so far; under `images`, so what refreshes the uploads refreshes it too. */
  imagePages: ['images', 'pages'] as const,
  image: (id: string) => ['image', id] as const,
  recentGenerations: (limit: number) => ['recent-generations', limit] as const,
  recentGenerationsAll: ['recent-generations'] as const,
  /** /all-generations: every page fetched so far; under `recentGenerationsAll`, which a finished generation refreshes. */
  generationPages: ['recent-generations', 'pages'] as const,
  generation: (id: string) => ['generation', id] as const,
  generationAll: ['generation'] as const,
  subject: (imageId: string) => ['subject', imageId] as const,
  batch: (id: string) => ['batch', id] as const,
  compliance: (generationId: string, index: number, preset: ExportPresetId, exportFormat: ExportFormat | undefined) =>
    ['compliance', generationId, index, preset, exportFormat ?? 'output'] as const,
};
