import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { VendorDetail, VendorListResponse } from '../../../contract/vendors.ts';
import { buildTestApp, TEST_ORIGIN, TEST_QR_KEY, type TestApp } from '../../test/build-test-app.ts';
import { buildEvent, queryRows } from '../../test/factories.ts';
import { newUser } from '../gaming/test-users.ts';
import { signQrPayload } from '../qr/qr.codec.ts';
import { products } from '../shop/shop.table.ts';
import { DEMO_VENDOR_NAMES } from './vendors.demo.ts';
import { vendorAppearances, vendors } from './vendors.table.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof newUser>>;
const NOW = new Date('2026-11-20T20:00:00Z'); // noon in Portland
const inHours = (h: number) => new Date(NOW.getTime() + h * 3600_000);
const QR_KEY = TEST_QR_KEY;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await newUser(t.app); // the first account is the admin
});
afterAll(async () => t.close());
beforeEach(async () => {
  t.clock.set(NOW);
  await t.database.db.execute(sql`truncate vendors, events, point_awards, user_badges, notifications cascade`);
  await t.database.db.execute(sql`update users set points = 0`);
});

const headers = (cookie?: string) => ({ origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) });
const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: headers(cookie) });
const post = (url: string, payload: unknown, cookie?: string) => t.app.inject({ method: 'POST', url, payload: payload as object, headers: headers(cookie) });
const patch = (url: string, payload: unknown, cookie?: string) => t.app.inject({ method: 'PATCH', url, payload: payload as object, headers: headers(cookie) });
const rawPost = (method: 'POST' | 'PATCH', url: string, body: string, cookie?: string) =>
  t.app.inject({ method, url, payload: body, headers: { ...headers(cookie), 'content-type': 'application/json' } });

type VendorInsert = typeof vendors.$inferInsert;
async function vendor(o: Partial<VendorInsert> & { name: string }) {
  const [row] = await t.database.db
    .insert(vendors)
    .values({ category: 'food_beverage', description: '', location: 'Hawthorne, Portland', booth: 'Stall 1', hours: 'Sat 9–2', ...o })
    .returning();
  return row!;
}

async function sample() {
  const bakery = await vendor({ name: 'Rosebud Bakehouse', featured: true, productTags: ['Sourdough', 'Galettes', 'Cookies', 'Rye', 'Buns'], description: 'Bread before dawn', rating: 4.8, ratingCount: 12 });
  const coffee = await vendor({ name: 'Cascade Cold Brew', productTags: ['Cold brew'] });
  const mugs = await vendor({ name: 'Kiln & Kettle Ceramics', category: 'arts_crafts', featured: true, productTags: ['Mugs', 'Bowls'], location: 'Alberta, Portland' });
  const bikes = await vendor({ name: 'Riverbend Bike Works', category: 'outdoor_gear', productTags: ['Tune-ups', 'Panniers'] });
  return { bakery, coffee, mugs, bikes };
}

