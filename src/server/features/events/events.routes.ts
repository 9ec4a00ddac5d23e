import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { UserRow } from '../users/users.table.ts';
import {
  CalendarLink,
  EventDetail,
  EventFacets,
  EventInput,
  EventListQuery,
  PendingQuery,
  EventPatch,
  EventStats,
  EventSummary,
  FavoriteToggleResponse,
  SavedEvent,
} from '../../../contract/events.ts';
import type { Clock } from '../../clock.ts';
import { notFound } from '../../errors.ts';
import { publicOrigin } from '../../lib/origin.ts';
import { signedIn } from '../../plugins/auth.ts';
import type { AuthRepository } from '../auth/auth.repository.ts';
import type { EventsService } from './events.service.ts';
import { createAnswerCache, encodedBody, sharedEncoding, type SharedAnswer } from './answer-cache.ts';
import { toICalendar } from './ics.ts';

const IdParams = z.object({ id: z.string().max(100) });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Unknown ids, including ones that are not ids at all, are simply not found. */
const eventId = (id: string) => {
  if (!UUID.test(id)) throw notFound('Event not found');
  return id;
};
const viewerOf = (u: { id: string; role: UserRow['role'] } | null) => (u ? { id: u.id, role: u.role } : null);

export interface EventsRoutesDeps {
  events: EventsService;
  users: AuthRepository;
  clock: Clock;
  publicUrl: string | undefined;
  cityName: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * What anonymous readers share (lists, facets, stats): the answer carries a weak ETag of the
 * events version and clock bucket, and a request that already holds it gets 304 without a query
 * run; an answer already given for the same URL under that version, less than 15 s ago, is sent
 * again as it was (`x-cache: hit`), serialized once. Signed-in lists differ per person (their
 * hearts): neither tagged nor kept. A kept list can still show an event that ended in those 15 s,
 * as the totals can.
 */
async function shared<T>(
  req: FastifyRequest,
  reply: FastifyReply,
  deps: { events: EventsService; answers: ReturnType<typeof createAnswerCache> },
  now: Date,
  produce: () => Promise<{ body: T; headers?: Record<string, string> }>,
): Promise<T | FastifyReply> {
  if (req.user) {
    const { body, headers } = await produce();
    if (headers) void reply.headers(headers);
    return body;
  }
  const tag = await deps.events.listingTag(now);
  void reply.header('etag', tag).header('cache-control', 'no-cache');
  if (req.headers['if-none-match'] === tag) return reply.code(304).send();
  const key = `${await deps.events.listingVersion(now)} ${req.url}`;
  const kept = deps.answers.get(key, now.getTime());
  if (kept) return sendAnswer(req, reply.headers({ ...kept.headers, 'x-cache': 'hit' }), kept);
  const { body, headers = {} } = await produce();
  // The route's own serializer (its response schema), as a returned value would be sent.
  const out = reply.serialize(body);
  const text = typeof out === 'string' ? out : Buffer.from(out as ArrayBuffer).toString('utf8');
  const answer = { body: text, headers: { ...headers, etag: tag }, at: now.getTime() };
  // An answer built on the previous bucket's totals (given while this bucket's load) is not kept.
  // Kept with its own tag: sent again in the next bucket, it still names the bucket it was made in.
  if (!deps.events.isProvisional(now)) deps.answers.set(key, answer);
  return sendAnswer(req, reply.headers({ ...headers, 'x-cache': 'miss' }), answer);
}

/** A shared answer, compressed once for all who ask for it in the same encoding (see encodedBody). */
function sendAnswer(req: FastifyRequest, reply: FastifyReply, answer: SharedAnswer): FastifyReply {
  const encoding = sharedEncoding(req.headers);
  const encoded = encoding && encodedBody(answer, encoding);
  // The compress plugin leaves an answer that names its encoding as it is.
  if (encoded) return reply.header('content-encoding', encoding).header('vary', 'accept-encoding').type(JSON_TYPE).send(encoded);
  return reply.type(JSON_TYPE).send(answer.body);
}

/** Reading events (public), favourites and calendars (signed in), and hand-entered events (admins). */
export async function eventsRoutes(app: FastifyInstance, deps: EventsRoutesDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { events } = deps;
  const cache = { events, answers: createAnswerCache() };

  r.get('/api/events', { schema: { querystring: EventListQuery, response: { 200: z.array(EventSummary) } }, config: { access: 'public' } }, async (req, reply) => {
    const now = deps.clock.now();
    return shared(req, reply, cache, now, async () => {
      const { items, total, estimated } = await events.list(req.query, viewerOf(req.user), now);
      // Past EXACT_COUNT_LIMIT a filtered total is estimated (rounded to two figures) and says so.
      return { body: items, headers: { 'x-total-count': String(total), ...(estimated ? { 'x-total-count-estimated': 'true' } : {}) } };
    });
  });

  r.get('/api/events/facets', { schema: { querystring: EventListQuery, response: { 200: EventFacets } }, config: { access: 'public' } }, async (req, reply) => {
    const now = deps.clock.now();
    return shared(req, reply, cache, now, async () => ({ body: await events.facets(req.query, now) }));
  });

  r.get('/api/events/stats', { schema: { response: { 200: EventStats } }, config: { access: 'public' } }, async (req, reply) => {
    const now = deps.clock.now();
    return shared(req, reply, cache, now, async () => ({ body: await events.stats(now) }));
  });

  r.get('/api/events/:id', { schema: { params: IdParams, response: { 200: EventDetail } }, config: { access: 'public' } }, async (req) => events.get(eventId(req.params.id), viewerOf(req.user)));

  r.get('/api/events/:id/ics', { schema: { params: IdParams }, config: { access: 'public' } }, async (req, reply) => {
    const event = await events.get(eventId(req.params.id), viewerOf(req.user));
    const body = toICalendar([event], { name: event.title, now: deps.clock.now(), origin: publicOrigin(req, deps.publicUrl) });
    const file = event.title.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '').slice(0, 60) || 'event';
    return reply.type('text/calendar; charset=utf-8').header('content-disposition', `attachment; filename="${file}.ics"`).send(body);
  });

