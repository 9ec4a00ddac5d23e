import { AR_MAX_RADIUS_M, DiscoverBody, type ArAchievement, type ArEvent, type DiscoverResponse, type NearbyEventsResponse, type ShareResponse } from '../../../contract/ar.ts';
import type { CityConfig } from '../../../contract/city.ts';
import type { z } from 'zod';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { AppError, forbidden, notFound } from '../../errors.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { bearingDeg, boundingBox, haversineM } from '../../lib/geo.ts';
import { attendeesOf } from '../events/events.mapper.ts';
import { announceAward, payAward, type PayOutcome } from '../gaming/awards.ts';
import { fixedPoints, RULES } from '../gaming/rules.ts';
import type { UserRow } from '../users/users.table.ts';
import { toArAchievements, toArDiscovery } from './ar.mapper.ts';
import { createArRepository, type ArEventRow } from './ar.repository.ts';

/** At most this many events answer one nearby call (nearest first). */
export const NEARBY_LIMIT = 50;
/** Candidates read from the box before the distance filter (the box's corners fall outside the circle). */
const BOX_CANDIDATES = 500;

const toArEvent = (e: ArEventRow, lat: number, lng: number): ArEvent => ({
  id: e.id,
  title: e.title,
  time: e.startDate.toISOString(),
  allDay: e.allDay,
  attendees: attendeesOf(e),
  category: e.category,
  venue: e.venueName,
  lat: e.lat,
  lng: e.lng,
  distanceM: Math.round(haversineM(lat, lng, e.lat, e.lng)),
  bearing: Math.round(bearingDeg(lat, lng, e.lat, e.lng) * 10) / 10,
});

/** AR discovery: nearby events, recorded sessions (paid through the rule table) and achievements. */
export function createArService(deps: { db: Db; clock: Clock; city: CityConfig; bus: EventBus }) {
  const { db, clock, bus } = deps;
  const repo = createArRepository(db);
  const timeZone = deps.city.timeZone;

  async function achievements(userId: string): Promise<ArAchievement[]> {
    return toArAchievements(await repo.achievementFacts(userId));
  }

  return {
    /** POST /api/ar/nearby-events: upcoming approved events within the radius, nearest first. */
    async nearby(q: { lat: number; lng: number; radius: number }): Promise<NearbyEventsResponse> {
      const rows = await repo.findUpcomingInBox(boundingBox(q.lat, q.lng, q.radius), clock.now(), BOX_CANDIDATES);
      const events = rows
        .map((r) => toArEvent(r, q.lat, q.lng))
        .filter((e) => e.distanceM <= q.radius)
        .sort((a, b) => a.distanceM - b.distanceM)
        .slice(0, NEARBY_LIMIT);
      return { events };
    },

    /**
     * POST /api/ar/discover: keeps only the claimed events that are real, upcoming, approved and
     * within 20 km of the claimed place, records the session, and pays the `ar` rule once for it
     * when at least one event was real (nothing past the daily cap).
     */
    async discover(user: UserRow, body: z.output<typeof DiscoverBody>): Promise<DiscoverResponse> {
      const now = clock.now();
      const { lat, lng, name } = body.location;
      const claimed = [...new Set(body.events.map((e) => (typeof e === 'string' ? e : e.id)))];
      const near = (await repo.findUpcomingByIds(claimed, now)).filter((e) => haversineM(lat, lng, e.lat, e.lng) <= AR_MAX_RADIUS_M);
      // A recurring event is one event found, however many of its dates were claimed: its next one.
      const real = [...new Map([...near].sort((a, b) => b.startDate.getTime() - a.startDate.getTime()).map((e) => [e.seriesKey ?? e.id, e])).values()];
      const result = await db.transaction(async (tx) => {
        const r = createArRepository(tx);
        let row = await r.insertDiscovery({ userId: user.id, latitude: lat, longitude: lng, placeName: name, eventIds: real.map((e) => e.id), eventsFound: real.length, createdAt: now });
        let paid: PayOutcome | null = null;
        let capped = false;
        if (real.length > 0) {
          try {
            paid = await payAward(
              tx,
              RULES.ar,
              {
                userId: user.id,
                activityType: RULES.ar.activityType,
                reason: 'ar_session',
                targetType: 'ar_discovery',
                targetId: row.id,
                points: fixedPoints(RULES.ar),
                description: `Found ${real.length} event${real.length === 1 ? '' : 's'} in AR${name ? ` at ${name}` : ''}`,
                idempotencyKey: `ar:${row.id}`,
                at: now,
              },
              timeZone,
            );
            if (paid.status === 'paid') row = (await r.setPoints(row.id, paid.award.points)) ?? row;
          } catch (err) {
            // Past the daily cap the session is still recorded; it only earns nothing.
            if (!(err instanceof AppError && err.status === 429)) throw err;
            capped = true;
          }
        }
        return { row, paid, capped };
      });
      announceAward(bus, user.id, result.paid);
      const points = result.row.pointsEarned;
      const message =
        real.length === 0
          ? 'No upcoming events were found here, so this session earned no points.'
          : result.capped
            ? `Daily limit reached for AR: this session found ${real.length} event${real.length === 1 ? '' : 's'} but earned no points.`
            : `+${points} points for ${RULES.ar.label}.`;
      return { discovery: toArDiscovery(result.row), pointsAwarded: points, message, achievements: await achievements(user.id) };
    },

    /** POST /api/ar/discoveries/:id/share: marks the player's own session shared (Digital Pioneer). */
    async share(user: UserRow, id: string): Promise<ShareResponse> {
      const found = await repo.findDiscovery(id);
      if (!found) throw notFound('Discovery not found');
      if (found.userId !== user.id) throw forbidden('Only the player who made a discovery may share it');
      const row = (await repo.markShared(id, clock.now())) ?? found;
      return { discovery: toArDiscovery(row), achievements: await achievements(user.id) };
    },

    /** GET /api/ar/achievements. */
    achievements,

    /** The player's own recent sessions, for the side panel. */
    async discoveries(user: UserRow) {
      return (await repo.listByUser(user.id)).map(toArDiscovery);
    },
  };
}

export type ArService = ReturnType<typeof createArService>;