describe('GET /api/vendors', () => {
  it('lists every vendor with the spec fields, per-category counts and the featured ones', async () => {
    const { bakery } = await sample();
    const res = await get('/api/vendors');
    expect(res.statusCode).toBe(200);
    const body = res.json() as VendorListResponse;
    expect(body.vendors.map((v) => v.name)).toEqual(['Kiln & Kettle Ceramics', 'Rosebud Bakehouse', 'Cascade Cold Brew', 'Riverbend Bike Works']);
    expect(body.vendors.find((v) => v.id === bakery.id)).toMatchObject({
      id: expect.stringMatching(/^vendor_/),
      name: 'Rosebud Bakehouse',
      description: 'Bread before dawn',
      category: 'food_beverage',
      location: 'Hawthorne, Portland',
      booth: 'Stall 1',
      hours: 'Sat 9–2',
      rating: 4.8,
      products: ['Sourdough', 'Galettes', 'Cookies', 'Rye', 'Buns'],
      featured: true,
    });
    expect(body.categories).toEqual([
      { id: 'food_beverage', name: 'Food & Beverage', count: 2 },
      { id: 'arts_crafts', name: 'Arts & Crafts', count: 1 },
      { id: 'outdoor_gear', name: 'Outdoor Gear', count: 1 },
      { id: 'local_services', name: 'Local Services', count: 0 },
    ]);
    expect(body.featuredVendors.map((v) => v.name)).toEqual(['Kiln & Kettle Ceramics', 'Rosebud Bakehouse']);
  });

  it('filters by category and by search (name, description, location or product tag) on the server', async () => {
    await sample();
    const byCategory = (await get('/api/vendors?category=food_beverage')).json() as VendorListResponse;
    expect(byCategory.vendors.map((v) => v.name)).toEqual(['Rosebud Bakehouse', 'Cascade Cold Brew']);
    expect(byCategory.featuredVendors.map((v) => v.name)).toEqual(['Rosebud Bakehouse']);
    // Counts stay per category, so the filter still shows the others.
    expect(byCategory.categories.find((c) => c.id === 'arts_crafts')?.count).toBe(1);

    const byTag = (await get('/api/vendors?search=pannier')).json() as VendorListResponse;
    expect(byTag.vendors.map((v) => v.name)).toEqual(['Riverbend Bike Works']);
    expect(byTag.categories.map((c) => c.count)).toEqual([0, 0, 1, 0]);
    expect(((await get('/api/vendors?search=alberta')).json() as VendorListResponse).vendors.map((v) => v.name)).toEqual(['Kiln & Kettle Ceramics']);
    expect(((await get('/api/vendors?search=COLD')).json() as VendorListResponse).vendors.map((v) => v.name)).toEqual(['Cascade Cold Brew']);
    // A LIKE wildcard is taken literally.
    expect(((await get('/api/vendors?search=%25')).json() as VendorListResponse).vendors).toEqual([]);
    const none = (await get('/api/vendors?search=bread&category=arts_crafts')).json() as VendorListResponse;
    expect(none.vendors).toEqual([]);
    expect(none.featuredVendors).toEqual([]);
    expect(((await get('/api/vendors?category=all')).json() as VendorListResponse).vendors).toHaveLength(4);
  });

  it('refuses an unknown category with a 400 naming the field', async () => {
    const res = await get('/api/vendors?category=jewellery');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('category');
  });
});

describe('GET /api/vendors/:id', () => {
  it('gives the vendor with its products and only its upcoming appearances', async () => {
    const { bakery, coffee } = await sample();
    await t.database.db.insert(products).values([
      { vendorId: bakery.id, name: 'Country sourdough', category: 'Bakery', priceCents: 850, stock: 4, rating: 4.9, description: 'Two-day ferment' },
      { vendorId: bakery.id, name: 'Cardamom knot', category: 'Bakery', priceCents: 425, stock: 0 },
      { vendorId: coffee.id, name: 'Cold brew growler', category: 'Drinks', priceCents: 1600, stock: 3 },
    ]);
    const past = await buildEvent(t.database.db, { title: 'Last week market', startDate: inHours(-170), endDate: inHours(-165) });
    const soon = await buildEvent(t.database.db, { title: 'Hawthorne Saturday Farmers Market', startDate: inHours(20), endDate: inHours(25), venueName: 'Orchard Street Lot' });
    const later = await buildEvent(t.database.db, { title: 'Night Market at Foxglove Plaza', startDate: inHours(100), endDate: inHours(105) });
    await t.database.db.insert(vendorAppearances).values([
      { vendorId: bakery.id, eventId: past.id, booth: 'A1' },
      { vendorId: bakery.id, eventId: later.id, booth: 'N4' },
      { vendorId: bakery.id, eventId: soon.id, booth: 'Stall 14' },
    ]);

    const res = await get(`/api/vendors/${bakery.id}`);
    expect(res.statusCode).toBe(200);
    const v = res.json() as VendorDetail;
    expect(v).toMatchObject({ id: bakery.id, name: 'Rosebud Bakehouse', followerCount: 0, isFollowing: false, canEdit: false });
    expect(v.productList).toEqual([
      { id: expect.any(String), name: 'Cardamom knot', price: 4.25, rating: null, description: '', category: 'Bakery', vendor: bakery.id, vendorName: 'Rosebud Bakehouse', inStock: false, stock: 0 },
      { id: expect.any(String), name: 'Country sourdough', price: 8.5, rating: 4.9, description: 'Two-day ferment', category: 'Bakery', vendor: bakery.id, vendorName: 'Rosebud Bakehouse', inStock: true, stock: 4 },
    ]);
    expect(v.appearances.map((a) => [a.eventTitle, a.booth])).toEqual([
      ['Hawthorne Saturday Farmers Market', 'Stall 14'],
      ['Night Market at Foxglove Plaza', 'N4'],
    ]);
    expect(v.appearances[0]).toMatchObject({ eventId: soon.id, venue: 'Orchard Street Lot', startDate: inHours(20).toISOString() });

    expect((await get(`/api/vendors/${bakery.id}`, admin.cookie)).json().canEdit).toBe(true);
    expect((await get('/api/vendors/vendor_nope')).statusCode).toBe(404);
  });
});

