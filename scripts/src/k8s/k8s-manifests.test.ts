import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { QueueKeys } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { QUEUE_NAMES } from '@prodshot/queue';
import {
  ManifestError,
  parseManifests,
  validateManifest,
  validateManifestDir,
  type Manifest,
} from './validate-manifests.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const k8sDir = path.join(repoRoot, 'infra/k8s');

type Container = {
  name: string;
  ports?: { name?: string; containerPort: number }[];
  readinessProbe?: { httpGet?: { path: string; port: number | string } };
  livenessProbe?: { httpGet?: { path: string; port: number | string } };
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  resources?: { requests?: { cpu?: string } };
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
};
type PodSpec = { terminationGracePeriodSeconds?: number; containers: Container[] };

const all = validateManifestDir(k8sDir).flatMap(({ manifests }) => manifests);
const find = (kind: string, name: string): Manifest => {
  const manifest = all.find((m) => m.kind === kind && m.metadata.name === name);
  if (!manifest) throw new Error(`no ${kind} ${name} in infra/k8s`);
  return manifest;
};
const podSpec = (name: string) => (find('Deployment', name).spec as { template: { spec: PodSpec } }).template.spec;
const container = (name: string) => podSpec(name).containers[0]!;
/** A probe's port by name or number, resolved to the container port it means. */
const probePort = (c: Container, port: number | string | undefined) =>
  typeof port === 'number' ? port : c.ports?.find((p) => p.name === port)?.containerPort;
/** The deadline a process's shutdown code gives itself, read from its source so the manifests follow it. */
const shutdownDeadlineSeconds = (file: string) => {
  const match = /SHUTDOWN_DEADLINE_MS = ([\d_]+);/.exec(readFileSync(path.join(repoRoot, file), 'utf8'));
  if (!match) throw new Error(`${file} no longer declares SHUTDOWN_DEADLINE_MS`);
  return Number(match[1]!.replaceAll('_', '')) / 1000;
};

