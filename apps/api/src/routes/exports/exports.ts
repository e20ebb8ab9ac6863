import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses, ExportFormatErrorBody, ExportRequest, ExportResponse, EXPORT_MIME_TYPES, type ExportDto } from '@prodshot/contracts';
import type { AppDeps } from '../../deps.js';
import { requireUser } from '../../plugins/auth.js';
import { HttpError } from '../../services/http-error.js';
import { sendStoredFile, STORED_FILE_RESPONSE } from '../../services/stored-file.js';

const errors = errorResponses([400, 404, 409, 502, 503], { 400: ExportFormatErrorBody });

/** Same-origin path of an export's file, read with the bearer token like any call. */
export function exportDownloadPath({ generationId, outputIndex, preset, format }: ExportRequest): string {
  return `/api/exports/download?${new URLSearchParams({ generationId, outputIndex: String(outputIndex), preset, format })}`;
}

/**
 * Marketplace exports of a finished output: rendered by the worker from the output's cutout and
 * scene, stored once per output, preset and format, and never charged (a rendition of a paid shot).
 */
export async function exportRoutes(appBase: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = appBase.withTypeProvider<TypeBoxTypeProvider>();
  const service = app.services.exports;
  app.addHook('onRequest', requireUser);

  app.post(
    '/api/exports',
    { schema: { summary: 'Export an output for a marketplace preset (no credit is charged)', body: ExportRequest, response: { 200: ExportResponse, ...errors } } },
    async (request): Promise<{ data: ExportDto }> => {
      const userId = request.user.id;
      const { generationId, outputIndex, preset, format } = request.body;
      service.assertFormat(preset, format);
      const { generation } = await service.finishedOutput(userId, generationId, outputIndex);
      const key = service.keyOf(userId, generationId, outputIndex, preset, format);
      const made = await service.run('export-shot', { userId, generationId, outputIndex, preset, format, key }, key);
      return {
        data: {
          url: await deps.store.signedUrl(made.key),
          downloadPath: exportDownloadPath(request.body),
          fileName: service.fileName(generation, outputIndex, preset, format),
          contentType: EXPORT_MIME_TYPES[format],
          width: made.width,
          height: made.height,
          preset,
          format,
        },
      };
    },
  );

  app.get(
    '/api/exports/download',
    { schema: { summary: 'An export already made, sent through the API and named for saving', querystring: ExportRequest, response: { 200: STORED_FILE_RESPONSE, ...errors } } },
    async (request, reply) => {
      const userId = request.user.id;
      const { generationId, outputIndex, preset, format } = request.query;
      service.assertFormat(preset, format);
      const { generation } = await service.finishedOutput(userId, generationId, outputIndex);
      const key = service.keyOf(userId, generationId, outputIndex, preset, format);
      if (!(await deps.store.stat(key))) throw new HttpError(404, 'This export has not been made yet', 'export_not_found');
      return sendStoredFile(reply, deps.store, key, { attachment: service.fileName(generation, outputIndex, preset, format) });
    },
  );
}
