import { index, pgTable, real, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { events } from '../events/events.table.ts';

/**
 * Two listed events that may be one, proposed to admins; kept after the decision, which
 * trains the score above which later proposals merge on their own (cross-source only).
 * The pair is stored in id order, so it is proposed once.
 */
export const duplicatePairs = pgTable(
  'duplicate_pairs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    eventA: uuid('event_a')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    eventB: uuid('event_b')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    /** 'cross_source': two sources' records; 'same_source': one source listed it twice under two ids. */
    kind: text('kind', { enum: ['cross_source', 'same_source'] }).notNull(),
    score: real('score').notNull(),
    reason: text('reason').notNull(),
    status: text('status', { enum: ['open', 'merged', 'kept_apart'] }).notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: uuid('decided_by'),
  },
  (t) => [uniqueIndex('duplicate_pairs_pair_idx').on(t.eventA, t.eventB), index('duplicate_pairs_status_idx').on(t.status, t.createdAt), index('duplicate_pairs_b_idx').on(t.eventB)],
);
