import { and, asc, desc, eq, gte, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../users/users.table.ts';
import { vendors } from '../vendors/vendors.table.ts';
import { orderItems, orders, products, type OrderRow } from './shop.table.ts';

/** A substring pattern for ILIKE with the user's `%`, `_` and `\` taken literally. */
const contains = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const productColumns = {
  id: products.id,
  vendorId: products.vendorId,
  vendorName: vendors.name,
  name: products.name,
  description: products.description,
  category: products.category,
  priceCents: products.priceCents,
  rating: products.rating,
  stock: products.stock,
  isDemo: products.isDemo,
};
export type ProductWithVendor = { id: string; vendorId: string; vendorName: string; name: string; description: string; category: string; priceCents: number; rating: number | null; stock: number; isDemo: boolean };

const itemColumns = {
  id: orderItems.id,
  orderId: orderItems.orderId,
  productId: orderItems.productId,
  vendorId: orderItems.vendorId,
  vendorName: vendors.name,
  booth: vendors.booth,
  name: orderItems.name,
  priceCents: orderItems.priceCents,
  quantity: orderItems.quantity,
  fulfilledAt: orderItems.fulfilledAt,
};
export type ItemWithVendor = { id: string; orderId: string; productId: string | null; vendorId: string; vendorName: string; booth: string; name: string; priceCents: number; quantity: number; fulfilledAt: Date | null };

/** Queries of the marketplace: products, orders and their lines. No rules here. */
export function createShopRepository(db: Db) {
  const searchWhere = (search: string | undefined): SQL | undefined => {
    if (!search) return undefined;
    const p = contains(search);
    return or(ilike(products.name, p), ilike(products.description, p), ilike(products.category, p), ilike(vendors.name, p));
  };

  return {
    async listProducts(f: { category?: string; search?: string }): Promise<ProductWithVendor[]> {
      return db
        .select(productColumns)
        .from(products)
        .innerJoin(vendors, eq(vendors.id, products.vendorId))
        .where(and(f.category ? eq(products.category, f.category) : undefined, searchWhere(f.search)))
        .orderBy(asc(products.name), asc(products.id));
    },

    /** Categories with their product counts among the products matching the search. */
    async categoryCounts(search: string | undefined): Promise<{ category: string; count: number }[]> {
      return db
        .select({ category: products.category, count: sql<number>`count(*)`.mapWith(Number) })
        .from(products)
        .innerJoin(vendors, eq(vendors.id, products.vendorId))
        .where(searchWhere(search))
        .groupBy(products.category)
        .orderBy(asc(products.category));
    },

    async findProduct(id: string): Promise<ProductWithVendor | undefined> {
      const [row] = await db.select(productColumns).from(products).innerJoin(vendors, eq(vendors.id, products.vendorId)).where(eq(products.id, id));
      return row;
    },

    /** The product's vendor and that vendor's owner, for the edit check. */
    async findProductOwner(id: string): Promise<{ vendorId: string; ownerId: string | null } | undefined> {
      const [row] = await db.select({ vendorId: vendors.id, ownerId: vendors.ownerId }).from(products).innerJoin(vendors, eq(vendors.id, products.vendorId)).where(eq(products.id, id));
      return row;
    },

    async findVendor(id: string): Promise<{ id: string; ownerId: string | null } | undefined> {
      const [row] = await db.select({ id: vendors.id, ownerId: vendors.ownerId }).from(vendors).where(eq(vendors.id, id));
      return row;
    },

    /** Vendors of an owner (null: every vendor), by name. */
    async listVendors(ownerId: string | null): Promise<{ id: string; name: string }[]> {
      return db
        .select({ id: vendors.id, name: vendors.name })
        .from(vendors)
        .where(ownerId === null ? undefined : eq(vendors.ownerId, ownerId))
        .orderBy(asc(vendors.name));
    },

    async listProductsOfVendors(vendorIds: readonly string[]): Promise<ProductWithVendor[]> {
      if (vendorIds.length === 0) return [];
      return db
        .select(productColumns)
        .from(products)
        .innerJoin(vendors, eq(vendors.id, products.vendorId))
        .where(inArray(products.vendorId, [...vendorIds]))
        .orderBy(asc(vendors.name), asc(products.name));
    },

    async vendorIdsOwnedBy(userId: string): Promise<string[]> {
      const rows = await db.select({ id: vendors.id }).from(vendors).where(eq(vendors.ownerId, userId));
      return rows.map((r) => r.id);
    },

    async insertProduct(values: typeof products.$inferInsert): Promise<string> {
      const [row] = await db.insert(products).values(values).returning({ id: products.id });
      if (!row) throw new Error('product insert returned nothing');
      return row.id;
    },

    async updateProduct(id: string, values: Partial<typeof products.$inferInsert>): Promise<void> {
      await db.update(products).set(values).where(eq(products.id, id));
    },

    /** Takes `quantity` units if that many are left; the row (name, price, vendor) when it did. */
    async reserveStock(productId: string, quantity: number, at: Date) {
      const [row] = await db
        .update(products)
        .set({ stock: sql`${products.stock} - ${quantity}`, updatedAt: at })
        .where(and(eq(products.id, productId), gte(products.stock, quantity)))
        .returning({ id: products.id, vendorId: products.vendorId, name: products.name, priceCents: products.priceCents });
      return row;
    },

    async returnStock(productId: string, quantity: number, at: Date): Promise<void> {
      await db
        .update(products)
        .set({ stock: sql`${products.stock} + ${quantity}`, updatedAt: at })
        .where(eq(products.id, productId));
    },

    /** Inserts the order unless its pickup code is taken (then undefined: draw another code). */
    async insertOrder(values: typeof orders.$inferInsert): Promise<OrderRow | undefined> {
      const [row] = await db.insert(orders).values(values).onConflictDoNothing().returning();
      return row;
    },

    async insertItems(values: (typeof orderItems.$inferInsert)[]): Promise<void> {
      if (values.length > 0) await db.insert(orderItems).values(values);
    },

    async findOrder(id: string): Promise<OrderRow | undefined> {
      const [row] = await db.select().from(orders).where(eq(orders.id, id));
      return row;
    },

    async findOrderByCode(code: string): Promise<OrderRow | undefined> {
      const [row] = await db.select().from(orders).where(eq(orders.pickupCode, code));
      return row;
    },

    async itemsOf(orderIds: readonly string[]): Promise<ItemWithVendor[]> {
      if (orderIds.length === 0) return [];
      return db
        .select(itemColumns)
        .from(orderItems)
        .innerJoin(vendors, eq(vendors.id, orderItems.vendorId))
        .where(inArray(orderItems.orderId, [...orderIds]))
        .orderBy(asc(vendors.name), asc(orderItems.name), asc(orderItems.id));
    },

    /** The vendors with lines in an order, with their owners. */
    async vendorOwnersOf(orderId: string): Promise<{ vendorId: string; ownerId: string | null }[]> {
      return db
        .selectDistinct({ vendorId: vendors.id, ownerId: vendors.ownerId })
        .from(orderItems)
        .innerJoin(vendors, eq(vendors.id, orderItems.vendorId))
        .where(eq(orderItems.orderId, orderId));
    },

    async listOrdersOfUser(userId: string, limit: number): Promise<OrderRow[]> {
      return db.select().from(orders).where(eq(orders.userId, userId)).orderBy(desc(orders.createdAt), desc(orders.id)).limit(limit);
    },

    /** Orders with lines of these vendors (null: every vendor), newest first, with the buyer's name. */
    async listOrdersForVendors(vendorIds: readonly string[] | null, openOnly: boolean, limit: number) {
      const lines = vendorIds === null ? undefined : inArray(orderItems.vendorId, [...vendorIds]);
      const open = openOnly ? and(eq(orders.status, 'reserved'), isNull(orderItems.fulfilledAt)) : undefined;
      const ids = db.selectDistinct({ id: orderItems.orderId }).from(orderItems).innerJoin(orders, eq(orders.id, orderItems.orderId)).where(and(lines, open));
      return db
        .select({ order: orders, firstName: users.firstName, lastName: users.lastName, email: users.email })
        .from(orders)
        .innerJoin(users, eq(users.id, orders.userId))
        .where(inArray(orders.id, ids))
        .orderBy(openOnly ? asc(orders.createdAt) : desc(orders.createdAt), asc(orders.id))
        .limit(limit);
    },

    async findBuyer(userId: string) {
      const [row] = await db.select({ firstName: users.firstName, lastName: users.lastName, email: users.email }).from(users).where(eq(users.id, userId));
      return row;
    },

    /** Cancels the order if it is still reserved; undefined when it was not (already cancelled or fulfilled). */
    async cancelIfReserved(orderId: string, by: string, at: Date): Promise<OrderRow | undefined> {
      const [row] = await db
        .update(orders)
        .set({ status: 'cancelled', cancelledAt: at, cancelledBy: by, updatedAt: at })
        .where(and(eq(orders.id, orderId), eq(orders.status, 'reserved')))
        .returning();
      return row;
    },

    /** Marks the open lines of these vendors (null: all) handed over; the lines it marked. */
    async fulfilLines(orderId: string, vendorIds: readonly string[] | null, at: Date): Promise<number> {
      const rows = await db
        .update(orderItems)
        .set({ fulfilledAt: at })
        .where(and(eq(orderItems.orderId, orderId), isNull(orderItems.fulfilledAt), vendorIds === null ? undefined : inArray(orderItems.vendorId, [...vendorIds])))
        .returning({ id: orderItems.id });
      return rows.length;
    },

    /** The order becomes fulfilled once no line is left open; the row when it just did. */
    async fulfilOrderIfComplete(orderId: string, at: Date): Promise<OrderRow | undefined> {
      const [row] = await db
        .update(orders)
        .set({ status: 'fulfilled', fulfilledAt: at, updatedAt: at })
        .where(
          and(
            eq(orders.id, orderId),
            eq(orders.status, 'reserved'),
            sql`not exists (select 1 from ${orderItems} where ${orderItems.orderId} = ${orderId} and ${orderItems.fulfilledAt} is null)`,
          ),
        )
        .returning();
      return row;
    },

    /** Locks the order row for the rest of the transaction (fulfil and cancel take turns). */
    async lockOrder(orderId: string): Promise<OrderRow | undefined> {
      const [row] = await db.select().from(orders).where(eq(orders.id, orderId)).for('update');
      return row;
    },
  };
}

export type ShopRepository = ReturnType<typeof createShopRepository>;
