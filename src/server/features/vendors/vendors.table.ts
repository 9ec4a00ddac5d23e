import { sql } from 'drizzle-orm';
import { boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, real, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { events } from '../events/events.table.ts';
import { users } from '../users/users.table.ts';

export const VENDOR_CATEGORIES = ['food_beverage', 'arts_crafts', 'outdoor_gear', 'local_services'] as const;

/**
 * A local vendor (spec section 3). Its id is text prefixed `vendor_` because products name their
 * vendor that way on the wire (spec: "vendor (id prefixed vendor_)").
 */
export const vendors = pgTable(
  'vendors',
  {
    id: text('id')
      .primaryKey()
      .default(sql`'vendor_' || replace(gen_random_uuid()::text, '-', '')`),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    category: text('category', { enum: VENDOR_CATEGORIES }).notNull(),
    /** Where the vendor usually is: a neighbourhood or street address, as people say it. */
    location: text('location').notNull().default(''),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    /** The usual booth or stall ("Stall 14"); an appearance may name another. */
    booth: text('booth').notNull().default(''),
    hours: text('hours').notNull().default(''),
    /** Average of ratings, 0..5; null until rated. */
    rating: real('rating'),
    ratingCount: integer('rating_count').notNull().default(0),
    /** What it sells, as tags (spec: "products (list of tags)"). */
    productTags: jsonb('product_tags').$type<string[]>().notNull().default([]),
    featured: boolean('featured').notNull().default(false),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
    isDemo: boolean('is_demo').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('vendors_category_idx').on(t.category), index('vendors_owner_idx').on(t.ownerId), uniqueIndex('vendors_name_lower_idx').on(sql`lower(${t.name})`)],
);

/** A vendor at an event: the event page's "Who's here", the vendor page's upcoming appearances. */
export const vendorAppearances = pgTable(
  'vendor_appearances',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    vendorId: text('vendor_id')
      .notNull()
      .references(() => vendors.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    booth: text('booth').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('vendor_appearances_vendor_event_idx').on(t.vendorId, t.eventId), index('vendor_appearances_event_idx').on(t.eventId)],
);

/** Users who follow a vendor and are told when it adds an appearance. */
export const vendorFollows = pgTable(
  'vendor_follows',
  {
    vendorId: text('vendor_id')
      .notNull()
      .references(() => vendors.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.vendorId, t.userId] }), index('vendor_follows_user_idx').on(t.userId)],
);

export type VendorRow = typeof vendors.$inferSelect;
export type VendorAppearanceRow = typeof vendorAppearances.$inferSelect;
