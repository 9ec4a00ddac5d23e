import { boolean, index, integer, jsonb, pgTable, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { FlyerExtraction } from '../../../contract/scan.ts';
import { events } from '../events/events.table.ts';
import { users } from '../users/users.table.ts';

/**
 * One row per flyer scan that came to an event: what was read, and the event it created or
 * matched. History, challenges and corrections are answered from these rows.
 */
export const flyerScans = pgTable(
  'flyer_scans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    /** True when the scan created the event (a pending contribution); false when it matched a listed one. */
    isNew: boolean('is_new').notNull(),
    /** True when the flyer named a venue the city knew nothing of (the "New in Town" challenge). */
    newVenue: boolean('new_venue').notNull().default(false),
    extraction: jsonb('extraction').$type<FlyerExtraction>().notNull(),
    text: text('text').notNull(),
    confidence: real('confidence').notNull(),
    ocrMs: integer('ocr_ms').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('flyer_scans_user_time_idx').on(t.userId, t.createdAt), index('flyer_scans_event_idx').on(t.eventId)],
);

export type FlyerScanRow = typeof flyerScans.$inferSelect;
