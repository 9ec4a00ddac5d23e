import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ImportUrlBody, ImportUrlCreated, ImportUrlExisting, ClassifyBody, MAX_CSV_UPLOAD_BYTES, ClassifyResponse, RemoveHeldResponse, RunSummaryResponse, SourceCreate, SourcePatch, SourceResponse, SourceRunResponse } from '../../../contract/ingestion.ts';
import { perUser, signedIn } from '../../plugins/auth.ts';
import type { IngestionService } from './ingestion.service.ts';
import { toSourceResponse, toSourceRunResponse } from './sources.mapper.ts';
import type { SourcesService } from './sources.service.ts';

/** Room for an uploaded CSV of 10 MB inside the JSON body (quotes and newlines are escaped). */
const SOURCE_BODY_LIMIT = 3 * MAX_CSV_UPLOAD_BYTES;

const IdParams = z.object({ id: z.uuid('id must be a source id') });

/** Admin API for sources: list, add, edit, disable, delete, run now, remove a held drop, and the run history. */
export async function sourcesRoutes(app: FastifyInstance, deps: { sources: SourcesService; ingestion: IngestionService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { sources } = deps;

  r.get('/api/admin/sources', { schema: { response: { 200: z.array(SourceResponse) } }, config: { access: 'admin' } }, async () => (await sources.list()).map(toSourceResponse));

  r.post('/api/admin/sources', { schema: { body: SourceCreate, response: { 201: SourceResponse } }, bodyLimit: SOURCE_BODY_LIMIT, config: { access: 'admin' } }, async (req, reply) =>
    reply.status(201).send(toSourceResponse(await sources.create(req.body))),
  );

  r.patch('/api/admin/sources/:id', { schema: { params: IdParams, body: SourcePatch, response: { 200: SourceResponse } }, bodyLimit: SOURCE_BODY_LIMIT, config: { access: 'admin' } }, async (req) =>
    toSourceResponse(await sources.update(req.params.id, req.body)),
  );

  r.delete('/api/admin/sources/:id', { schema: { params: IdParams }, config: { access: 'admin' } }, async (req, reply) => {
    await sources.remove(req.params.id);
    return reply.status(204).send();
  });

  r.post('/api/admin/sources/:id/run', { schema: { params: IdParams, response: { 200: RunSummaryResponse } }, config: { access: 'admin', rateLimit: { max: 30, timeWindow: '1 minute', keyGenerator: perUser } } }, async (req) =>
    sources.runNow(req.params.id),
  );

  r.post('/api/admin/sources/:id/remove-held', { schema: { params: IdParams, response: { 200: RemoveHeldResponse } }, config: { access: 'admin' } }, async (req) =>
    sources.removeHeld(req.params.id),
  );

  r.get('/api/admin/sources/:id/runs', { schema: { params: IdParams, response: { 200: z.array(SourceRunResponse) } }, config: { access: 'admin' } }, async (req) =>
    (await sources.runs(req.params.id)).map(toSourceRunResponse),
  );

  // GET /api/admin/ai-status lives with the admin area (features/admin/admin.routes.ts).

  r.post('/api/admin/classify', { schema: { body: ClassifyBody, response: { 200: ClassifyResponse } }, config: { access: 'admin' } }, async (req) =>
    deps.ingestion.classify(req.body.events.map((e) => ({ title: e.title, description: e.description }))),
  );

  r.post(
    '/api/events/import-url',
    {
      schema: { body: ImportUrlBody, response: { 201: ImportUrlCreated, 200: ImportUrlExisting } },
      config: { access: 'user', rateLimit: { max: 10, timeWindow: '1 minute', keyGenerator: perUser } },
    },
    async (req, reply) => {
      const user = signedIn(req);
      const { eventId, created, message } = await deps.ingestion.importUrl(req.body.url, user.id);
      if (!created || eventId === null) return reply.status(200).send({ eventId, status: 'existing' as const, message });
      return reply.status(201).send({ eventId, status: 'pending' as const, message });
    },
  );
}
