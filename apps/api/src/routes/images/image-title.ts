import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { cleanProductTitle, ImageResponse, ImageTitleErrorResponse, ImageTitleParams, ImageTitleRequest, PRODUCT_TITLE_MAX_LENGTH } from '@prodshot/contracts';
import { ImagesRepository } from '@prodshot/db';
import type { AppDeps } from '../../deps.js';
import { requireUser } from '../../plugins/auth.js';
import { HttpError } from '../../services/http-error.js';
import { toImageDto } from '../../services/upload-service.js';

/**
 * The seller's product title for an upload: download names start with it and generation jobs pass
 * it to the engine as a hint. Only the owner's image is found; anyone else's answers 404.
 */
export async function imageTitleRoutes(appBase: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = appBase.withTypeProvider<TypeBoxTypeProvider>();
  const images = new ImagesRepository(deps.db);
  app.addHook('onRequest', requireUser);

  app.put(
    '/api/images/:id/title',
    {
      // The schema documents the limits; the handler words the refusal for the seller.
      attachValidation: true,
      schema: {
        params: ImageTitleParams,
        body: ImageTitleRequest,
        response: { 200: ImageResponse, 400: ImageTitleErrorResponse, 404: ImageTitleErrorResponse },
      },
    },
    async (request) => {
      // Another user's image is not found, whatever the body holds.
      const owned = await images.findOwned(request.user.id, request.params.id);
      if (!owned) throw notFound();
      if (request.validationError) throw refusal(request.body);
      const row = await images.setProductTitle(request.user.id, owned.id, cleanProductTitle(request.body.productTitle));
      if (!row) throw notFound();
      return { data: await toImageDto(deps.store, row) };
    },
  );
}

const notFound = () => new HttpError(404, 'Image not found', 'image_not_found');

function refusal(body: unknown): HttpError {
  const title = (body as { productTitle?: unknown } | null)?.productTitle;
  if (typeof title === 'string' && title.length > PRODUCT_TITLE_MAX_LENGTH) {
    return new HttpError(400, `The product title is too long: at most ${PRODUCT_TITLE_MAX_LENGTH} characters`, 'title_too_long');
  }
  return new HttpError(400, 'Send the product title as { "productTitle": "..." }', 'invalid_title');
}
