import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ScaledObject, TriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { parseAllDocuments } from 'yaml';

/** A manifest object as parsed; apiVersion and kind pick its schema. */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface ManifestFile {
  file: string;
  manifests: Manifest[];
}

interface Validatable {
  validate(): void;
}

/**
 * The JSON schemas of the Kubernetes API (kubernetes-models) and of KEDA's CRDs
 * (@kubernetes-models/keda), compiled into validators that ship in the packages: nothing is
 * downloaded when the check runs. A kind not listed here is refused rather than waved through.
 */
const MODELS: Record<string, new (data: never) => Validatable> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
  'keda.sh/v1alpha1/TriggerAuthentication': TriggerAuthentication,
};

export class ManifestError extends Error {
  override readonly name = 'ManifestError';
}

/** Parses a multi-document YAML file; a syntax error names the file and line. */
export function parseManifests(file: string, text: string): Manifest[] {
  const manifests: Manifest[] = [];
  for (const document of parseAllDocuments(text)) {
    if (document.errors.length > 0) throw new ManifestError(`${file}: ${document.errors[0]!.message}`);
    const value: unknown = document.toJS();
    if (value === null || value === undefined) continue;
    if (typeof value !== 'object' || Array.isArray(value))
      throw new ManifestError(`${file}: a document is not an object`);
    manifests.push(value as Manifest);
  }
  return manifests;
}

/** Validates one object against the schema of its apiVersion and kind; throws naming the object and the failing path. */
export function validateManifest(manifest: Manifest, file = 'manifest'): void {
  const key = `${String(manifest.apiVersion)}/${String(manifest.kind)}`;
  const name = `${file}: ${String(manifest.kind)} ${String(manifest.metadata?.name ?? '(no name)')}`;
  const Model = MODELS[key];
  if (!Model) throw new ManifestError(`${name}: no schema for ${key} (known: ${Object.keys(MODELS).join(', ')})`);
  if (!manifest.metadata?.name) throw new ManifestError(`${name}: metadata.name is required`);
  try {
    new Model(manifest as never).validate();
  } catch (error) {
    throw new ManifestError(`${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Every *.yaml under `dir` (recursively), parsed and validated. */
export function validateManifestDir(dir: string): ManifestFile[] {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.yaml') || file.endsWith('.yml'))
    .sort();
  if (files.length === 0) throw new ManifestError(`${dir}: no manifests found`);
  return files.map((file) => {
    const manifests = parseManifests(file, readFileSync(path.join(dir, file), 'utf8'));
    for (const manifest of manifests) validateManifest(manifest, file);
    return { file, manifests };
  });
}
