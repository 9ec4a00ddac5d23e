import { boolean, date, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../users/users.table.ts';

export const STORY_CATEGORIES = ['legend', 'history', 'mystery', 'community'] as const;

/** A community story (spec section 3), written by a user or by the story generator (`aiGenerated`). */
export const stories = pgTable(
  'stories',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    category: text('category', { enum: STORY_CATEGORIES }).notNull().default('community'),
    /** The byline as the writer gave it (spec: author is a field of the form). */
    author: text('author').notNull(),
    /** The account that submitted it; null for generated stories. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    aiGenerated: boolean('ai_generated').notNull().default(false),
    /** Which engine wrote a generated story: 'built-in' or the model's name. */
    generator: text('generator'),
    featured: boolean('featured').notNull().default(false),
    /** Hidden after three reports until an admin reviews it. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    likes: integer('likes').notNull().default(0),
    views: integer('views').notNull().default(0),
    isDemo: boolean('is_demo').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('stories_category_time_idx').on(t.category, t.createdAt), index('stories_time_idx').on(t.createdAt)],
);

export const storyLikes = pgTable(
  'story_likes',
  {
    storyId: uuid('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.storyId, t.userId] })],
);

/** A view counts once per user per local day. */
export const storyViews = pgTable(
  'story_views',
  {
    storyId: uuid('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.storyId, t.userId, t.day] })],
);

export const storyReports = pgTable(
  'story_reports',
  {
    storyId: uuid('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.storyId, t.userId] })],
);

export type StoryRow = typeof stories.$inferSelect;
