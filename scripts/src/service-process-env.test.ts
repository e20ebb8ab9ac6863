import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_V8_FLAGS, apiProcessEnv, SERVICE_PROCESS_ENV, serviceProcessEnv } from './service-process-env.js';

const dockerfile = readFileSync(path.resolve(import.meta.dirname, '../../infra/docker/Dockerfile'), 'utf8');

/** The `ENV` pairs of one stage of the Dockerfile, quotes removed. */
function stageEnv(stage: string): Record<string, string> {
  const body = dockerfile.split(/^FROM /m).find((part) => part.split('\n')[0]!.endsWith(` AS ${stage}`)) ?? '';
  const pairs = [...body.matchAll(/^ENV (.+)$/gm)].flatMap((m) => [...m[1]!.matchAll(/(\w+)=("[^"]*"|\S+)/g)]);
  return Object.fromEntries(pairs.map(([, name, value]) => [name!, value!.replace(/^"|"$/g, '')]));
}

describe('the processes the stack starts', () => {
  it('run with the same allocator settings under npm start and in the image', () => {
    expect(stageEnv('runtime')).toMatchObject(SERVICE_PROCESS_ENV);
    expect(serviceProcessEnv({})).toMatchObject(SERVICE_PROCESS_ENV);
  });

  it("give the API its heap sizes, in the image's api stage too, and let an operator's NODE_OPTIONS win", () => {
    expect(stageEnv('api').NODE_OPTIONS).toBe(API_V8_FLAGS);
    expect(stageEnv('worker').NODE_OPTIONS).toBeUndefined();
    expect(apiProcessEnv({}).NODE_OPTIONS).toBe(API_V8_FLAGS);
    expect(apiProcessEnv({ NODE_OPTIONS: '--max-old-space-size=1024' }).NODE_OPTIONS).toBe(
      `${API_V8_FLAGS} --max-old-space-size=1024`,
    );
    expect(serviceProcessEnv({}).NODE_OPTIONS).toBeUndefined();
  });

  it('keep values the operator already set', () => {
    expect(serviceProcessEnv({ MALLOC_ARENA_MAX: '4' }).MALLOC_ARENA_MAX).toBe('4');
  });
});
