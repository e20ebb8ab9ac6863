import { createHash } from 'node:crypto';
import {
  EXPORT_EXTENSIONS,
  EXPORT_MIME_TYPES,
  EXPORT_PRESETS,
  type ExportFormat,
  type ExportPresetId,
  type JobName,
  type JobPayloads,
  type JobResults,
} from '@prodshot/contracts';
import type { GenerationsRepository, GenerationWithStyles } from '@prodshot/db';
import { JobFailedError, JobTimeoutError } from '@prodshot/queue';
import { exportKey } from '@prodshot/storage';
import { namedProduct, slug } from './download-names.js';
import { HttpError } from './http-error.js';
import type { ServiceDeps } from './services.js';

/** How long a request waits for the worker's export or measurement before asking the seller to retry. */
const WAIT_MS = 90_000;

/**
 * Exports and compliance reports: the API checks ownership and state and names the file; the
 * worker, which owns the engine, renders and measures the pixels, so no full-size decode ever
 * runs in the API. Job ids derive from the stored file's key, so the same export or report asked
 * again joins the job already made (BullMQ keeps a finished job's result for a day) rather than
 * running twice; past that, the worker finds the stored export and answers without rendering.
 */
export class ExportService {
  private readonly generations: GenerationsRepository;

  constructor(private readonly deps: ServiceDeps) {
    this.generations = deps.repos.generations;
  }

  /** The seller's own finished output: another seller's generation is not found, an unfinished output is a conflict. */
  async finishedOutput(userId: string, generationId: string, index: number): Promise<{ generation: GenerationWithStyles; resultKey: string }> {
    const generation = await this.generations.findOwned(userId, generationId);
    if (!generation) throw new HttpError(404, 'Generation not found', 'generation_not_found');
    const slot = generation.styles.find((style) => style.index === index);
    if (!slot) throw new HttpError(404, 'This generation has no such output', 'output_not_found');
    if (slot.status !== 'complete' || !slot.result_key) throw new HttpError(409, 'This output is not finished yet', 'output_not_finished');
    return { generation, resultKey: slot.result_key };
  }

  assertFormat(preset: ExportPresetId, format: ExportFormat): void {
    const { label, formats } = EXPORT_PRESETS[preset];
    if (!formats.includes(format)) throw new HttpError(400, `${label} exports as ${formats.join(' or ')}`, 'format_not_allowed', { formats });
  }

  keyOf(userId: string, generationId: string, index: number, preset: ExportPresetId, format: ExportFormat): string {
    return exportKey(userId, generationId, index, preset, EXPORT_MIME_TYPES[format]);
  }

  /** The name an export is saved under: the product, the preset, the output's number, and the extension its bytes have. */
  fileName(generation: GenerationWithStyles, index: number, preset: ExportPresetId, format: ExportFormat): string {
    return `${slug(namedProduct(generation)) || 'product-shot'}-${preset}-${index + 1}.${EXPORT_EXTENSIONS[format]}`;
  }

  /** Runs a job (or joins the one already made for the same file) and waits for its result. */
  async run<K extends Extract<JobName, 'export-shot' | 'compliance-check'>>(name: K, payload: JobPayloads[K], identity: string): Promise<JobResults[K]> {
    const jobId = `${name}-${createHash('sha256').update(identity).digest('hex').slice(0, 40)}`;
    const queue = this.deps.producer.queue('render');
    const existing = await queue.getJob(jobId);
    // A failed attempt (a worker restart, a deleted upload since restored) must not answer every later ask.
    if (existing && (await existing.isFailed())) await existing.remove();
    await this.deps.producer.enqueue(name, payload, { jobId });
    try {
      return await this.deps.producer.waitFor(name, jobId, WAIT_MS);
    } catch (error) {
      if (error instanceof JobTimeoutError) throw new HttpError(503, 'This is taking longer than usual. Please try again in a minute.', 'export_busy');
      if (error instanceof JobFailedError) throw new HttpError(502, 'The export could not be made. Please try again.', 'export_failed');
      throw error;
    }
  }
}
