import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AddToHuntResponse, Geosymbol, GeosymbolParams, InjectBody, InjectResponse, ProcessedQuery, ProcessedResponse, VoteResponse } from '../../../contract/memories.ts';
import { forbidden, notFound } from '../../errors.ts';
import { perUser, signedIn } from '../../plugins/auth.ts';
import type { MemoriesService } from './memories.service.ts';

/** Forging may call a language model: a few a minute per user. */
export const FORGES_PER_MINUTE = 10;

/** The memory forge calls (spec section 7) plus one geosymbol, votes and 'Add to Active Hunt'. */
export async function memoriesRoutes(app: FastifyInstance, deps: { memories: MemoriesService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { memories } = deps;

  r.post(
    '/api/geosymbol/inject',
    { schema: { body: InjectBody, response: { 201: InjectResponse } }, config: { access: 'user', rateLimit: { max: FORGES_PER_MINUTE, timeWindow: '1 minute', keyGenerator: perUser } } },
    async (req, reply) => reply.status(201).send(await memories.inject(signedIn(req), req.body)),
  );

  // Public: the service shows each caller only what its privacy level allows.
  r.get('/api/geosymbol/processed', { schema: { querystring: ProcessedQuery, response: { 200: ProcessedResponse } }, config: { access: 'public' } }, async (req) => memories.processed(req.user, req.query));

  r.get('/api/geosymbol/:id', { schema: { params: GeosymbolParams, response: { 200: Geosymbol } }, config: { access: 'public' } }, async (req) => memories.get(req.user, req.params.id));

  r.post('/api/geosymbol/:id/vote', { schema: { params: GeosymbolParams, response: { 200: VoteResponse } }, config: { access: 'user' } }, async (req) => memories.vote(signedIn(req), req.params.id));

  r.post(
    '/api/geosymbol/:id/add-to-hunt',
    {
      schema: { params: GeosymbolParams, response: { 200: AddToHuntResponse } },
      config: {
        access: 'user',
        guard: async (req) => {
          const id = (req.params as { id?: string }).id ?? '';
          const author = z.string().uuid().safeParse(id).success ? await memories.authorOf(id) : null;
          if (!author) throw notFound('Geosymbol not found');
          if (author !== req.user?.id) throw forbidden('Only the author of a memory may add it to a hunt');
        },
      },
    },
    async (req) => memories.addToHunt(signedIn(req), req.params.id),
  );
}
