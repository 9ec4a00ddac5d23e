import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    profileImageUrl: text('profile_image_url'),
    role: text('role', { enum: ['user', 'vendor', 'admin'] }).notNull().default('user'),
    /** Set by an admin (PATCH /api/admin/users/:id): the account cannot sign in and its sessions are gone. */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /** Cached sum of the points ledger; 0 until the user earns anything. */
    points: integer('points').notNull().default(0),
    oidcSubject: text('oidc_subject'),
    /** Secret part of the private calendar subscription URL; reset by the user. */
    calendarSecret: text('calendar_secret'),
    /** Shown as 'Anonymous' on the leaderboard when set (PATCH /api/user/profile). */
    leaderboardOptOut: boolean('leaderboard_opt_out').notNull().default(false),
    /** Kept out of the Discover home's Community Buzz when set (PATCH /api/user/profile). */
    buzzOptOut: boolean('buzz_opt_out').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    uniqueIndex('users_oidc_subject_idx').on(t.oidcSubject),
    uniqueIndex('users_calendar_secret_idx').on(t.calendarSecret),
    index('users_points_idx').on(t.points),
  ],
);

export type UserRow = typeof users.$inferSelect;
