import type { FastifyInstance } from 'fastify';
import { ComplianceQuery, ComplianceResponse, type ComplianceReportDto, type ComplianceSubject } from '@prodshot/contracts';
import type { AppDeps } from '../../deps.js';
import { requireUser } from '../../plugins/auth.js';
import { HttpError } from '../../services/http-error.js';

const Params = { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 64 } } } as const;

/**
 * A marketplace checklist measured on an output's pixels by the worker. `output` picks the output
 * (default 0); `exportFormat` measures that output's export for the same preset instead, so an
 * export's own report can be read after POST /api/exports made it.
 */
export async function complianceRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const service = app.services.exports;
  app.get<{ Params: { id: string }; Querystring: ComplianceQuery }>(
    '/api/generations/:id/compliance',
    {
      onRequest: requireUser,
      schema: { summary: 'Compliance report of an output (or of its export) for a marketplace preset', params: Params, querystring: ComplianceQuery, response: { 200: ComplianceResponse } },
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
