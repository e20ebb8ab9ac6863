import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { DownloadQuery, errorResponses, GenerationResponse, IdParams, OutputParams } from '@prodshot/contracts';
import type { AppDeps } from '../../deps.js';
import { sendStoredFile, STORED_FILE_RESPONSE } from '../../http/stored-file.js';

/** Where a generation stands, from Postgres: a reload or a lost socket catches up here. */
export async function generationRoutes(appBase: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = appBase.withTypeProvider<TypeBoxTypeProvider>();
  const service = app.services.generations;
  app.get(
    '/api/generations/:id',
    {
      schema: { params: IdParams, response: { 200: GenerationResponse, ...errorResponses([404]) } },
    },
    async (request) => ({ data: await service.generation(request.user.id, request.params.id, request.log) }),
  );

  // A shot's full-size file through the API, named for saving (shotDownloadPath): the browser reads
  // it from the app's own origin with its bearer token, wherever the file store is. The download
  // copy (JPEG) unless `?file=original` asks for the PNG as it was made.
  app.get(
    '/api/generations/:id/styles/:index/download',
    {
      schema: {
        params: OutputParams,
        querystring: DownloadQuery,
        response: { 200: STORED_FILE_RESPONSE, ...errorResponses([400, 404]) },
      },
    },
    async (request, reply) => {
      const { key, fileName } = await service.shotFile(
        request.user.id,
        request.params.id,
        request.params.index,
        request.query.file,
      );
      return sendStoredFile(reply, deps.store, key, { attachment: fileName });
    },
  );
}
