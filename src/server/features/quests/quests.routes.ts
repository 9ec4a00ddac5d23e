import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CreateHuntBody,
  CreateNodeBody,
  EvidenceBody,
  EvidenceResponse,
  Hunt,
  HuntProgress,
  IdParams,
  MapResponse,
  PendingEvidenceList,
  QuestNode,
  ReviewParams,
  ReviewResponse,
  UpdateHuntBody,
  UpdateNodeBody,
} from '../../../contract/quests.ts';
import { perUser, signedIn } from '../../plugins/auth.ts';
import { FLYER_BODY_LIMIT } from '../scan/scan.routes.ts';
import type { QuestsService } from './quests.service.ts';

/** Evidence is rate limited per user, so positions cannot be swept across the city. */
export const EVIDENCE_PER_MINUTE = 20;

declare module 'fastify' {
  interface FastifyInstance {
    /** The quests service, decorated on the root so the demo seeder can reach it. */
    quests: QuestsService;
  }
}

/**
 * Quest map, hunt progress, evidence and its review, and the admin node/hunt API (spec section 7).
 * Wrapped with fastify-plugin so `app.quests` is visible to the demo seeder at the root.
 */
export const questsRoutes = fp(async (app: FastifyInstance, deps: { quests: QuestsService }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { quests } = deps;
  app.decorate('quests', quests);

  r.get('/api/map', { schema: { response: { 200: MapResponse } }, config: { access: 'user' } }, async (req) => quests.map(signedIn(req).role === 'admin'));
  r.get('/api/hunt/progress', { schema: { response: { 200: HuntProgress } }, config: { access: 'user' } }, async (req) => quests.progress(signedIn(req).id));

  r.post(
    '/api/hunt/nodes/:id/evidence',
    {
      bodyLimit: FLYER_BODY_LIMIT,
      schema: { params: IdParams, body: EvidenceBody, response: { 200: EvidenceResponse } },
      config: { access: 'user', rateLimit: { max: EVIDENCE_PER_MINUTE, timeWindow: '1 minute', keyGenerator: perUser } },
    },
    async (req) => quests.submitEvidence(signedIn(req).id, req.params.id, req.body),
  );

  r.post('/api/map/nodes', { schema: { body: CreateNodeBody, response: { 201: QuestNode } }, config: { access: 'admin' } }, async (req, reply) =>
    reply.status(201).send(await quests.createNode(req.body, signedIn(req).id)),
  );
  r.patch('/api/map/nodes/:id', { schema: { params: IdParams, body: UpdateNodeBody, response: { 200: QuestNode } }, config: { access: 'admin' } }, async (req) =>
    quests.updateNode(req.params.id, req.body),
  );
  r.post('/api/map/hunts', { schema: { body: CreateHuntBody, response: { 201: Hunt } }, config: { access: 'admin' } }, async (req, reply) =>
    reply.status(201).send(await quests.createHunt(req.body)),
  );
  r.patch('/api/map/hunts/:id', { schema: { params: IdParams, body: UpdateHuntBody, response: { 200: Hunt } }, config: { access: 'admin' } }, async (req) =>
    quests.updateHunt(req.params.id, req.body),
  );

  r.get('/api/admin/hunt/evidence', { schema: { response: { 200: PendingEvidenceList } }, config: { access: 'admin' } }, async () => quests.pendingEvidence());
  r.get('/api/admin/hunt/evidence/:id/photo', { schema: { params: IdParams }, config: { access: 'admin' } }, async (req, reply) => {
    const photo = await quests.evidencePhoto(req.params.id);
    return reply.type(photo.type).header('cache-control', 'private, no-store').send(photo.bytes);
  });
  r.post('/api/admin/hunt/evidence/:id/:decision', { schema: { params: ReviewParams, response: { 200: ReviewResponse } }, config: { access: 'admin' } }, async (req) =>
    quests.review(req.params.id, req.params.decision, signedIn(req).id),
  );
});
