/**
 * The environment the API and worker processes start with, here and in infra/docker/Dockerfile
 * (keep the two in step); variables already set win. glibc gives every thread its own malloc
 * arena and raises its mmap threshold as big blocks are freed, so threads that decode images
 * (the worker's engine threads, the API's sharp decodes of uploads) kept freed buffers: a busy
 * worker's RSS grew past 600 MB, and the API's by about 130 MB over 50 sellers' uploads. Two arenas,
 * and big blocks always mapped and unmapped, keep the worker's renders under 400 MB at concurrency 2
 * (bench/RESULTS.md).
 */
export const SERVICE_PROCESS_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '262144',
};

export function serviceProcessEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...SERVICE_PROCESS_ENV, ...env };
}
