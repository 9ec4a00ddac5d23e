import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { RecommendedQuery, RecommendedResponse } from '../../../contract/recommendations.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import type { CityConfig } from '../../../contract/city.ts';
import { signedIn } from '../../plugins/auth.ts';
import { createRecommendationsService } from './recommendations.service.ts';

/** GET /api/events/recommended: the signed-in user's ranked upcoming events, each with its reason. */
export async function recommendationsRoutes(app: FastifyInstance, deps: { db: Db; clock: Clock; city: CityConfig; bus: EventBus }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const recs = createRecommendationsService(deps);
  app.addHook('onClose', async () => {
    recs.close();
    await recs.idle();
  });
  r.get('/api/events/recommended', { schema: { querystring: RecommendedQuery, response: { 200: RecommendedResponse } }, config: { access: 'user' } }, async (req) =>
    recs.recommended(signedIn(req).id, req.query.limit),
  );
}
