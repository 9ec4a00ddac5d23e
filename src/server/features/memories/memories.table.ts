import { doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../users/users.table.ts';

export const PRIVACY_LEVELS = ['public', 'community', 'private'] as const;

/** A forged memory (spec section 3 "Geosymbol"): what the author wrote and what the generator made of it. */
export const geosymbols = pgTable(
  'geosymbols',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The place as the author wrote it. */
    locationText: text('location_text').notNull(),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    /** The neighbourhood or known venue it was geocoded to, if any. */
    placeName: text('place_name'),
    memory: text('memory').notNull(),
    symbolicElements: text('symbolic_elements').notNull().default(''),
    userContext: text('user_context').notNull().default(''),
    outputType: text('output_type').notNull(),
    privacyLevel: text('privacy_level', { enum: PRIVACY_LEVELS }).notNull().default('community'),
    /** The generated geosymbol (type, difficulty, symbol, story_trigger, emotional_resonance, reward, AR_overlay, linked_codex ...). */
    generated: jsonb('generated').$type<Record<string, unknown>>().notNull(),
    /** Which engine made it: 'built-in' or the model's name. */
    generator: text('generator').notNull(),
    communityVotes: integer('community_votes').notNull().default(0),
    /** The quest node made from it by 'Add to Active Hunt'. */
    nodeId: uuid('node_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('geosymbols_privacy_time_idx').on(t.privacyLevel, t.createdAt), index('geosymbols_user_idx').on(t.userId)],
);

export const geosymbolVotes = pgTable(
  'geosymbol_votes',
  {
    geosymbolId: uuid('geosymbol_id')
      .notNull()
      .references(() => geosymbols.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.geosymbolId, t.userId] })],
);

export type GeosymbolRow = typeof geosymbols.$inferSelect;
