import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ImportUrlBody, ClassifyBody, MAX_CSV_UPLOAD_BYTES, ClassifyResponse, RunSummaryResponse, SourceCreate, SourcePatch, SourceResponse, SourceRunResponse } from '../../../contract/ingestion.ts';
import { notFound } from '../../errors.ts';
import { requireAdmin, requireUser } from '../../plugins/auth.ts';
import { classifierMetrics } from './classifier/metrics.ts';
import type { IngestionService } from './ingestion.service.ts';
import type { Scheduler } from './scheduler.ts';
import { mergeConfig, toSourceResponse } from './sources.mapper.ts';
import type { SourcesRepository } from './sources.repository.ts';

/** Room for an uploaded CSV of 10 MB inside the JSON body (quotes and newlines are escaped). */
const SOURCE_BODY_LIMIT = 3 * MAX_CSV_UPLOAD_BYTES;

const IdParams = z.object({ id: z.uuid('id must be a source id') });

/** Admin API for sources: list, add, edit, disable, delete, run now, and the run history. */
export async function sourcesRoutes(app: FastifyInstance, deps: { sources: SourcesRepository; ingestion: IngestionService; scheduler: Scheduler | null }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { sources } = deps;
  const find = async (id: string) => {
    const s = await sources.findById(id);
    if (!s) throw notFound('Source not found');
    return s;
  };

  r.get('/api/admin/sources', { schema: { response: { 200: z.array(SourceResponse) } } }, async (req) => {
    requireAdmin(req);
    return (await sources.list()).map(toSourceResponse);
  });

  r.post('/api/admin/sources', { schema: { body: SourceCreate, response: { 201: SourceResponse } }, bodyLimit: SOURCE_BODY_LIMIT }, async (req, reply) => {
    requireAdmin(req);
    const row = await sources.insert({ ...req.body, url: req.body.url ?? null });
    await deps.scheduler?.ensure(row.id, 0);
    return reply.status(201).send(toSourceResponse(row));
  });

  r.patch('/api/admin/sources/:id', { schema: { params: IdParams, body: SourcePatch, response: { 200: SourceResponse } }, bodyLimit: SOURCE_BODY_LIMIT }, async (req) => {
    requireAdmin(req);
    const current = await find(req.params.id);
    const { config, ...rest } = req.body;
    const row = await sources.update(current.id, { ...rest, ...(config ? { config: mergeConfig(current.config, config) } : {}) });
    if (!row) throw notFound('Source not found');
    if (row.enabled) await deps.scheduler?.ensure(row.id, row.intervalMinutes);
    return toSourceResponse(row);
  });

  r.delete('/api/admin/sources/:id', { schema: { params: IdParams } }, async (req, reply) => {
    requireAdmin(req);
    if (!(await sources.remove(req.params.id))) throw notFound('Source not found');
    return reply.status(204).send();
  });

  r.post('/api/admin/sources/:id/run', { schema: { params: IdParams, response: { 200: RunSummaryResponse } }, config: { rateLimit: { max: 30, timeWindow: '1 minute' } } }, async (req) => {
    requireAdmin(req);
    await find(req.params.id);
    return deps.ingestion.runSource(req.params.id, 'manual');
  });

  r.get('/api/admin/sources/:id/runs', { schema: { params: IdParams, response: { 200: z.array(SourceRunResponse) } } }, async (req) => {
    requireAdmin(req);
    await find(req.params.id);
    return (await sources.listRuns(req.params.id, 50)).map((run) => ({
      id: run.id,
      trigger: run.trigger,
      startedAt: run.startedAt.toISOString(),
      finishedAt: run.finishedAt.toISOString(),
      status: run.status,
      fetched: run.fetched,
      created: run.created,
      updated: run.updated,
      merged: run.merged,
      rejected: run.rejected,
      errors: run.errors,
      ...(run.errorMessage ? { error: run.errorMessage } : {}),
    }));
  });

  r.get(
    '/api/admin/ai-status',
    {
      schema: {
        response: {
          200: z.object({
            model: z.string(),
            accuracy: z.number().nullable(),
            macroF1: z.number().nullable(),
            evaluatedOn: z.string(),
            /** The language model asked about low-confidence events, when one is configured. */
            llm: z.object({ model: z.string() }).nullable().optional(),
          }),
        },
      },
    },
    async (req) => {
      requireAdmin(req);
      return { model: 'Built-in event classifier (logistic regression, offline)', ...classifierMetrics(), llm: deps.ingestion.languageModel };
    },
  );

  r.post('/api/admin/classify', { schema: { body: ClassifyBody, response: { 200: ClassifyResponse } } }, async (req) => {
    requireAdmin(req);
    return deps.ingestion.classify(req.body.events.map((e) => ({ title: e.title, description: e.description })));
  });

  r.post(
    '/api/events/import-url',
    {
      schema: { body: ImportUrlBody, response: { 201: z.object({ eventId: z.string(), status: z.literal('pending'), message: z.string() }), 200: z.object({ eventId: z.string(), status: z.literal('existing'), message: z.string() }) } },
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const { eventId, created } = await deps.ingestion.importUrl(req.body.url, user.id);
      if (!created) return reply.status(200).send({ eventId, status: 'existing' as const, message: 'This event is already listed on Townbeat' });
      return reply.status(201).send({ eventId, status: 'pending' as const, message: 'Thanks! Your event was sent for review' });
    },
  );
}
