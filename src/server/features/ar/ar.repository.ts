import { and, count, desc, eq, gte, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { firstOfSeries } from '../events/events.repository.ts';
import { events } from '../events/events.table.ts';
import { arDiscoveries } from './ar.table.ts';

export interface ArEventRow {
  id: string;
  title: string;
  startDate: Date;
  allDay: boolean;
  /** Occurrences of one recurring event share it (events.series_key). */
  seriesKey: string | null;
  attendeeCount: number;
  peopleCount: number;
  category: string;
  venueName: string;
  lat: number;
  lng: number;
}

const eventColumns = {
  id: events.id,
  title: events.title,
  startDate: events.startDate,
  allDay: events.allDay,
  seriesKey: events.seriesKey,
  attendeeCount: events.attendeeCount,
  peopleCount: events.peopleCount,
  category: events.category,
  venueName: events.venueName,
  lat: sql<number>`${events.lat}`,
  lng: sql<number>`${events.lng}`,
};

/** Listed events (approved, not dropped by every source) not over yet (starting later or running now) with a position. */
const upcomingApproved = (now: Date) => and(eq(events.status, 'approved'), isNull(events.goneAt), gte(events.endDate, now), isNotNull(events.lat), isNotNull(events.lng));

/** Queries of AR discovery: events in a box, and the player's recorded sessions. */
export function createArRepository(db: Db) {
  return {
    /**
     * Upcoming listed events inside a latitude/longitude box (the caller filters by distance), a
     * recurring event once, at its next date, as Discover lists it (series_prev_end, migration 0014).
     */
    async findUpcomingInBox(box: { minLat: number; maxLat: number; minLng: number; maxLng: number }, now: Date, limit: number): Promise<ArEventRow[]> {
      return db
        .select(eventColumns)
        .from(events)
        .where(and(upcomingApproved(now), firstOfSeries({ now }), gte(events.lat, box.minLat), lte(events.lat, box.maxLat), gte(events.lng, box.minLng), lte(events.lng, box.maxLng)))
        .orderBy(events.startDate)
        .limit(limit);
    },

    /** The upcoming approved positioned events among these ids. */
    async findUpcomingByIds(ids: readonly string[], now: Date): Promise<ArEventRow[]> {
      if (ids.length === 0) return [];
      return db.select(eventColumns).from(events).where(and(upcomingApproved(now), inArray(events.id, [...ids])));
    },

    async insertDiscovery(row: typeof arDiscoveries.$inferInsert) {
      const [inserted] = await db.insert(arDiscoveries).values(row).returning();
      if (!inserted) throw new Error('no discovery row');
      return inserted;
    },

    async setPoints(id: string, points: number) {
      const [row] = await db.update(arDiscoveries).set({ pointsEarned: points }).where(eq(arDiscoveries.id, id)).returning();
      return row;
    },

    async findDiscovery(id: string) {
      const [row] = await db.select().from(arDiscoveries).where(eq(arDiscoveries.id, id));
      return row;
    },

    async markShared(id: string, at: Date) {
      const [row] = await db
        .update(arDiscoveries)
        .set({ shared: true, sharedAt: sql`coalesce(${arDiscoveries.sharedAt}, ${at.toISOString()}::timestamptz)` })
        .where(eq(arDiscoveries.id, id))
        .returning();
      return row;
    },

    async listByUser(userId: string, limit = 20) {
      return db.select().from(arDiscoveries).where(eq(arDiscoveries.userId, userId)).orderBy(desc(arDiscoveries.createdAt)).limit(limit);
    },

    /**
     * Sessions, distinct events found and shared sessions of one player. A recurring event found on
     * several dates (or sessions) is one event found: its series counts once.
     */
    async achievementFacts(userId: string): Promise<{ sessions: number; distinctEvents: number; shared: number }> {
      const [totals] = await db
        .select({ sessions: count(), shared: sql<number>`count(*) filter (where ${arDiscoveries.shared})::int` })
        .from(arDiscoveries)
        .where(eq(arDiscoveries.userId, userId));
      const [distinct] = await db
        .select({ n: sql<number>`count(distinct coalesce(found.series_key, e.value))::int` })
        .from(sql`${arDiscoveries} cross join jsonb_array_elements_text(${arDiscoveries.eventIds}) as e(value) left join ${events} found on found.id = e.value::uuid`)
        .where(eq(arDiscoveries.userId, userId));
      return { sessions: Number(totals?.sessions ?? 0), shared: Number(totals?.shared ?? 0), distinctEvents: Number(distinct?.n ?? 0) };
    },
  };
}

export type ArRepository = ReturnType<typeof createArRepository>;
