import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, real, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from '../users/users.table.ts';
import { vendors } from '../vendors/vendors.table.ts';

/** A product a vendor sells in the marketplace. `inStock` on the wire is `stock > 0`. */
export const products = pgTable(
  'products',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    vendorId: text('vendor_id')
      .notNull()
      .references(() => vendors.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    category: text('category').notNull(),
    /** Price in cents, so totals add up exactly. */
    priceCents: integer('price_cents').notNull(),
    rating: real('rating'),
    /** Units left to reserve; never below zero (a check constraint backs the transaction). */
    stock: integer('stock').notNull().default(0),
    isDemo: boolean('is_demo').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('products_vendor_idx').on(t.vendorId), index('products_category_idx').on(t.category), check('products_stock_nonnegative', sql`${t.stock} >= 0`), check('products_price_nonnegative', sql`${t.priceCents} >= 0`)],
);

export const ORDER_STATUSES = ['reserved', 'fulfilled', 'cancelled'] as const;

/** An order to pay and pick up at the vendors' booths; stock is held while it is `reserved`. */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ORDER_STATUSES }).notNull().default('reserved'),
    totalCents: integer('total_cents').notNull(),
    /** Short code the buyer shows at the booth (also as a QR code); unique among all orders. */
    pickupCode: text('pickup_code').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    fulfilledAt: timestamp('fulfilled_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelledBy: uuid('cancelled_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('orders_user_time_idx').on(t.userId, t.createdAt), uniqueIndex('orders_pickup_code_idx').on(t.pickupCode)],
);

/** One line of an order, with the name and price as they were at checkout. */
export const orderItems = pgTable(
  'order_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    vendorId: text('vendor_id')
      .notNull()
      .references(() => vendors.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    priceCents: integer('price_cents').notNull(),
    quantity: integer('quantity').notNull(),
    /** When this vendor handed the item over; the order is fulfilled when every line is. */
    fulfilledAt: timestamp('fulfilled_at', { withTimezone: true }),
  },
  (t) => [index('order_items_order_idx').on(t.orderId), index('order_items_vendor_idx').on(t.vendorId), check('order_items_quantity_positive', sql`${t.quantity} > 0`)],
);

export type ProductRow = typeof products.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;
