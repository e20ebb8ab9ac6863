import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import {
  cleanProductTitle,
  errorResponses,
  ImageResponse,
  ImageTitleParams,
  ImageTitleRequest,
  PRODUCT_TITLE_MAX_LENGTH,
} from '@prodshot/contracts';
import { HttpError } from '../../services/http-error.js';

/**
 * The seller's product title for an upload: download names start with it and generation jobs pass
 * it to the engine as a hint. Only the owner's image is found; anyone else's answers 404.
 */
export async function imageTitleRoutes(appBase: FastifyInstance): Promise<void> {
  const app = appBase.withTypeProvider<TypeBoxTypeProvider>();
  const images = app.services.images;

  app.put(
    '/api/images/:id/title',
    {
      // The schema documents the limits; the handler words the refusal for the seller.
      attachValidation: true,
      schema: {
        params: ImageTitleParams,
        body: ImageTitleRequest,
        response: { 200: ImageResponse, ...errorResponses([400, 404]) },
      },
    },
    async (request) => {
      // Another user's image is not found, whatever the body holds.
      const owned = await images.owned(request.user.id, request.params.id);
      if (request.validationError) throw refusal(request.body);
      return { data: await images.setTitle(request.user.id, owned.id, cleanProductTitle(request.body.productTitle)) };
    },
  );
}

function refusal(body: unknown): HttpError {
  const title = (body as { productTitle?: unknown } | null)?.productTitle;
  if (typeof title === 'string' && title.length > PRODUCT_TITLE_MAX_LENGTH) {
    return new HttpError(
      400,
      `The product title is too long: at most ${PRODUCT_TITLE_MAX_LENGTH} characters`,
      'title_too_long',
    );
  }
  return new HttpError(400, 'Send the product title as { "productTitle": "..." }', 'invalid_title');
}