  r.post('/api/user/favorites/:id', { schema: { params: IdParams, response: { 200: FavoriteToggleResponse } }, config: { access: 'user' } }, async (req) => {
    const user = signedIn(req);
    const { isFavorited } = await events.toggleFavorite(viewerOf(user)!, eventId(req.params.id));
    return { isFavorited };
  });

  r.get('/api/user/favorites', { schema: { response: { 200: z.array(SavedEvent) } }, config: { access: 'user' } }, async (req) =>
    events.favorites(viewerOf(signedIn(req))!),
  );

  const calendarUrl = (origin: string, secret: string) => ({ url: `${origin}/api/calendar/${secret}.ics` });

  r.get('/api/user/calendar', { schema: { response: { 200: CalendarLink } }, config: { access: 'user' } }, async (req) => {
    const user = signedIn(req);
    let secret = user.calendarSecret;
    if (!secret) {
      secret = events.newCalendarSecret();
      await deps.users.updateUser(user.id, { calendarSecret: secret });
    }
    return calendarUrl(publicOrigin(req, deps.publicUrl), secret);
  });

  r.post('/api/user/calendar/reset', { schema: { response: { 200: CalendarLink } }, config: { access: 'user' } }, async (req) => {
    const user = signedIn(req);
    const secret = events.newCalendarSecret();
    await deps.users.updateUser(user.id, { calendarSecret: secret });
    return calendarUrl(publicOrigin(req, deps.publicUrl), secret);
  });

  // The subscription feed: calendar apps cannot sign in, so the secret in the path is the key.
  r.get('/api/calendar/:file', { schema: { params: z.object({ file: z.string().max(100) }) }, config: { access: 'public' } }, async (req, reply) => {
    const secret = req.params.file.replace(/\.ics$/, '');
    const user = secret.length >= 20 ? await deps.users.findUserByCalendarSecret(secret) : undefined;
    if (!user) throw notFound('Calendar not found');
    const list = await events.favorites({ id: user.id, role: user.role });
    const body = toICalendar(list, { name: `${deps.cityName} events · Townbeat`, now: deps.clock.now(), origin: publicOrigin(req, deps.publicUrl) });
    return reply.type('text/calendar; charset=utf-8').header('cache-control', 'private, max-age=300').send(body);
  });

  r.post('/api/admin/events', { schema: { body: EventInput, response: { 201: EventDetail } }, config: { access: 'admin' } }, async (req, reply) => {
    const admin = signedIn(req);
    return reply.status(201).send(await events.create(req.body, viewerOf(admin)!));
  });

  r.get('/api/admin/events/pending', { schema: { querystring: PendingQuery, response: { 200: z.array(EventSummary) } }, config: { access: 'admin' } }, async (req, reply) => {
    const { items, total } = await events.pending(req.query.offset);
    return reply.header('x-total-count', String(total)).send(items);
  });

  for (const [action, status] of [
    ['approve', 'approved'],
    ['reject', 'rejected'],
  ] as const) {
    r.post(`/api/admin/events/:id/${action}`, { schema: { params: IdParams, response: { 200: EventSummary } }, config: { access: 'admin' } }, async (req) =>
      events.setStatus(eventId(req.params.id), status, signedIn(req).id),
    );
  }

  r.patch('/api/admin/events/:id', { schema: { params: IdParams, body: EventPatch, response: { 200: EventSummary } }, config: { access: 'admin' } }, async (req) =>
    events.edit(eventId(req.params.id), req.body),
  );
}
