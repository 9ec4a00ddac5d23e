import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ArAchievementsResponse, ArDiscovery, DiscoverBody, DiscoverResponse, DiscoveryParams, NearbyEventsBody, NearbyEventsResponse, ShareResponse } from '../../../contract/ar.ts';
import { forbidden, notFound } from '../../errors.ts';
import { perUser, signedIn } from '../../plugins/auth.ts';
import type { ArService } from './ar.service.ts';

/** The AR discovery calls (spec section 7) plus achievements and sharing. */
export async function arRoutes(app: FastifyInstance, deps: { ar: ArService; ownerOf: (discoveryId: string) => Promise<string | null> }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ar } = deps;

  r.post('/api/ar/nearby-events', { schema: { body: NearbyEventsBody, response: { 200: NearbyEventsResponse } }, config: { access: 'user' } }, async (req) => ar.nearby(req.body));

  r.post(
    '/api/ar/discover',
    { schema: { body: DiscoverBody, response: { 200: DiscoverResponse } }, config: { access: 'user', rateLimit: { max: 30, timeWindow: '1 minute', keyGenerator: perUser } } },
    async (req) => ar.discover(signedIn(req), req.body),
  );

  r.get('/api/ar/achievements', { schema: { response: { 200: ArAchievementsResponse } }, config: { access: 'user' } }, async (req) => ({ achievements: await ar.achievements(signedIn(req).id) }));

  r.get('/api/ar/discoveries', { schema: { response: { 200: z.object({ discoveries: z.array(ArDiscovery) }) } }, config: { access: 'user' } }, async (req) => ({ discoveries: await ar.discoveries(signedIn(req)) }));

  r.post(
    '/api/ar/discoveries/:id/share',
    {
      schema: { params: DiscoveryParams, response: { 200: ShareResponse } },
      config: {
        access: 'user',
        guard: async (req) => {
          const id = (req.params as { id?: string }).id ?? '';
          const owner = z.string().uuid().safeParse(id).success ? await deps.ownerOf(id) : null;
          if (!owner) throw notFound('Discovery not found');
          if (owner !== req.user?.id) throw forbidden('Only the player who made a discovery may share it');
        },
      },
    },
    async (req) => ar.share(signedIn(req), req.params.id),
  );
}
