import {
  EXPORT_EXTENSIONS,
  type ComplianceQuery,
  type ComplianceReportDto,
  type ComplianceSubject,
  type ExportDto,
  type ExportRequest,
  EXPORT_MIME_TYPES,
  EXPORT_PRESETS,
  type ExportFormat,
  type ExportPresetId,
  type JobName,
  type JobPayloads,
  type JobResults,
} from '@prodshot/contracts';
import { jobIds } from '@prodshot/queue';
import { exportKey } from '@prodshot/storage';
import { namedProduct, slug, type GenerationsRepository, type GenerationWithStyles } from '@prodshot/db';
import { awaitJob } from '../await-job.js';
import { HttpError } from '../http-error.js';
import type { ServiceDeps } from '../services.js';

/** How long a request waits for the worker's export or measurement before asking the seller to retry. */
const WAIT_MS = 90_000;
/**
 * Part of a compliance job's identity. A finished job's report stays in the queue for a day and
 * answers every later ask for the same file: after its shape changes (the plain-words lines gained
 * `target` and the report `note`), a report from the worker before the deploy would fail the
 * response schema. Bump it whenever ComplianceReportDto changes.
 */
const COMPLIANCE_REPORT_VERSION = 2;

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

  /** Renders (or finds) an export of the seller's finished output: where it is, and the name to save it under. */
  async exportOutput(userId: string, request: ExportRequest): Promise<ExportDto> {
    const { generationId, outputIndex, preset, format } = request;
    this.assertFormat(preset, format);
    const { generation } = await this.finishedOutput(userId, generationId, outputIndex);
    const key = this.keyOf(userId, generationId, outputIndex, preset, format);
    const made = await this.run('export-shot', { userId, generationId, outputIndex, preset, format, key }, key);
    return {
      url: await this.deps.store.signedUrl(made.key),
      downloadPath: exportDownloadPath(request),
      fileName: this.fileName(generation, outputIndex, preset, format),
      contentType: EXPORT_MIME_TYPES[format],
      width: made.width,
      height: made.height,
      preset,
      format,
    };
  }

  /** An export already made, and the name it is saved under; 404 until POST /api/exports made it. */
  async exportFile(userId: string, request: ExportRequest): Promise<{ key: string; fileName: string }> {
    const { generationId, outputIndex, preset, format } = request;
    this.assertFormat(preset, format);
    const { generation } = await this.finishedOutput(userId, generationId, outputIndex);
    const key = this.keyOf(userId, generationId, outputIndex, preset, format);
    if (!(await this.deps.store.stat(key)))
      throw new HttpError(404, 'This export has not been made yet', 'export_not_found');
    return { key, fileName: this.fileName(generation, outputIndex, preset, format) };
  }

  /** The marketplace checklist of an output, or of its export for the same preset when `exportFormat` names one already made. */
  async complianceReport(userId: string, generationId: string, query: ComplianceQuery): Promise<ComplianceReportDto> {
    const { preset, output: outputIndex = 0, exportFormat } = query;
    if (exportFormat) this.assertFormat(preset, exportFormat);
    const { resultKey } = await this.finishedOutput(userId, generationId, outputIndex);
    let key = resultKey;
    let subject: ComplianceSubject = { kind: 'output' };
    if (exportFormat) {
      key = this.keyOf(userId, generationId, outputIndex, preset, exportFormat);
      if (!(await this.deps.store.stat(key)))
        throw new HttpError(409, 'Export this output for the preset first (POST /api/exports)', 'export_not_made');
      subject = { kind: 'export', preset, format: exportFormat };
    }
    return this.run(
      'compliance-check',
      { userId, generationId, outputIndex, preset, key, subject },
      `${key}|${preset}|v${COMPLIANCE_REPORT_VERSION}`,
    );
  }

  /** The seller's own finished output: another seller's generation is not found, an unfinished output is a conflict. */
  private async finishedOutput(
    userId: string,
    generationId: string,
    index: number,
  ): Promise<{ generation: GenerationWithStyles; resultKey: string }> {
    const generation = await this.generations.findOwned(userId, generationId);
    if (!generation) throw new HttpError(404, 'Generation not found', 'generation_not_found');
    const slot = generation.styles.find((style) => style.index === index);
    if (!slot) throw new HttpError(404, 'This generation has no such output', 'output_not_found');
    if (slot.status !== 'complete' || !slot.result_key)
      throw new HttpError(409, 'This output is not finished yet', 'output_not_finished');
    return { generation, resultKey: slot.result_key };
  }

  private assertFormat(preset: ExportPresetId, format: ExportFormat): void {
    const { label, formats } = EXPORT_PRESETS[preset];
    if (!formats.includes(format))
      throw new HttpError(400, `${label} exports as ${formats.join(' or ')}`, 'format_not_allowed', { formats });
  }

  private keyOf(
    userId: string,
    generationId: string,
    index: number,
    preset: ExportPresetId,
    format: ExportFormat,
  ): string {
    return exportKey(userId, generationId, index, preset, EXPORT_MIME_TYPES[format]);
  }

  /** The name an export is saved under: the product, the preset, the output's number, and the extension its bytes have. */
  private fileName(
    generation: GenerationWithStyles,
    index: number,
    preset: ExportPresetId,
    format: ExportFormat,
  ): string {
    return `${slug(namedProduct(generation)) || 'product-shot'}-${preset}-${index + 1}.${EXPORT_EXTENSIONS[format]}`;
  }

  /** Runs a job (or joins the one already made for the same file) and waits for its result. */
  private async run<K extends Extract<JobName, 'export-shot' | 'compliance-check'>>(
    name: K,
    payload: JobPayloads[K],
    identity: string,
  ): Promise<JobResults[K]> {
    const jobId = jobIds.fileWork(name, identity);
    const queue = this.deps.producer.queue('render');
    const existing = await queue.getJob(jobId);
    // A failed attempt (a worker restart, a deleted upload since restored) must not answer every later ask.
    if (existing && (await existing.isFailed())) await existing.remove();
    await this.deps.producer.enqueue(name, payload, { jobId });
    return awaitJob(
      this.deps.producer,
      { name, id: jobId, waitMs: WAIT_MS },
      {
        timedOut: () =>
          new HttpError(503, 'This is taking longer than usual. Please try again in a minute.', 'export_busy'),
        failed: () => new HttpError(502, 'The export could not be made. Please try again.', 'export_failed'),
      },
    );
  }
}

/** Same-origin path of an export's file, read with the bearer token like any call. */
function exportDownloadPath({ generationId, outputIndex, preset, format }: ExportRequest): string {
  return `/api/exports/download?${new URLSearchParams({ generationId, outputIndex: String(outputIndex), preset, format })}`;
}
