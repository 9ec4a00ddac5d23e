import { z } from 'zod';
import {
  type AddAppearanceBody,
  type CreateVendorBody,
  type EventVendorsResponse,
  type FollowResponse,
  type OwnerLookupResponse,
  type UpdateVendorBody,
  type Vendor,
  VENDOR_CATEGORY_IDS,
  VENDOR_CATEGORY_NAMES,
  type VendorDetail,
  type VendorListQuery,
  type VendorListResponse,
  AddAppearanceBody as AddAppearanceSchema,
  CreateVendorBody as CreateVendorSchema,
} from '../../../contract/vendors.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { conflict, forbidden, invalid, notFound } from '../../errors.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { createAuditRepository } from '../admin/audit.repository.ts';
import { createNotification, publishNotifications } from '../notifications/notifications.service.ts';
import type { NotificationResponse } from '../../../contract/notifications.ts';
import type { UserRow } from '../users/users.table.ts';
import { insertDemoVendors } from './vendors.demo.ts';
import { toAppearance, toEventVendor, toProduct, toVendor } from './vendors.mapper.ts';
import { createVendorsRepository, type VendorsRepository } from './vendors.repository.ts';
import type { VendorRow } from './vendors.table.ts';

const OWNER_LOOKUP_LIMIT = 8;
type Actor = Pick<UserRow, 'id' | 'role' | 'email'>;

const isAdmin = (u: Pick<UserRow, 'role'> | null) => u?.role === 'admin';
const isOwnerOrAdmin = (v: VendorRow, u: Pick<UserRow, 'id' | 'role'> | null) => Boolean(u && (isAdmin(u) || (v.ownerId !== null && v.ownerId === u.id)));
/** A unique-index violation (the vendor's name is taken). */
const isUniqueViolation = (err: unknown) => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e.code === '23505' || e.cause?.code === '23505';
};