describe('POST /api/vendors', () => {
  const fields = { name: 'Willow Creek Honey', category: 'food_beverage', description: 'Raw honey', location: 'St. Johns', booth: 'Stall 22', hours: 'Sat 9–2', products: ['Honey', 'Candles'] };

  it('lets an admin create a vendor whose owner (by id or by email) becomes a vendor', async () => {
    const owner = await newUser(t.app);
    const res = await post('/api/vendors', { ...fields, ownerId: owner.user.id, featured: true }, admin.cookie);
    expect(res.statusCode).toBe(201);
    const v = res.json() as VendorDetail;
    expect(v).toMatchObject({ ...fields, id: expect.stringMatching(/^vendor_/), featured: true, canEdit: true, isDemo: false });
    expect((await get('/api/auth/user', owner.cookie)).json().role).toBe('vendor');
    expect((await get(`/api/vendors/${v.id}`, owner.cookie)).json().canEdit).toBe(true);

    const second = await newUser(t.app);
    const byEmail = await post('/api/vendors', { ...fields, name: 'Thistle & Thread', category: 'arts_crafts', ownerEmail: second.user.email.toUpperCase() }, admin.cookie);
    expect(byEmail.statusCode).toBe(201);
    expect((await get('/api/auth/user', second.cookie)).json().role).toBe('vendor');

    // An admin who owns a vendor stays an admin.
    expect((await post('/api/vendors', { ...fields, name: 'Admin Stall', ownerId: admin.user.id }, admin.cookie)).statusCode).toBe(201);
    expect((await get('/api/auth/user', admin.cookie)).json().role).toBe('admin');

    const audit = await queryRows<{ action: string }>(t.database.db, sql`select action from audit_log where target = ${v.id}`);
    expect(audit).toEqual([{ action: 'vendor.create' }]);
  });

  it('refuses a taken name (409), an unknown owner and a bad category (400)', async () => {
    expect((await post('/api/vendors', fields, admin.cookie)).statusCode).toBe(201);
    expect((await post('/api/vendors', { ...fields, name: 'willow creek HONEY' }, admin.cookie)).statusCode).toBe(409);
    const unknown = await post('/api/vendors', { ...fields, name: 'X', ownerEmail: 'nobody@example.org' }, admin.cookie);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain('ownerEmail');
    const bad = await post('/api/vendors', { ...fields, name: 'Y', category: 'jewellery' }, admin.cookie);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('category');
  });

  it('answers 401 signed out and 403 to a member or a vendor, before validation', async () => {
    const member = await newUser(t.app);
    for (const body of ['{"not json', '{}']) {
      expect((await rawPost('POST', '/api/vendors', body)).statusCode).toBe(401);
      expect((await rawPost('POST', '/api/vendors', body, member.cookie)).statusCode).toBe(403);
    }
  });

  it('finds owner accounts by email for admins only', async () => {
    const someone = await newUser(t.app, { firstName: 'Ada', lastName: 'Lovelace' });
    const res = await get(`/api/vendors/owners?email=${encodeURIComponent(someone.user.email.slice(0, 12))}`, admin.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json().users).toContainEqual({ id: someone.user.id, email: someone.user.email, name: 'Ada Lovelace', role: 'user' });
    expect((await get('/api/vendors/owners?email=a', someone.cookie)).statusCode).toBe(403);
    expect((await get('/api/vendors/owners?email=a')).statusCode).toBe(401);
  });
});

