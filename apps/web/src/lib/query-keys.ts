/** Query keys in one place, so socket handlers and screens write and read the same cache entries. */
export const queryKeys = {
  subscription: ['subscription'] as const,
  profile: ['profile'] as const,
  images: ['images'] as const,
  image: (id: string) => ['image', id] as const,
  recentGenerations: (limit: number) => ['recent-generations', limit] as const,
  recentGenerationsAll: ['recent-generations'] as const,
  generation: (id: string) => ['generation', id] as const,
  generationAll: ['generation'] as const,
  subject: (imageId: string) => ['subject', imageId] as const,
};
