import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import {
  ComplianceQuery,
  ComplianceResponse,
  errorResponses,
  ExportFormatErrorBody,
  ShortIdParams,
  type ComplianceReportDto,
  type ComplianceSubject,
} from '@prodshot/contracts';
import type { AppDeps } from '../../deps.js';
import { requireUser } from '../../plugins/auth.js';
import { HttpError } from '../../services/http-error.js';

/**
 * A marketplace checklist measured on an output's pixels by the worker. `output` picks the output
 * (default 0); `exportFormat` measures that output's export for the same preset instead, so an
 * export's own report can be read after POST /api/exports made it.
 */
export async function complianceRoutes(appBase: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = appBase.withTypeProvider<TypeBoxTypeProvider>();
  const service = app.services.exports;
  app.get(
    '/api/generations/:id/compliance',
    {
      onRequest: requireUser,
      schema: {
        summary: 'Compliance report of an output (or of its export) for a marketplace preset',
        params: ShortIdParams,
        querystring: ComplianceQuery,
        response: { 200: ComplianceResponse, ...errorResponses([400, 404, 409, 502, 503], { 400: ExportFormatErrorBody }) },
      },
    },
    async (request): Promise<{ data: ComplianceReportDto }> => {
      const userId = request.user.id;
      const generationId = request.params.id;
      const { preset, output: outputIndex = 0, exportFormat } = request.query;
      if (exportFormat) service.assertFormat(preset, exportFormat);
      const { resultKey } = await service.finishedOutput(userId, generationId, outputIndex);
      let key = resultKey;
      let subject: ComplianceSubject = { kind: 'output' };
      if (exportFormat) {
        key = service.keyOf(userId, generationId, outputIndex, preset, exportFormat);
        if (!(await deps.store.stat(key))) throw new HttpError(409, 'Export this output for the preset first (POST /api/exports)', 'export_not_made');
        subject = { kind: 'export', preset, format: exportFormat };
      }
      const report = await service.run('compliance-check', { userId, generationId, outputIndex, preset, key, subject }, `${key}|${preset}`);
      return { data: report };
    },
  );
}
