import { boolean, doublePrecision, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../users/users.table.ts';

/**
 * One AR session that looked around a place: the events it found (checked against the
 * nearby-events answer), and whether the player shared it. Achievements count these rows.
 */
export const arDiscoveries = pgTable(
  'ar_discoveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    placeName: text('place_name').notNull().default(''),
    /** Ids of the events found, each upcoming and within the radius when recorded. */
    eventIds: jsonb('event_ids').$type<string[]>().notNull().default([]),
    eventsFound: integer('events_found').notNull().default(0),
    pointsEarned: integer('points_earned').notNull().default(0),
    shared: boolean('shared').notNull().default(false),
    sharedAt: timestamp('shared_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('ar_discoveries_user_time_idx').on(t.userId, t.createdAt)],
);

export type ArDiscoveryRow = typeof arDiscoveries.$inferSelect;
