import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const dockerfile = readFileSync(path.join(repoRoot, 'infra/docker/Dockerfile'), 'utf8');

/** The instructions of one stage, from its FROM to the next. */
function stage(name: string): string {
  const match = new RegExp(`^FROM \\S+ AS ${name}$([\\s\\S]*?)(?=^FROM |(?![\\s\\S]))`, 'm').exec(dockerfile);
  if (!match) throw new Error(`no stage ${name} in infra/docker/Dockerfile`);
  return match[1]!;
}

describe('infra/docker/Dockerfile', () => {
  it("keeps in the worker's image the very graph the engine loads, and drops the other one with the wasm builds", () => {
    const weights = readFileSync(path.join(repoRoot, 'packages/imaging/src/local/saliency/default-weights.ts'), 'utf8');
    const engineGraph = /resource: '([^']+)'/.exec(weights)?.[1];
    expect(engineGraph).toBeTruthy();
    expect(stage('deps')).toContain(`node /prune-runtime-deps.mjs --keep-model ${engineGraph}`);
  });

  it('gives the API no cutout model, and each process only its own dependencies', () => {
    expect(stage('deps-api')).toContain('node /prune-runtime-deps.mjs --no-model');
    expect(stage('api')).toContain('COPY --from=deps-api /app ./');
    expect(stage('worker')).toContain('COPY --from=deps /app ./');
    for (const target of ['api', 'worker']) expect(stage(target), target).toContain('USER node');
  });

  it('installs from the lockfile only: npm ci, from the registry or an offline cache of the same packages', () => {
    const script = readFileSync(path.join(repoRoot, 'infra/docker/npm-ci.sh'), 'utf8');
    expect(script).toContain('exec npm ci --offline --cache /npm-offline "$@"');
    expect(script).toContain('exec npm ci "$@"');
    expect(dockerfile).not.toMatch(/npm install/);
    // Optional in the context: the bracket matches nothing when there is no cache, and the lockfile keeps the COPY valid.
    expect(stage('build')).toContain('COPY package-lock.json .npm-offlin[e] /npm-offline/');
  });
});
