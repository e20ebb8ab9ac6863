/** Query keys in one place, so socket handlers and screens write and read the same cache entries. */
export const queryKeys = {
  subscription: ['subscription'] as const,
  profile: ['profile'] as const,
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
};
