import { bigserial, index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { events } from '../events/events.table.ts';
import { users } from '../users/users.table.ts';

/** An event page opened, or a recommendation clicked: a signal for the next ranking. */
export const eventViews = pgTable(
  'event_views',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    via: text('via', { enum: ['page', 'recommendation'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('event_views_user_time_idx').on(t.userId, t.createdAt), index('event_views_event_idx').on(t.eventId)],
);

/** Events a user asked not to be recommended again. */
export const eventDismissals = pgTable(
  'event_dismissals',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.eventId] })],
);

/** Interests picked in the step after sign-up (cold start); skipped = no row. */
export const userInterests = pgTable('user_interests', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  categories: jsonb('categories').$type<string[]>().notNull().default([]),
  neighbourhoods: jsonb('neighbourhoods').$type<string[]>().notNull().default([]),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/** A user's ranked recommendations as last computed (refreshed on new activity, within a minute). */
export const userRecommendations = pgTable('user_recommendations', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** [{ eventId, score, reason }] best first. */
  items: jsonb('items').$type<{ eventId: string; score: number; reason: string }[]>().notNull(),
  computedAt: timestamp('computed_at', { withTimezone: true }).notNull(),
});