describe('PATCH /api/vendors/:id', () => {
  it('lets the owner edit their own vendor but not another, and keeps featuring for admins', async () => {
    const owner = await newUser(t.app);
    const mine = (await post('/api/vendors', { name: 'Mine', category: 'local_services', ownerId: owner.user.id }, admin.cookie)).json() as VendorDetail;
    const other = await vendor({ name: 'Not Mine' });

    const ok = await patch(`/api/vendors/${mine.id}`, { hours: 'Mon–Fri 9–5', products: ['Hemming', 'Zips'], booth: 'Stall 18' }, owner.cookie);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ hours: 'Mon–Fri 9–5', products: ['Hemming', 'Zips'], booth: 'Stall 18', name: 'Mine' });

    expect((await patch(`/api/vendors/${other.id}`, { hours: 'never' }, owner.cookie)).statusCode).toBe(403);
    expect((await patch(`/api/vendors/${mine.id}`, { featured: true }, owner.cookie)).statusCode).toBe(403);
    expect((await patch(`/api/vendors/${other.id}`, { featured: true, name: 'Not Mine Either' }, admin.cookie)).json()).toMatchObject({ featured: true, name: 'Not Mine Either' });
    expect((await patch(`/api/vendors/${mine.id}`, { name: 'not mine either' }, admin.cookie)).statusCode).toBe(409);
    const bad = await patch(`/api/vendors/${mine.id}`, { category: 'jewellery' }, owner.cookie);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('category');
  });

  it('lets an admin give an ownerless vendor an owner by email, or clear it; never the owner', async () => {
    const v = await vendor({ name: 'Ownerless Stall' });
    const owner = await newUser(t.app, { firstName: 'Olive', lastName: 'Owner' });
    const res = await patch(`/api/vendors/${v.id}`, { ownerEmail: owner.user.email }, admin.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json().owner).toEqual({ id: owner.user.id, email: owner.user.email, name: 'Olive Owner' });
    expect((await get('/api/auth/user', owner.cookie)).json().role).toBe('vendor');
    const mine = (await get(`/api/vendors/${v.id}`, owner.cookie)).json() as VendorDetail;
    expect(mine).toMatchObject({ canEdit: true, owner: { id: owner.user.id } });
    // Others do not see who owns it.
    const member = await newUser(t.app);
    expect((await get(`/api/vendors/${v.id}`, member.cookie)).json().owner).toBeNull();
    // The owner cannot hand it on.
    expect((await patch(`/api/vendors/${v.id}`, { ownerEmail: member.user.email }, owner.cookie)).statusCode).toBe(403);
    expect((await patch(`/api/vendors/${v.id}`, { ownerId: null }, owner.cookie)).statusCode).toBe(403);
    expect((await patch(`/api/vendors/${v.id}`, { ownerEmail: 'nobody@example.org' }, admin.cookie)).statusCode).toBe(400);
    expect((await patch(`/api/vendors/${v.id}`, { ownerId: null }, admin.cookie)).json().owner).toBeNull();
    expect((await patch(`/api/vendors/${v.id}`, { hours: 'x' }, owner.cookie)).statusCode).toBe(403);
  });

  it('answers 401, then 404 for a missing vendor, then 403 to a non-owner, all before validation', async () => {
    const member = await newUser(t.app);
    const v = await vendor({ name: 'Guarded' });
    for (const body of ['{"not json', '{"category":"nope"}']) {
      expect((await rawPost('PATCH', `/api/vendors/${v.id}`, body)).statusCode).toBe(401);
      expect((await rawPost('PATCH', `/api/vendors/${v.id}`, body, member.cookie)).statusCode).toBe(403);
      expect((await rawPost('PATCH', '/api/vendors/vendor_missing', body, member.cookie)).statusCode).toBe(404);
      expect((await rawPost('POST', `/api/vendors/${v.id}/appearances`, body)).statusCode).toBe(401);
      expect((await rawPost('POST', `/api/vendors/${v.id}/appearances`, body, member.cookie)).statusCode).toBe(403);
    }
  });
});