/** Local vendors: the list and its filters, a vendor's page, owners editing, appearances and followers. */
export function createVendorsService(deps: { db: Db; clock: Clock; bus: EventBus }) {
  const { db, clock, bus } = deps;
  const repo = createVendorsRepository(db);

  /** The owning account for a new vendor, by id or address; it must exist and be enabled. */
  async function resolveOwner(r: VendorsRepository, body: { ownerId?: string | null; ownerEmail?: string }): Promise<string | null> {
    if (body.ownerId) {
      const u = await r.findUser(body.ownerId);
      if (!u || u.disabledAt) throw invalid('ownerId: no such account');
      return u.id;
    }
    if (body.ownerEmail) {
      const u = await r.findUserByEmail(body.ownerEmail);
      if (!u || u.disabledAt) throw invalid('ownerEmail: no account with that email');
      return u.id;
    }
    return null;
  }

  /** A vendor's page: its products, upcoming appearances and the caller's relation to it. */
  async function detail(id: string, user: Pick<UserRow, 'id' | 'role'> | null): Promise<VendorDetail> {
    const v = await repo.find(id);
    if (!v) throw notFound('Vendor not found');
    const canEdit = isOwnerOrAdmin(v, user);
    const [productRows, appearances, followerCount, isFollowing, owner] = await Promise.all([
      repo.products(id),
      repo.upcomingAppearances(id, clock.now()),
      repo.followerCount(id),
      user ? repo.isFollowing(id, user.id) : Promise.resolve(false),
      canEdit && v.ownerId ? repo.findOwner(v.ownerId) : Promise.resolve(undefined),
    ]);
    return {
      ...toVendor(v),
      productList: productRows.map((p) => toProduct(p, v.name)),
      appearances: appearances.map(toAppearance),
      followerCount,
      isFollowing,
      canEdit,
      owner: owner ? { id: owner.id, email: owner.email, name: [owner.firstName, owner.lastName].filter(Boolean).join(' ') } : null,
    };
  }

  return {
    /** The route guard for owner-or-admin routes: 404 when the vendor is gone, 403 unless the caller may edit it. */
    async assertCanEdit(vendorId: string, user: UserRow | null): Promise<void> {
      const v = await repo.find(vendorId);
      if (!v) throw notFound('Vendor not found');
      if (!isOwnerOrAdmin(v, user)) throw forbidden('Only this vendor’s owner or an admin can change it');
    },

    async list(q: VendorListQuery): Promise<VendorListResponse> {
      const search = q.search || undefined;
      const category = q.category && q.category !== 'all' ? q.category : undefined;
      const [rows, counts] = await Promise.all([repo.list({ search, category }), repo.countByCategory(search)]);
      const list: Vendor[] = rows.map(toVendor);
      return {
        vendors: list,
        categories: VENDOR_CATEGORY_IDS.map((id) => ({ id, name: VENDOR_CATEGORY_NAMES[id], count: counts.get(id) ?? 0 })),
        featuredVendors: list.filter((v) => v.featured),
      };
    },

    detail,

    /** An admin adds a vendor; its owner (if named) becomes a vendor. */
    async create(input: CreateVendorBody, actor: Actor): Promise<VendorDetail> {
      const body = CreateVendorSchema.parse(input);
      const now = clock.now();
      const row = await db
        .transaction(async (tx) => {
          const r = createVendorsRepository(tx);
          const ownerId = await resolveOwner(r, body);
          if (await r.findByName(body.name)) throw conflict('A vendor with this name already exists');
          const created = await r.insert({
            name: body.name,
            description: body.description,
            category: body.category,
            location: body.location,
            booth: body.booth,
            hours: body.hours,
            productTags: body.products,
            latitude: body.latitude ?? null,
            longitude: body.longitude ?? null,
            featured: body.featured,
            ownerId,
            createdAt: now,
            updatedAt: now,
          });
          if (ownerId) await r.grantVendorRole(ownerId, now);
          await createAuditRepository(tx).record({
            actor: { id: actor.id, email: actor.email },
            action: 'vendor.create',
            target: created.id,
            result: 'ok',
            detail: { name: created.name, ownerId },
            at: now,
          });
          return created;
        })
        .catch((err: unknown) => {
          if (isUniqueViolation(err)) throw conflict('A vendor with this name already exists');
          throw err;
        });
      return detail(row.id, actor);
    },

    /** The owner or an admin changes the vendor; only admins (re)feature it or change its owner. */
    async update(id: string, body: UpdateVendorBody, actor: UserRow): Promise<VendorDetail> {
      if (body.featured !== undefined && !isAdmin(actor)) throw forbidden('Only admins can feature a vendor');
      const { products, latitude, longitude, ownerId, ownerEmail, ...rest } = body;
      const ownerChange = ownerId !== undefined || ownerEmail !== undefined;
      if (ownerChange && !isAdmin(actor)) throw forbidden('Only admins can change a vendor’s owner');
      const now = clock.now();
      const values: Partial<VendorRow> = { ...rest, updatedAt: now };
      if (products !== undefined) values.productTags = products;
      if (latitude !== undefined) values.latitude = latitude;
      if (longitude !== undefined) values.longitude = longitude;
      await db
        .transaction(async (tx) => {
          const r = createVendorsRepository(tx);
          if (rest.name !== undefined) {
            const same = await r.findByName(rest.name);
            if (same && same.id !== id) throw conflict('A vendor with this name already exists');
          }
          if (ownerChange) values.ownerId = ownerId === null && ownerEmail === undefined ? null : await resolveOwner(r, { ownerId, ownerEmail });
          const row = await r.update(id, values);
          if (!row) throw notFound('Vendor not found');
          if (ownerChange) {
            if (values.ownerId) await r.grantVendorRole(values.ownerId, now);
            await createAuditRepository(tx).record({ actor: { id: actor.id, email: actor.email }, action: 'vendor.owner', target: id, result: 'ok', detail: { ownerId: values.ownerId ?? null }, at: now });
          }
        })
        .catch((err: unknown) => {
          if (isUniqueViolation(err)) throw conflict('A vendor with this name already exists');
          throw err;
        });
      return detail(id, actor);
    },

    /** Links the vendor to an upcoming event and tells its followers. */
    async addAppearance(id: string, input: AddAppearanceBody): Promise<VendorDetail['appearances'][number]> {
      const body = AddAppearanceSchema.parse(input);
      const now = clock.now();
      const { appearance, sent } = await db.transaction(async (tx) => {
        const r = createVendorsRepository(tx);
        const v = await r.find(id);
        if (!v) throw notFound('Vendor not found');
        const e = await r.findEvent(body.eventId);
        if (!e || e.status !== 'approved' || e.goneAt) throw notFound('Event not found');
        if (e.endDate.getTime() <= now.getTime()) throw invalid('eventId: this event has already ended');
        const added = await r.addAppearance({ vendorId: id, eventId: e.id, booth: body.booth || v.booth, createdAt: now });
        if (!added) throw conflict('This vendor is already listed at this event');
        const followers = await r.followerIds(id);
        const sent: { userId: string; n: NotificationResponse }[] = [];
        for (const userId of followers) {
          const n = await createNotification(tx, userId, { type: 'info', title: `${v.name} at ${e.title}`, message: `${v.name}, a vendor you follow, will be at ${e.title}.` }, now);
          sent.push({ userId, n });
        }
        const [upcoming] = await r.upcomingAppearances(id, now, e.id);
        if (!upcoming) throw new Error('appearance vanished');
        return { appearance: toAppearance(upcoming), sent };
      });
      for (const s of sent) publishNotifications(bus, s.userId, [s.n]);
      return appearance;
    },

    /** Follows the vendor, or unfollows it when already following. */
    async toggleFollow(id: string, userId: string): Promise<FollowResponse> {
      const v = await repo.find(id);
      if (!v) throw notFound('Vendor not found');
      const following = await repo.isFollowing(id, userId);
      if (following) await repo.unfollow(id, userId);
      else await repo.follow(id, userId, clock.now());
      return { isFollowing: !following, followerCount: await repo.followerCount(id) };
    },

    async atEvent(eventId: string): Promise<EventVendorsResponse> {
      if (!z.uuid().safeParse(eventId).success) throw notFound('Event not found');
      const rows = await repo.atEvent(eventId);
      return { vendors: rows.map(toEventVendor) };
    },

    async lookupOwners(email: string): Promise<OwnerLookupResponse> {
      const rows = await repo.searchUsers(email, OWNER_LOOKUP_LIMIT);
      return { users: rows.map((u) => ({ id: u.id, email: u.email, name: [u.firstName, u.lastName].filter(Boolean).join(' '), role: u.role })) };
    },

    /** Demo vendors for the demo city (see vendors.demo.ts); the number of rows added. */
    async seedDemo(): Promise<number> {
      return insertDemoVendors(db, clock);
    },
  };
}

export type VendorsService = ReturnType<typeof createVendorsService>;
