import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses, ExportFormatErrorBody, ExportRequest, ExportResponse } from '@prodshot/contracts';
import type { AppDeps } from '../../deps.js';
import { sendStoredFile, STORED_FILE_RESPONSE } from '../../http/stored-file.js';

const errors = errorResponses([400, 404, 409, 502, 503], { 400: ExportFormatErrorBody });
const exportErrors = errorResponses([400, 404, 409, 429, 502, 503], { 400: ExportFormatErrorBody });

/**
 * Marketplace exports of a finished output: rendered by the worker from the output's cutout and
 * scene, stored once per output, preset and format, and never charged (a rendition of a paid shot).
 */
export async function exportRoutes(appBase: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = appBase.withTypeProvider<TypeBoxTypeProvider>();
  const service = app.services.exports;

  app.post(
    '/api/exports',
    {
      schema: {
        summary: 'Export an output for a marketplace preset (no credit is charged)',
        body: ExportRequest,
        response: { 200: ExportResponse, ...exportErrors },
      },
    },
    async (request) => ({ data: await service.exportOutput(request.user.id, request.body) }),
  );

  app.get(
    '/api/exports/download',
    {
      schema: {
        summary: 'An export already made, sent through the API and named for saving',
        querystring: ExportRequest,
        response: { 200: STORED_FILE_RESPONSE, ...errors },
      },
    },
    async (request, reply) => {
      const { key, fileName } = await service.exportFile(request.user.id, request.query);
      return sendStoredFile(reply, deps.store, key, { attachment: fileName });
    },
  );
}
