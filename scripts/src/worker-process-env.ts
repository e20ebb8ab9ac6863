/**
 * The environment a worker process starts with, here and in infra/docker/Dockerfile (keep the two
 * in step); variables already set win. glibc gives every thread its own malloc arena and raises
 * its mmap threshold as big blocks are freed, so engine threads kept freed image buffers and a
 * busy worker's RSS grew past 600 MB. Two arenas, and big blocks always mapped and unmapped,
 * keep it under 400 MB at concurrency 2 (bench/RESULTS.md).
 */
export const WORKER_PROCESS_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '262144',
};

export function workerProcessEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...WORKER_PROCESS_ENV, ...env };
}
