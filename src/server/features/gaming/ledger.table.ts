import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from '../users/users.table.ts';

/**
 * The append-only points ledger. Every award names its activity, reason and target, and carries
 * an idempotency key, unique, so a retried or concurrent request never pays twice.
 * A user's points are the sum of their rows (cached in users.points in the same transaction).
 */
export const pointAwards = pgTable(
  'point_awards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    activityType: text('activity_type').notNull(),
    reason: text('reason').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    eventId: uuid('event_id'),
    points: integer('points').notNull(),
    description: text('description').notNull().default(''),
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('point_awards_key_idx').on(t.idempotencyKey),
    index('point_awards_user_time_idx').on(t.userId, t.createdAt),
    index('point_awards_user_type_time_idx').on(t.userId, t.activityType, t.createdAt),
    // The weekly leaderboard sums awards since Monday.
    index('point_awards_time_idx').on(t.createdAt),
    // Who checked in at an event: the people an event's attendees count (events.people_count).
    index('point_awards_checkins_idx').on(t.eventId, t.userId).where(sql`${t.activityType} = 'check_in'`),
  ],
);
