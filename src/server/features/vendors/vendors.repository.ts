import { and, asc, count, desc, eq, gt, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { events } from '../events/events.table.ts';
import { products } from '../shop/shop.table.ts';
import { users } from '../users/users.table.ts';
import { vendorAppearances, vendorFollows, vendors, type VendorRow } from './vendors.table.ts';

/** Escapes LIKE wildcards so a search is taken literally. */
const likeTerm = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Queries for vendors, their appearances and followers; no rules here. */
export function createVendorsRepository(db: Db) {
  /** Name, description, location or a product tag contains the search. */
  const matches = (search: string | undefined): SQL | undefined => {
    if (!search) return undefined;
    const term = likeTerm(search);
    return or(
      ilike(vendors.name, term),
      ilike(vendors.description, term),
      ilike(vendors.location, term),
      sql`exists (select 1 from jsonb_array_elements_text(${vendors.productTags}) as tag where tag ilike ${term})`,
    );
  };

  return {
    async list(filter: { search?: string; category?: string }): Promise<VendorRow[]> {
      const where = and(matches(filter.search), filter.category ? eq(vendors.category, filter.category as VendorRow['category']) : undefined);
      return db.select().from(vendors).where(where).orderBy(desc(vendors.featured), asc(vendors.name));
    },

    /** How many vendors match the search in each category (the category filter's counts). */
    async countByCategory(search: string | undefined): Promise<Map<string, number>> {
      const rows = await db.select({ category: vendors.category, n: count() }).from(vendors).where(matches(search)).groupBy(vendors.category);
      return new Map(rows.map((r) => [r.category, r.n]));
    },

    async find(id: string): Promise<VendorRow | undefined> {
      const [row] = await db.select().from(vendors).where(eq(vendors.id, id));
      return row;
    },

    async findByName(name: string): Promise<VendorRow | undefined> {
      const [row] = await db
        .select()
        .from(vendors)
        .where(sql`lower(${vendors.name}) = lower(${name})`);
      return row;
    },

    async insert(values: typeof vendors.$inferInsert): Promise<VendorRow> {
      const [row] = await db.insert(vendors).values(values).returning();
      if (!row) throw new Error('vendor insert returned no row');
      return row;
    },

    async update(id: string, values: Partial<typeof vendors.$inferInsert>): Promise<VendorRow | undefined> {
      const [row] = await db.update(vendors).set(values).where(eq(vendors.id, id)).returning();
      return row;
    },

    async products(vendorId: string) {
      return db.select().from(products).where(eq(products.vendorId, vendorId)).orderBy(asc(products.name));
    },

    /**
     * The vendor's appearances at events that have not ended, soonest first: all of them (a weekly
     * market's stall for a year is some fifty; the page folds the list, it is never cut here), or the
     * one at `eventId`.
     */
    async upcomingAppearances(vendorId: string, now: Date, eventId?: string) {
      return db
        .select({
          id: vendorAppearances.id,
          booth: vendorAppearances.booth,
          eventId: events.id,
          title: events.title,
          startDate: events.startDate,
          endDate: events.endDate,
          timeZone: events.timeZone,
          allDay: events.allDay,
          venueName: events.venueName,
        })
        .from(vendorAppearances)
        .innerJoin(events, eq(events.id, vendorAppearances.eventId))
        .where(and(eq(vendorAppearances.vendorId, vendorId), eq(events.status, 'approved'), isNull(events.goneAt), gt(events.endDate, now), eventId ? eq(events.id, eventId) : undefined))
        .orderBy(asc(events.startDate));
    },

    /** The vendors at one event, by name: "Who's here". */
    async atEvent(eventId: string) {
      return db
        .select({ id: vendors.id, name: vendors.name, category: vendors.category, productTags: vendors.productTags, booth: vendorAppearances.booth, usualBooth: vendors.booth })
        .from(vendorAppearances)
        .innerJoin(vendors, eq(vendors.id, vendorAppearances.vendorId))
        .where(eq(vendorAppearances.eventId, eventId))
        .orderBy(asc(vendors.name));
    },

    async findEvent(id: string) {
      const [row] = await db
        .select({ id: events.id, title: events.title, status: events.status, endDate: events.endDate, goneAt: events.goneAt })
        .from(events)
        .where(eq(events.id, id));
      return row;
    },

    /** Adds the appearance; false when the vendor was already linked to the event. */
    async addAppearance(values: typeof vendorAppearances.$inferInsert): Promise<boolean> {
      const rows = await db.insert(vendorAppearances).values(values).onConflictDoNothing().returning({ id: vendorAppearances.id });
      return rows.length > 0;
    },

    async isFollowing(vendorId: string, userId: string): Promise<boolean> {
      const [row] = await db
        .select({ v: vendorFollows.vendorId })
        .from(vendorFollows)
        .where(and(eq(vendorFollows.vendorId, vendorId), eq(vendorFollows.userId, userId)));
      return Boolean(row);
    },

    async follow(vendorId: string, userId: string, at: Date): Promise<void> {
      await db.insert(vendorFollows).values({ vendorId, userId, createdAt: at }).onConflictDoNothing();
    },

    async unfollow(vendorId: string, userId: string): Promise<void> {
      await db.delete(vendorFollows).where(and(eq(vendorFollows.vendorId, vendorId), eq(vendorFollows.userId, userId)));
    },

    async followerCount(vendorId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(vendorFollows).where(eq(vendorFollows.vendorId, vendorId));
      return row?.n ?? 0;
    },

    async followerIds(vendorId: string): Promise<string[]> {
      const rows = await db.select({ userId: vendorFollows.userId }).from(vendorFollows).where(eq(vendorFollows.vendorId, vendorId));
      return rows.map((r) => r.userId);
    },

    async findUser(id: string) {
      const [row] = await db.select({ id: users.id, role: users.role, disabledAt: users.disabledAt }).from(users).where(eq(users.id, id));
      return row;
    },

    async findOwner(id: string) {
      const [row] = await db.select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, id));
      return row;
    },

    async findUserByEmail(email: string) {
      const [row] = await db
        .select({ id: users.id, role: users.role, disabledAt: users.disabledAt })
        .from(users)
        .where(sql`lower(${users.email}) = lower(${email})`);
      return row;
    },

    /** Accounts whose address contains the text, for the admin's owner picker. */
    async searchUsers(email: string, limit: number) {
      return db
        .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, role: users.role })
        .from(users)
        .where(and(ilike(users.email, likeTerm(email)), isNull(users.disabledAt)))
        .orderBy(asc(users.email))
        .limit(limit);
    },

    /** Makes a plain user a vendor; admins keep their role. */
    async grantVendorRole(userId: string, at: Date): Promise<void> {
      await db
        .update(users)
        .set({ role: 'vendor', updatedAt: at })
        .where(and(eq(users.id, userId), eq(users.role, 'user')));
    },
  };
}

export type VendorsRepository = ReturnType<typeof createVendorsRepository>;
