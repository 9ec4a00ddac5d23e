import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from '../users/users.table.ts';
import { pointAwards } from './ledger.table.ts';

/**
 * Badges a user holds, each at most once. A badge is earned in the transaction of the award
 * that crossed its threshold; award_id names that award so a replayed request can report it.
 */
export const userBadges = pgTable(
  'user_badges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    badgeType: text('badge_type').notNull(),
    awardId: uuid('award_id').references(() => pointAwards.id, { onDelete: 'set null' }),
    earnedAt: timestamp('earned_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('user_badges_user_type_idx').on(t.userId, t.badgeType), index('user_badges_award_idx').on(t.awardId)],
);

export type UserBadgeRow = typeof userBadges.$inferSelect;