describe('appearances and followers', () => {
  it('toggles a follow and tells followers when the vendor adds an appearance', async () => {
    const owner = await newUser(t.app);
    const fan = await newUser(t.app);
    const bystander = await newUser(t.app);
    const v = (await post('/api/vendors', { name: 'Foxglove Dumpling Cart', category: 'food_beverage', booth: 'Cart 7', ownerId: owner.user.id }, admin.cookie)).json() as VendorDetail;

    expect((await post(`/api/vendors/${v.id}/follow`, {}, fan.cookie)).json()).toEqual({ isFollowing: true, followerCount: 1 });
    expect((await post(`/api/vendors/${v.id}/follow`, {}, bystander.cookie)).json()).toEqual({ isFollowing: true, followerCount: 2 });
    expect((await post(`/api/vendors/${v.id}/follow`, {}, bystander.cookie)).json()).toEqual({ isFollowing: false, followerCount: 1 });
    expect((await get(`/api/vendors/${v.id}`, fan.cookie)).json()).toMatchObject({ isFollowing: true, followerCount: 1 });
    expect((await post(`/api/vendors/${v.id}/follow`, {})).statusCode).toBe(401);
    expect((await post('/api/vendors/vendor_missing/follow', {}, fan.cookie)).statusCode).toBe(404);

    const market = await buildEvent(t.database.db, { title: 'Night Market at Foxglove Plaza', startDate: inHours(30), endDate: inHours(34) });
    const added = await post(`/api/vendors/${v.id}/appearances`, { eventId: market.id }, owner.cookie);
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ eventId: market.id, eventTitle: 'Night Market at Foxglove Plaza', booth: 'Cart 7' });

    const fanNotes = (await get('/api/notifications', fan.cookie)).json().items as { title: string; message: string; type: string }[];
    expect(fanNotes).toContainEqual(expect.objectContaining({ type: 'info', title: 'Foxglove Dumpling Cart at Night Market at Foxglove Plaza' }));
    const otherNotes = (await get('/api/notifications', bystander.cookie)).json().items as { title: string }[];
    expect(otherNotes.some((n) => n.title.startsWith('Foxglove'))).toBe(false);

    // The event page's "Who's here".
    const here = await get(`/api/events/${market.id}/vendors`);
    expect(here.statusCode).toBe(200);
    expect(here.json()).toEqual({ vendors: [{ id: v.id, name: 'Foxglove Dumpling Cart', category: 'food_beverage', booth: 'Cart 7', products: [] }] });
    expect((await get('/api/events/not-a-uuid/vendors')).statusCode).toBe(404);

    // Twice at one event is a conflict; an ended or unknown event is refused.
    expect((await post(`/api/vendors/${v.id}/appearances`, { eventId: market.id, booth: 'B2' }, owner.cookie)).statusCode).toBe(409);
    const ended = await buildEvent(t.database.db, { startDate: inHours(-5), endDate: inHours(-2) });
    expect((await post(`/api/vendors/${v.id}/appearances`, { eventId: ended.id }, admin.cookie)).statusCode).toBe(400);
    expect((await post(`/api/vendors/${v.id}/appearances`, { eventId: '00000000-0000-4000-8000-000000000000' }, owner.cookie)).statusCode).toBe(404);
    const bad = await post(`/api/vendors/${v.id}/appearances`, { eventId: 'x' }, owner.cookie);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('eventId');
  });
});

describe('a vendor with many appearances', () => {
  it('adds one after a year of Saturdays, and its page lists every upcoming one', async () => {
    const owner = await newUser(t.app);
    const v = (await post('/api/vendors', { name: 'Saturday Market Tamales', category: 'food_beverage', ownerId: owner.user.id }, admin.cookie)).json() as VendorDetail;
    const saturdays = [];
    for (let i = 0; i < 60; i++) saturdays.push(await buildEvent(t.database.db, { title: `Saturday Market ${i + 1}`, startDate: inHours(24 + i * 168), endDate: inHours(30 + i * 168) }));
    for (const e of saturdays.slice(0, 59)) await t.database.db.insert(vendorAppearances).values({ vendorId: v.id, eventId: e.id, booth: 'A1', createdAt: NOW });
    // The latest of all, added last: it is answered, not lost behind the first fifty.
    const added = await post(`/api/vendors/${v.id}/appearances`, { eventId: saturdays[59]!.id }, owner.cookie);
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({ eventTitle: 'Saturday Market 60' });
    const page = (await get(`/api/vendors/${v.id}`)).json() as VendorDetail;
    expect(page.appearances.map((a) => a.eventTitle)).toEqual(saturdays.map((e) => e.title));
  });
});