describe('Kubernetes manifests in infra/k8s', () => {
  it('all validate against the Kubernetes API schemas and KEDA CRD schemas shipped in npm packages', () => {
    const kinds = new Set(all.map((m) => `${m.apiVersion}/${m.kind}`));
    expect([...kinds].sort()).toEqual(
      expect.arrayContaining([
        'apps/v1/Deployment',
        'v1/Service',
        'v1/ConfigMap',
        'policy/v1/PodDisruptionBudget',
        'keda.sh/v1alpha1/ScaledObject',
        'autoscaling/v2/HorizontalPodAutoscaler',
      ]),
    );
    for (const name of ['api', 'worker', 'web']) {
      expect(find('Deployment', name)).toBeDefined();
      expect(find('PodDisruptionBudget', name)).toBeDefined();
    }
  });

  it('probe readiness on the ops listeners /health, liveness on /live (no dependency), and the web on /', () => {
    const expected = {
      api: { ready: ['/health', 9464], live: ['/live', 9464] },
      worker: { ready: ['/health', 3001], live: ['/live', 3001] },
      web: { ready: ['/', 80], live: ['/', 80] },
    } as const;
    for (const [name, { ready, live }] of Object.entries(expected)) {
      const c = container(name);
      for (const [probe, [probePath, port]] of [
        [c.readinessProbe, ready],
        [c.livenessProbe, live],
      ] as const) {
        expect(probe?.httpGet?.path, name).toBe(probePath);
        expect(probePort(c, probe?.httpGet?.port), name).toBe(port);
      }
    }
    const config = find('ConfigMap', 'prodshot-config').data as Record<string, string>;
    // The kubelet probes the pod IP: a listener left on loopback would fail every probe.
    expect(config.OPS_HOST).toBe('0.0.0.0');
    expect(Number(config.OPS_PORT)).toBe(9464);
    expect(Number(config.WORKER_HEALTH_PORT)).toBe(3001);
  });

  it('give each process more grace than its own shutdown deadline, the worker more than a job step', () => {
    const workerDeadline = shutdownDeadlineSeconds('apps/worker/src/main.ts');
    expect(podSpec('worker').terminationGracePeriodSeconds).toBeGreaterThan(workerDeadline);
    const apiPreStop = Number(container('api').lifecycle?.preStop?.exec?.command.at(-1) ?? 0);
    expect(podSpec('api').terminationGracePeriodSeconds).toBeGreaterThan(
      shutdownDeadlineSeconds('apps/api/src/server.ts') + apiPreStop,
    );
  });

  it('feed the api and worker the shared ConfigMap and Secret', () => {
    for (const name of ['api', 'worker']) {
      const refs = container(name).envFrom ?? [];
      expect(
        refs.some((ref) => ref.configMapRef?.name === 'prodshot-config'),
        name,
      ).toBe(true);
      expect(
        refs.some((ref) => ref.secretRef?.name === 'prodshot-secrets'),
        name,
      ).toBe(true);
    }
  });

  it('scale workers with KEDA on the BullMQ wait list and prioritized set of each queue under the configured prefix, with CPU as well', () => {
    const prefix = (find('ConfigMap', 'prodshot-config').data as Record<string, string>).QUEUE_PREFIX!;
    expect(prefix).toMatch(/^\{.+\}$/);
    const spec = find('ScaledObject', 'worker').spec as {
      scaleTargetRef: { name: string };
      triggers: { type: string; metadata: Record<string, string> }[];
    };
    expect(spec.scaleTargetRef.name).toBe('worker');
    const lists = spec.triggers.filter((t) => t.type === 'redis').map((t) => t.metadata.listName);
    // BullMQ's own key naming, not a copy of it.
    // Jobs with a priority number (a batch, the backfill) wait in the prioritized set instead: counted too.
    const keys = QUEUE_NAMES.map((queue) => new QueueKeys(prefix).getKeys(queue));
    expect(lists.sort()).toEqual(keys.flatMap((key) => [key.wait, key.prioritized]).sort());
    expect(spec.triggers.some((t) => t.type === 'cpu')).toBe(true);
    expect(container('worker').resources?.requests?.cpu).toBeDefined();
    const hpa = find('HorizontalPodAutoscaler', 'worker').spec as { scaleTargetRef: { kind: string; name: string } };
    expect(hpa.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'worker' });
  });
});

describe('the manifest check', () => {
  const deployment = (): Manifest => structuredClone(find('Deployment', 'worker'));
  const refused = (manifest: Manifest) => () => validateManifest(manifest, 'broken.yaml');

  it('refuses a Deployment whose container port is not a number', () => {
    const broken = deployment();
    (broken.spec as { template: { spec: PodSpec } }).template.spec.containers[0]!.ports![0]!.containerPort =
      'http' as never;
    expect(refused(broken)).toThrow(/broken\.yaml: Deployment worker: .*containerPort must be integer/);
  });

  it('refuses a Deployment without a selector', () => {
    const broken = deployment();
    delete broken.spec!.selector;
    expect(refused(broken)).toThrow(/Deployment worker: data\/spec must have required property selector/);
  });

  it('refuses a ScaledObject without a scale target, checked against the KEDA CRD schema', () => {
    const broken = structuredClone(find('ScaledObject', 'worker'));
    delete broken.spec!.scaleTargetRef;
    expect(refused(broken)).toThrow(/ScaledObject worker: .*scaleTargetRef/);
  });

  it('refuses a kind it has no schema for rather than passing it unchecked', () => {
    expect(refused({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } })).toThrow(ManifestError);
    expect(refused({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } })).toThrow(
      /no schema for example\.com\/v1\/Widget/,
    );
  });

  it('refuses YAML that does not parse, naming the file', () => {
    expect(() => parseManifests('bad.yaml', 'kind: Deployment\n  metadata: [unclosed')).toThrow(/^bad\.yaml: /);
  });
});
