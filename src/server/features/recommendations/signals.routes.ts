import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { CityConfig } from '../../../contract/city.ts';
import { BuzzQuery, BuzzResponse, DismissResponse, EventViewBody, EventViewResponse, InterestsBody, InterestsResponse } from '../../../contract/recommendations.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../errors.ts';
import { perUser, signedIn } from '../../plugins/auth.ts';
import { createBuzzService } from './buzz.service.ts';
import { createSignalsService } from './signals.service.ts';

const IdParams = z.object({ id: z.string().max(100) });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids that are not ids at all are simply not found, like unknown ones. */
const eventId = (id: string) => {
  if (!UUID.test(id)) throw notFound('Event not found');
  return id.toLowerCase();
};
/** Views come with every page open; this only stops floods. */
const viewLimit = { rateLimit: { max: 120, timeWindow: '1 minute', keyGenerator: perUser } };

/** Dismiss, view, interests (the ranking's signals) and the Discover home's Community Buzz. */
export async function signalsRoutes(app: FastifyInstance, deps: { db: Db; clock: Clock; city: CityConfig }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signals = createSignalsService(deps);
  const buzz = createBuzzService(deps);

  r.post('/api/events/:id/dismiss', { schema: { params: IdParams, response: { 200: DismissResponse } }, config: { access: 'user' } }, async (req) =>
    signals.dismiss(signedIn(req).id, eventId(req.params.id)),
  );

  r.post('/api/events/:id/view', { schema: { params: IdParams, body: EventViewBody, response: { 200: EventViewResponse } }, config: { access: 'user', ...viewLimit } }, async (req) =>
    signals.view(signedIn(req).id, eventId(req.params.id), req.body),
  );

  r.get('/api/user/interests', { schema: { response: { 200: InterestsResponse } }, config: { access: 'user' } }, async (req) => signals.interests(signedIn(req).id));

  r.put('/api/user/interests', { schema: { body: InterestsBody, response: { 200: InterestsResponse } }, config: { access: 'user' } }, async (req) =>
    signals.setInterests(signedIn(req).id, req.body),
  );

  r.get('/api/community/buzz', { schema: { querystring: BuzzQuery, response: { 200: BuzzResponse } }, config: { access: 'user' } }, async (req) =>
    buzz.latest(signedIn(req).id, req.query.limit),
  );
}
