import { and, asc, count, desc, eq, gt, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { events } from '../events/events.table.ts';
import { users } from '../users/users.table.ts';
import { userBadges, type UserBadgeRow } from './badges.table.ts';
import { pointAwards } from './ledger.table.ts';

export type AwardRow = typeof pointAwards.$inferSelect;

export interface LeaderboardRow {
  userId: string;
  firstName: string | null;
  lastName: string | null;
  optOut: boolean;
  points: number;
  rank: number;
}

/** Queries on the ledger, badges and the leaderboard; no rules here. */
export function createGamingRepository(db: Db) {
  return {
    async findAwardByKey(key: string): Promise<AwardRow | undefined> {
      const [row] = await db.select().from(pointAwards).where(eq(pointAwards.idempotencyKey, key));
      return row;
    },

    async countAwardsBetween(userId: string, activityType: string, from: Date, to: Date): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(pointAwards)
        .where(and(eq(pointAwards.userId, userId), eq(pointAwards.activityType, activityType), gte(pointAwards.createdAt, from), lt(pointAwards.createdAt, to)));
      return Number(row?.n ?? 0);
    },

    /** Awards per activity type of a user. */
    async countAwardsByType(userId: string, types: readonly string[]): Promise<Record<string, number>> {
      const rows = await db
        .select({ type: pointAwards.activityType, n: count() })
        .from(pointAwards)
        .where(and(eq(pointAwards.userId, userId), inArray(pointAwards.activityType, [...types])))
        .groupBy(pointAwards.activityType);
      return Object.fromEntries(rows.map((r) => [r.type, Number(r.n)]));
    },

    /** Check-ins of a user at events of a category. */
    async countCheckInsInCategory(userId: string, category: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(pointAwards)
        .innerJoin(events, eq(events.id, pointAwards.eventId))
        .where(and(eq(pointAwards.userId, userId), eq(pointAwards.activityType, 'check_in'), eq(events.category, category)));
      return Number(row?.n ?? 0);
    },

    /** Distinct local days ('YYYY-MM-DD' in the zone) on which a user earned, since an instant. */
    async awardDays(userId: string, since: Date, timeZone: string): Promise<string[]> {
      const day = sql<string>`to_char(${pointAwards.createdAt} at time zone ${timeZone}, 'YYYY-MM-DD')`;
      const rows = await db
        .selectDistinct({ day })
        .from(pointAwards)
        .where(and(eq(pointAwards.userId, userId), gte(pointAwards.createdAt, since)));
      return rows.map((r) => r.day);
    },

    async findPoints(userId: string): Promise<number> {
      const [row] = await db.select({ points: users.points }).from(users).where(eq(users.id, userId));
      return row?.points ?? 0;
    },

    async findBadges(userId: string): Promise<UserBadgeRow[]> {
      return db.select().from(userBadges).where(eq(userBadges.userId, userId)).orderBy(asc(userBadges.earnedAt), asc(userBadges.id));
    },

    async findBadgesByAward(awardId: string): Promise<UserBadgeRow[]> {
      return db.select().from(userBadges).where(eq(userBadges.awardId, awardId)).orderBy(asc(userBadges.earnedAt), asc(userBadges.id));
    },

    /** Inserts the badges not yet held; returns the ones that were new. */
    async insertBadges(userId: string, types: readonly string[], awardId: string | null, at: Date): Promise<UserBadgeRow[]> {
      if (types.length === 0) return [];
      return db
        .insert(userBadges)
        .values(types.map((badgeType) => ({ userId, badgeType, awardId, earnedAt: at })))
        .onConflictDoNothing({ target: [userBadges.userId, userBadges.badgeType] })
        .returning();
    },

    /** A user's newest ledger rows. */
    async listAwards(userId: string, limit: number): Promise<AwardRow[]> {
      return db.select().from(pointAwards).where(eq(pointAwards.userId, userId)).orderBy(desc(pointAwards.createdAt), desc(pointAwards.id)).limit(limit);
    },

    /** Events the user brought in (imported or entered). */
    async countContributions(userId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(events).where(eq(events.contributedBy, userId));
      return Number(row?.n ?? 0);
    },

    /**
     * All-time leaderboard from the cached totals: standard competition rank; equal totals are
     * listed by who reached theirs first (earliest last award), then by id.
     */
    async leaderboardAllTime(limit: number): Promise<LeaderboardRow[]> {
      const reachedAt = sql`(select max(${pointAwards.createdAt}) from ${pointAwards} where ${pointAwards.userId} = ${users.id})`;
      return db
        .select({
          userId: users.id,
          firstName: users.firstName,
          lastName: users.lastName,
          optOut: users.leaderboardOptOut,
          points: users.points,
          rank: sql<number>`rank() over (order by ${users.points} desc)`.mapWith(Number),
        })
        .from(users)
        .where(gt(users.points, 0))
        .orderBy(desc(users.points), sql`${reachedAt} asc nulls last`, asc(users.id))
        .limit(limit);
    },

    /** Leaderboard of the points earned since an instant, ranked like the all-time one. */
    async leaderboardSince(since: Date, limit: number): Promise<LeaderboardRow[]> {
      const w = db
        .select({
          userId: pointAwards.userId,
          points: sql<number>`sum(${pointAwards.points})::int`.as('week_points'),
          reachedAt: sql`max(${pointAwards.createdAt})`.as('reached_at'),
        })
        .from(pointAwards)
        .where(gte(pointAwards.createdAt, since))
        .groupBy(pointAwards.userId)
        .as('w');
      return db
        .select({
          userId: w.userId,
          firstName: users.firstName,
          lastName: users.lastName,
          optOut: users.leaderboardOptOut,
          points: sql<number>`${w.points}`.mapWith(Number),
          rank: sql<number>`rank() over (order by ${w.points} desc)`.mapWith(Number),
        })
        .from(w)
        .innerJoin(users, eq(users.id, w.userId))
        .where(gt(w.points, 0))
        .orderBy(desc(w.points), asc(w.reachedAt), asc(w.userId))
        .limit(limit);
    },

    async findOptOut(userId: string): Promise<boolean> {
      const [row] = await db.select({ optOut: users.leaderboardOptOut }).from(users).where(eq(users.id, userId));
      return row?.optOut ?? false;
    },

    async setOptOut(userId: string, optOut: boolean, at: Date): Promise<void> {
      await db.update(users).set({ leaderboardOptOut: optOut, updatedAt: at }).where(eq(users.id, userId));
    },

    async findProfileSettings(userId: string): Promise<{ leaderboardOptOut: boolean; buzzOptOut: boolean }> {
      const [row] = await db.select({ leaderboardOptOut: users.leaderboardOptOut, buzzOptOut: users.buzzOptOut }).from(users).where(eq(users.id, userId));
      return row ?? { leaderboardOptOut: false, buzzOptOut: false };
    },

    /** Sets only the settings given. */
    async setProfileSettings(userId: string, s: { leaderboardOptOut?: boolean; buzzOptOut?: boolean }, at: Date): Promise<void> {
      await db
        .update(users)
        .set({ ...(s.leaderboardOptOut === undefined ? {} : { leaderboardOptOut: s.leaderboardOptOut }), ...(s.buzzOptOut === undefined ? {} : { buzzOptOut: s.buzzOptOut }), updatedAt: at })
        .where(eq(users.id, userId));
    },

    async findEventForActivity(eventId: string) {
      const [row] = await db.select({ id: events.id, title: events.title, status: events.status }).from(events).where(eq(events.id, eventId));
      return row;
    },
  };
}

export type GamingRepository = ReturnType<typeof createGamingRepository>;
