/**
 * The environment the API and worker processes start with, here and in infra/docker/Dockerfile
 * (kept in step by service-process-env.test.ts); variables already set win. glibc gives every
 * thread its own malloc arena and raises its mmap threshold as big blocks are freed, so threads
 * that decode images (the worker's engine threads, the API's sharp decodes of uploads) kept freed
 * buffers: a busy worker's RSS grew past 600 MB, and the API's by about 130 MB over 50 sellers'
 * uploads. Two arenas, and big blocks always mapped and unmapped, keep the worker's renders under
 * 400 MB at concurrency 2 (bench/RESULTS.md).
 */
export const SERVICE_PROCESS_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '262144',
};

/**
 * V8's heap sizes for the API process. By default V8 gives the young generation 16 MB semi-spaces
 * and lets the old one fill with garbage up to a share of the machine's memory before a full
 * collection: an API that keeps about 60 MB alive grew to 300 MB resident at enqueue capacity.
 * 4 MB semi-spaces and a 256 MB old generation (four times the live heap) held it near 200 MB
 * through the bench's load phases (bench/RESULTS.md). An operator's own NODE_OPTIONS come after,
 * so theirs win: raise the old generation for an instance holding many thousand sockets.
 */
export const API_V8_FLAGS = '--max-semi-space-size=4 --max-old-space-size=256';

export function serviceProcessEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...SERVICE_PROCESS_ENV, ...env };
}

export function apiProcessEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...serviceProcessEnv(env), NODE_OPTIONS: [API_V8_FLAGS, env.NODE_OPTIONS].filter(Boolean).join(' ') };
}