describe("a vendor's QR code", () => {
  it('is printed by an admin and pays the vendor visit once per user', async () => {
    const v = await vendor({ name: 'Basalt Trail Outfitters', category: 'outdoor_gear' });
    const issued = await get(`/api/admin/qr/vendor/${v.id}?format=json`, admin.cookie);
    expect(issued.statusCode).toBe(200);
    expect(issued.json()).toMatchObject({ kind: 'vendor', targetId: v.id, name: 'Basalt Trail Outfitters', points: 10 });
    const svg = await get(`/api/admin/qr/vendor/${v.id}?format=svg`, admin.cookie);
    expect(svg.body).toContain('Vendor visit · 10 points');

    const visitor = await newUser(t.app);
    const first = await post('/api/gaming/qr-scan', { qrData: issued.json().qrData }, visitor.cookie);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ type: 'vendor', targetId: v.id, points: 10, totalPoints: 10 });
    expect((await post('/api/gaming/qr-scan', { qrData: issued.json().qrData }, visitor.cookie)).statusCode).toBe(409);
    const ledger = await queryRows<{ activity_type: string; points: number }>(t.database.db, sql`select activity_type, points from point_awards where user_id = ${visitor.user.id}`);
    expect(ledger).toEqual([{ activity_type: 'vendor_visit', points: 10 }]);

    // A signed code for a vendor that does not exist is not honoured.
    const forged = signQrPayload(QR_KEY, { k: 'vendor', id: 'vendor_gone', iat: 1 });
    expect((await post('/api/gaming/qr-scan', { qrData: forged }, visitor.cookie)).statusCode).toBe(404);
  });
});

describe('demo vendors', () => {
  it('seeds the invented vendors once, linked to upcoming demo market days', async () => {
    const market = await buildEvent(t.database.db, { title: 'Hawthorne Saturday Farmers Market', isDemo: true, startDate: inHours(40), endDate: inHours(45) });
    const fair = await buildEvent(t.database.db, { title: 'Weekend Makers Art Fair', isDemo: true, startDate: inHours(60), endDate: inHours(70) });
    await buildEvent(t.database.db, { title: 'Real Farmers Market', isDemo: false, startDate: inHours(40), endDate: inHours(45) });
    expect(await t.app.vendors.seedDemo()).toBe(DEMO_VENDOR_NAMES.length);
    expect(await t.app.vendors.seedDemo()).toBe(0);

    const list = (await get('/api/vendors')).json() as VendorListResponse;
    expect(list.vendors).toHaveLength(DEMO_VENDOR_NAMES.length);
    expect(list.vendors.every((v) => v.isDemo)).toBe(true);
    expect(list.featuredVendors.length).toBeGreaterThan(2);
    expect(list.categories.every((c) => c.count >= 2)).toBe(true);

    const linked = await queryRows<{ event_id: string }>(t.database.db, sql`select distinct event_id from vendor_appearances`);
    expect(linked.map((r) => r.event_id).sort()).toEqual([market.id, fair.id].sort());
    expect(((await get(`/api/events/${market.id}/vendors`)).json().vendors as unknown[]).length).toBeGreaterThan(3);

    // A week later those markets are over: the next start links the vendors to the coming ones.
    t.clock.set(inHours(24 * 7));
    const next = await buildEvent(t.database.db, { title: 'Hawthorne Saturday Farmers Market', isDemo: true, startDate: inHours(24 * 7 + 40), endDate: inHours(24 * 7 + 45) });
    expect(await t.app.vendors.seedDemo()).toBe(0);
    expect(((await get(`/api/events/${next.id}/vendors`)).json().vendors as unknown[]).length).toBeGreaterThan(3);
    const bakery = (await get('/api/vendors?search=rosebud')).json().vendors[0] as { id: string };
    expect(((await get(`/api/vendors/${bakery.id}`)).json() as VendorDetail).appearances.map((a) => a.eventId)).toEqual([next.id]);
  });
});
