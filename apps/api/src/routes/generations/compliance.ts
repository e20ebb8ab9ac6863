import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import {
  ComplianceQuery,
  ComplianceResponse,
  errorResponses,
  ExportFormatErrorBody,
  ShortIdParams,
} from '@prodshot/contracts';

/**
 * A marketplace checklist measured on an output's pixels by the worker. `output` picks the output
 * (default 0); `exportFormat` measures that output's export for the same preset instead, so an
 * export's own report can be read after POST /api/exports made it.
 */
export async function complianceRoutes(appBase: FastifyInstance): Promise<void> {
  const app = appBase.withTypeProvider<TypeBoxTypeProvider>();
  const service = app.services.exports;
  app.get(
    '/api/generations/:id/compliance',
    {
      schema: {
        summary: 'Compliance report of an output (or of its export) for a marketplace preset',
        params: ShortIdParams,
        querystring: ComplianceQuery,
        response: {
          200: ComplianceResponse,
          ...errorResponses([400, 404, 409, 429, 502, 503], { 400: ExportFormatErrorBody }),
        },
      },
    },
    async (request) => ({ data: await service.complianceReport(request.user.id, request.params.id, request.query) }),
  );
}
