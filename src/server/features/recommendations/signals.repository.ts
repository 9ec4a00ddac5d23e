import { and, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { events } from '../events/events.table.ts';
import { eventDismissals, eventViews, userInterests } from './recommendations.table.ts';

/** Queries for the signals the ranking reads: dismissals, views and picked interests. */
export function createSignalsRepository(db: Db) {
  return {
    async eventExists(eventId: string): Promise<boolean> {
      const [row] = await db.select({ id: events.id }).from(events).where(eq(events.id, eventId)).limit(1);
      return Boolean(row);
    },

    /** Idempotent: a second dismissal of the same event keeps the first row. */
    async insertDismissal(userId: string, eventId: string, at: Date): Promise<void> {
      await db.insert(eventDismissals).values({ userId, eventId, createdAt: at }).onConflictDoNothing();
    },

    async hasViewSince(userId: string, eventId: string, via: 'page' | 'recommendation', since: Date): Promise<boolean> {
      const [row] = await db
        .select({ id: eventViews.id })
        .from(eventViews)
        .where(and(eq(eventViews.userId, userId), eq(eventViews.eventId, eventId), eq(eventViews.via, via), gte(eventViews.createdAt, since)))
        .limit(1);
      return Boolean(row);
    },

    async insertView(userId: string, eventId: string, via: 'page' | 'recommendation', at: Date): Promise<void> {
      await db.insert(eventViews).values({ userId, eventId, via, createdAt: at });
    },

    /** Serialises one user's view records, so two simultaneous opens record once. */
    async lockUserViews(userId: string): Promise<void> {
      await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`event_views:${userId}`}))`);
    },

    async findInterests(userId: string) {
      const [row] = await db.select().from(userInterests).where(eq(userInterests.userId, userId));
      return row ?? null;
    },

    async upsertInterests(userId: string, categories: string[], neighbourhoods: string[], at: Date): Promise<void> {
      await db
        .insert(userInterests)
        .values({ userId, categories, neighbourhoods, updatedAt: at })
        .onConflictDoUpdate({ target: userInterests.userId, set: { categories, neighbourhoods, updatedAt: at } });
    },
  };
}

export type SignalsRepository = ReturnType<typeof createSignalsRepository>;
