import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses, GenerationListResponse, ListPageQuery } from '@prodshot/contracts';

/** The seller's recent outputs across their uploads, newest first, within their plan's history (the spec's URL). */
export async function recentGenerationRoutes(appBase: FastifyInstance): Promise<void> {
  const app = appBase.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/api/images/recent/generations',
    { schema: { querystring: ListPageQuery, response: { 200: GenerationListResponse, ...errorResponses([400]) } } },
    (request) => app.services.generations.recentOutputs(request.user.id, request.query, request.log),
  );
}
