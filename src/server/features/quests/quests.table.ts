import { sql } from 'drizzle-orm';
import { boolean, customType, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from '../users/users.table.ts';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

export const NODE_DIFFICULTIES = ['easy', 'medium', 'hard', 'expert'] as const;

/** A quest node (spec section 3) at a real place: completed within `radius_m` of it, by photo or by its QR code. */
export const questNodes = pgTable(
  'quest_nodes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    difficulty: text('difficulty', { enum: NODE_DIFFICULTIES }).notNull().default('easy'),
    category: text('category').notNull(),
    points: integer('points').notNull(),
    clue: text('clue').notNull().default(''),
    address: text('address').notNull().default(''),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    radiusM: integer('radius_m').notNull().default(75),
    requiresPhoto: boolean('requires_photo').notNull().default(false),
    /** Requirement tags shown on the node (spec: "requirements (list of tags)"). */
    requirements: jsonb('requirements').$type<string[]>().notNull().default([]),
    active: boolean('active').notNull().default(true),
    /** Set when the node was forged from a memory ('Add to Active Hunt'). */
    geosymbolId: uuid('geosymbol_id'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    isDemo: boolean('is_demo').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('quest_nodes_active_idx').on(t.active)],
);

/** A hunt: a set of nodes, in order or in any order, with a reward when all are done. */
export const hunts = pgTable('hunts', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  /** What finishing it gives, in words ("200 points and the Trailblazer title"). */
  reward: text('reward').notNull().default(''),
  /** Points paid once when every node of the hunt is completed. */
  rewardPoints: integer('reward_points').notNull().default(0),
  ordered: boolean('ordered').notNull().default(false),
  active: boolean('active').notNull().default(true),
  isDemo: boolean('is_demo').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const huntNodes = pgTable(
  'hunt_nodes',
  {
    huntId: uuid('hunt_id')
      .notNull()
      .references(() => hunts.id, { onDelete: 'cascade' }),
    nodeId: uuid('node_id')
      .notNull()
      .references(() => questNodes.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.huntId, t.nodeId] }), index('hunt_nodes_node_idx').on(t.nodeId)],
);

export const COMPLETION_STATUSES = ['completed', 'pending_review', 'rejected'] as const;

/**
 * A player's evidence for a node, one row per player and node: `completed` pays once;
 * `pending_review` waits for an admin to accept the photo; `rejected` may be submitted again.
 */
export const nodeCompletions = pgTable(
  'node_completions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    nodeId: uuid('node_id')
      .notNull()
      .references(() => questNodes.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: COMPLETION_STATUSES }).notNull(),
    method: text('method', { enum: ['location', 'photo', 'qr'] }).notNull(),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    accuracyM: doublePrecision('accuracy_m'),
    distanceM: doublePrecision('distance_m'),
    photo: bytea('photo'),
    photoType: text('photo_type'),
    pointsEarned: integer('points_earned').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    reviewedBy: uuid('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('node_completions_node_user_idx').on(t.nodeId, t.userId),
    index('node_completions_user_time_idx').on(t.userId, t.completedAt),
    index('node_completions_pending_idx').on(t.createdAt).where(sql`${t.status} = 'pending_review'`),
  ],
);

export type QuestNodeRow = typeof questNodes.$inferSelect;
export type HuntRow = typeof hunts.$inferSelect;
export type NodeCompletionRow = typeof nodeCompletions.$inferSelect;
