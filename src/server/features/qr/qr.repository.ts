import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { events, favorites } from '../events/events.table.ts';
import { pointAwards } from '../gaming/ledger.table.ts';

/** The few lookups QR codes need; no rules here. */
export function createQrRepository(db: Db) {
  return {
    async findEvent(id: string) {
      const [row] = await db
        .select({ id: events.id, title: events.title, status: events.status, startDate: events.startDate, endDate: events.endDate })
        .from(events)
        .where(eq(events.id, id));
      return row;
    },

    /**
     * One more check-in at the event, and one more person unless the member saved it (then they are
     * counted already). Called under the member's lock on the event (EventsRepository.lockFavorite).
     */
    async countCheckIn(eventId: string, userId: string) {
      await db
        .update(events)
        .set({
          checkinCount: sql`${events.checkinCount} + 1`,
          peopleCount: sql`${events.peopleCount} + case when exists (select 1 from ${favorites} where ${favorites.eventId} = ${eventId} and ${favorites.userId} = ${userId}) then 0 else 1 end`,
        })
        .where(eq(events.id, eventId));
    },

    async hasAward(idempotencyKey: string): Promise<boolean> {
      const [row] = await db.select({ id: pointAwards.id }).from(pointAwards).where(eq(pointAwards.idempotencyKey, idempotencyKey));
      return Boolean(row);
    },
  };
}

export type QrRepository = ReturnType<typeof createQrRepository>;
