import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { events } from '../events/events.table.ts';
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

    /** One more person checked in at the event. */
    async countCheckIn(eventId: string) {
      await db
        .update(events)
        .set({ checkinCount: sql`${events.checkinCount} + 1` })
        .where(eq(events.id, eventId));
    },

    async hasAward(idempotencyKey: string): Promise<boolean> {
      const [row] = await db.select({ id: pointAwards.id }).from(pointAwards).where(eq(pointAwards.idempotencyKey, idempotencyKey));
      return Boolean(row);
    },
  };
}

export type QrRepository = ReturnType<typeof createQrRepository>;
