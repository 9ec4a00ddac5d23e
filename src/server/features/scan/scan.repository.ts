import { and, asc, count, countDistinct, eq, gte, inArray, sql, sum } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { events, venues } from '../events/events.table.ts';
import { userBadges } from '../gaming/badges.table.ts';
import { pointAwards } from '../gaming/ledger.table.ts';
import { flyerScans } from './scan.table.ts';

/** Queries of the flyer scanner: its scans, the events they came to, and the ledger rows they paid. */
export function createScanRepository(db: Db) {
  return {
    async insert(row: typeof flyerScans.$inferInsert) {
      await db.insert(flyerScans).values(row);
    },

    async findById(id: string) {
      const [row] = await db.select().from(flyerScans).where(eq(flyerScans.id, id));
      return row ?? null;
    },

    async updateExtraction(id: string, extraction: (typeof flyerScans.$inferInsert)['extraction']) {
      await db.update(flyerScans).set({ extraction }).where(eq(flyerScans.id, id));
    },

    async countByUser(userId: string, since?: Date): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(flyerScans)
        .where(and(eq(flyerScans.userId, userId), since ? gte(flyerScans.createdAt, since) : undefined));
      return Number(row?.n ?? 0);
    },

    /** Distinct events a user's scans came to (since a time). */
    async countEventsByUser(userId: string, since: Date): Promise<number> {
      const [row] = await db
        .select({ n: countDistinct(flyerScans.eventId) })
        .from(flyerScans)
        .where(and(eq(flyerScans.userId, userId), gte(flyerScans.createdAt, since)));
      return Number(row?.n ?? 0);
    },

    /** Distinct categories of the events a user's scans came to. */
    async countCategories(userId: string): Promise<number> {
      const [row] = await db.select({ n: countDistinct(events.category) }).from(flyerScans).innerJoin(events, eq(events.id, flyerScans.eventId)).where(eq(flyerScans.userId, userId));
      return Number(row?.n ?? 0);
    },

    async countNewVenues(userId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(flyerScans).where(and(eq(flyerScans.userId, userId), eq(flyerScans.newVenue, true)));
      return Number(row?.n ?? 0);
    },

    /** Whether the city knows a venue by this name: a venue record, or an event listed or waiting for review there. */
    async isKnownVenue(name: string): Promise<boolean> {
      const key = name.trim().toLowerCase();
      const [v] = await db.select({ id: venues.id }).from(venues).where(sql`lower(${venues.name}) = ${key}`).limit(1);
      if (v) return true;
      const [e] = await db
        .select({ id: events.id })
        .from(events)
        .where(and(sql`lower(${events.venueName}) = ${key}`, inArray(events.status, ['approved', 'pending'])))
        .limit(1);
      return Boolean(e);
    },

    /** Known venues with their places: names for the extractor, places for a corrected venue. */
    allVenues: () => db.select({ name: venues.name, address: venues.address, neighbourhood: venues.neighbourhood, lat: venues.lat, lng: venues.lng }).from(venues),

    async sumPoints(userId: string, activityTypes: readonly string[]): Promise<number> {
      const [row] = await db
        .select({ n: sum(pointAwards.points) })
        .from(pointAwards)
        .where(and(eq(pointAwards.userId, userId), inArray(pointAwards.activityType, [...activityTypes])));
      return Number(row?.n ?? 0);
    },

    /** The badges a user earned by awards of these activity types (the award that crossed the badge's threshold), oldest first. */
    async findBadgesEarnedBy(userId: string, activityTypes: readonly string[]) {
      return db
        .select({ badgeType: userBadges.badgeType, earnedAt: userBadges.earnedAt })
        .from(userBadges)
        .innerJoin(pointAwards, eq(pointAwards.id, userBadges.awardId))
        .where(and(eq(userBadges.userId, userId), inArray(pointAwards.activityType, [...activityTypes])))
        .orderBy(asc(userBadges.earnedAt), asc(userBadges.id));
    },

    /** Which of these idempotency keys the ledger already holds. */
    async paidKeys(keys: readonly string[]): Promise<Set<string>> {
      if (!keys.length) return new Set();
      const rows = await db.select({ key: pointAwards.idempotencyKey }).from(pointAwards).where(inArray(pointAwards.idempotencyKey, [...keys]));
      return new Set(rows.map((r) => r.key));
    },

    async findEvent(id: string) {
      const [row] = await db
        .select({
          id: events.id,
          title: events.title,
          startDate: events.startDate,
          endDate: events.endDate,
          venueName: events.venueName,
          address: events.address,
          neighbourhood: events.neighbourhood,
          lat: events.lat,
          lng: events.lng,
          geoApprox: events.geoApprox,
          category: events.category,
          status: events.status,
          price: events.price,
          isFree: events.isFree,
        })
        .from(events)
        .where(eq(events.id, id));
      return row ?? null;
    },

    async findVenueId(name: string): Promise<string | null> {
      const [v] = await db.select({ id: venues.id }).from(venues).where(sql`lower(${venues.name}) = ${name.trim().toLowerCase()}`).limit(1);
      return v?.id ?? null;
    },

    async updateEvent(id: string, patch: Partial<typeof events.$inferInsert>) {
      await db.update(events).set(patch).where(eq(events.id, id));
    },
  };
}

export type ScanRepository = ReturnType<typeof createScanRepository>;
