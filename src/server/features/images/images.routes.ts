import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ImagesService } from './images.service.ts';

const ImageFileParams = z.object({
  id: z.uuid(),
  file: z.string().regex(/^[1-9]\d{0,3}\.webp$/, 'must be <width>.webp, as in 640.webp'),
});

/** A kept copy never changes under its address: caches may keep it for a year. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Whether an If-None-Match header names the ETag (a list, weak or not, or '*'). */
const matches = (header: string | undefined, etag: string) =>
  Boolean(header?.split(',').some((t) => ['*', etag].includes(t.trim().replace(/^W\//, ''))));

/** The kept copies of events' images, for `<img src>` and `srcset`: public, cached for a year. */
export async function imagesRoutes(app: FastifyInstance, deps: { images: ImagesService }) {
  app.withTypeProvider<ZodTypeProvider>().get('/api/images/:id/:file', { schema: { params: ImageFileParams }, config: { access: 'public' } }, async (req, reply) => {
    const image = await deps.images.variant(req.params.id, Number.parseInt(req.params.file, 10));
    reply.header('cache-control', IMMUTABLE).header('etag', image.etag);
    if (matches(req.headers['if-none-match'], image.etag)) return reply.code(304).send();
    return reply.type(image.contentType).send(image.bytes);
  });
}
