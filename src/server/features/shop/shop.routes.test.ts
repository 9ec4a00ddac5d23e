import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Order, Product, ShopResponse, VendorOrder, VendorOrderListResponse } from '../../../contract/shop.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../../test/build-test-app.ts';
import { queryRows } from '../../test/factories.ts';
import { newUser } from '../gaming/test-users.ts';
import { users } from '../users/users.table.ts';
import { vendors } from '../vendors/vendors.table.ts';
import { products } from './shop.table.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof newUser>>;
let owner: Awaited<ReturnType<typeof newUser>>;
let otherVendor: Awaited<ReturnType<typeof newUser>>;
let member: Awaited<ReturnType<typeof newUser>>;
let buyer: Awaited<ReturnType<typeof newUser>>;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await newUser(t.app); // the first account is the admin
  owner = await newUser(t.app, { firstName: 'Olive', lastName: 'Owner' });
  otherVendor = await newUser(t.app);
  member = await newUser(t.app);
  buyer = await newUser(t.app, { firstName: 'Bea', lastName: 'Buyer' });
  for (const u of [owner, otherVendor]) await t.database.db.update(users).set({ role: 'vendor' }).where(eq(users.id, u.user.id));
});
afterAll(async () => {
  await t.close();
});

let soapsId: string;
let breadId: string;
beforeEach(async () => {
  await t.database.db.execute(sql`truncate vendors, products, orders, order_items, notifications cascade`);
  const [soaps] = await t.database.db.insert(vendors).values({ name: 'Lavender Lane Soaps', category: 'arts_crafts', ownerId: owner.user.id, booth: 'Stall 4' }).returning();
  const [bread] = await t.database.db.insert(vendors).values({ name: 'Hearth Bread', category: 'food_beverage', ownerId: otherVendor.user.id, booth: 'Stall 9' }).returning();
  soapsId = soaps!.id;
  breadId = bread!.id;
});

const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, cookie?: string, payload?: object) =>
  t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) } });

async function addProduct(o: Partial<typeof products.$inferInsert> = {}) {
  const [row] = await t.database.db
    .insert(products)
    .values({ vendorId: soapsId, name: 'Lavender Soap', category: 'Bath', priceCents: 650, stock: 5, ...o })
    .returning();
  return row!;
}
const stockOf = async (id: string) => (await t.database.db.select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!.stock;
const checkout = (cookie: string, items: { productId: string; quantity: number }[]) => inject('POST', '/api/shop/orders', cookie, { items });

describe('GET /api/shop', () => {
  it('lists products with vendor, price in dollars and inStock, plus categories with counts and payment methods', async () => {
    await addProduct({ name: 'Lavender Soap', rating: 4.5 });
    await addProduct({ name: 'Oat Soap', stock: 0 });
    await addProduct({ vendorId: breadId, name: 'Rye Loaf', category: 'Bakery', priceCents: 900, stock: 3 });
    const res = await inject('GET', '/api/shop');
    expect(res.statusCode).toBe(200);
    const body = res.json() as ShopResponse;
    expect(body.products.map((p) => p.name)).toEqual(['Lavender Soap', 'Oat Soap', 'Rye Loaf']);
    const soap = body.products[0]!;
    expect(soap).toMatchObject({ price: 6.5, rating: 4.5, category: 'Bath', vendor: soapsId, vendorName: 'Lavender Lane Soaps', inStock: true, stock: 5 });
    expect(soap.vendor.startsWith('vendor_')).toBe(true);
    expect(body.products[1]!.inStock).toBe(false);
    expect(body.categories).toEqual([
      { id: 'Bakery', name: 'Bakery', count: 1 },
      { id: 'Bath', name: 'Bath', count: 2 },
    ]);
    const available = body.paymentMethods.filter((m) => m.available).map((m) => m.id);
    expect(available).toEqual(['cash', 'card']);
    expect(body.paymentMethods.filter((m) => !m.available).map((m) => m.name)).toEqual(['Wallet', 'CashApp', 'Venmo']);
  });

  it('filters by exact category and by a case-insensitive search over name, description and vendor', async () => {
    await addProduct({ name: 'Lavender Soap' });
    await addProduct({ name: 'Oat Soap', description: 'Gentle, with colloidal oats' });
    await addProduct({ vendorId: breadId, name: 'Rye Loaf', category: 'Bakery' });
    const names = async (qs: string) => ((await inject('GET', `/api/shop?${qs}`)).json() as ShopResponse).products.map((p) => p.name);
    expect(await names('category=Bakery')).toEqual(['Rye Loaf']);
    expect(await names('category=bakery')).toEqual([]);
    expect(await names('category=all')).toHaveLength(3);
    expect(await names('search=SOAP')).toEqual(['Lavender Soap', 'Oat Soap']);
    expect(await names('search=colloidal')).toEqual(['Oat Soap']);
    expect(await names('search=hearth')).toEqual(['Rye Loaf']);
    expect(await names('search=soap&category=Bakery')).toEqual([]);
    // % and _ are taken literally.
    expect(await names('search=%25')).toEqual([]);
    const counted = (await inject('GET', '/api/shop?search=soap')).json() as ShopResponse;
    expect(counted.categories).toEqual([{ id: 'Bath', name: 'Bath', count: 2 }]);
  });
});

describe('products: who may create and edit', () => {
  const body = () => ({ vendorId: soapsId, name: 'Rose Soap', price: 7.25, description: 'Rose geranium', category: 'Bath', stock: 4 });

  it('answers 401 signed out and 403 to a member before reading the body', async () => {
    expect((await inject('POST', '/api/shop/products', undefined, {})).statusCode).toBe(401);
    expect((await inject('POST', '/api/shop/products', member.cookie, {})).statusCode).toBe(403);
    const p = await addProduct();
    expect((await inject('PATCH', `/api/shop/products/${p.id}`, undefined, {})).statusCode).toBe(401);
    expect((await inject('PATCH', `/api/shop/products/${p.id}`, member.cookie, {})).statusCode).toBe(403);
    // Another vendor's owner: 403 from the guard, before the (invalid) body.
    expect((await inject('PATCH', `/api/shop/products/${p.id}`, otherVendor.cookie, { price: -1 })).statusCode).toBe(403);
  });

  it("lets the vendor's owner create a product, refuses another vendor's id, and validates the body", async () => {
    const res = await inject('POST', '/api/shop/products', owner.cookie, body());
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ name: 'Rose Soap', price: 7.25, vendor: soapsId, vendorName: 'Lavender Lane Soaps', inStock: true, stock: 4, rating: null });
    expect((await inject('POST', '/api/shop/products', otherVendor.cookie, body())).statusCode).toBe(403);
    expect((await inject('POST', '/api/shop/products', owner.cookie, { ...body(), vendorId: 'vendor_nope' })).statusCode).toBe(404);
    const bad = await inject('POST', '/api/shop/products', owner.cookie, { ...body(), price: 1.234, stock: -2 });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('price');
    expect(bad.body).toContain('stock');
    // An admin may add to any vendor.
    expect((await inject('POST', '/api/shop/products', admin.cookie, { ...body(), vendorId: breadId, stock: 0 })).json()).toMatchObject({ vendor: breadId, inStock: false });
  });

  it("lists the caller's vendors and their products for the stock editor (admins: all)", async () => {
    await addProduct({ name: 'Lavender Soap' });
    await addProduct({ vendorId: breadId, name: 'Rye Loaf', category: 'Bakery' });
    expect((await inject('GET', '/api/shop/vendor-products', member.cookie)).statusCode).toBe(403);
    const mine = (await inject('GET', '/api/shop/vendor-products', owner.cookie)).json();
    expect(mine.vendors).toEqual([{ id: soapsId, name: 'Lavender Lane Soaps' }]);
    expect(mine.products.map((p: Product) => p.name)).toEqual(['Lavender Soap']);
    const all = (await inject('GET', '/api/shop/vendor-products', admin.cookie)).json();
    expect(all.products).toHaveLength(2);
  });

  it('lets the owner or an admin patch a product; 404 for an unknown one', async () => {
    const p = await addProduct();
    const res = await inject('PATCH', `/api/shop/products/${p.id}`, owner.cookie, { price: 8, stock: 0 });
    expect(res.statusCode).toBe(200);
    expect(res.json() as Product).toMatchObject({ price: 8, stock: 0, inStock: false, name: 'Lavender Soap' });
    expect((await inject('PATCH', `/api/shop/products/${p.id}`, admin.cookie, { name: 'French Lavender Soap' })).json()).toMatchObject({ name: 'French Lavender Soap' });
    expect((await inject('PATCH', `/api/shop/products/${p.id}`, owner.cookie, {})).statusCode).toBe(400);
    expect((await inject('PATCH', '/api/shop/products/00000000-0000-4000-8000-000000000000', owner.cookie, { stock: 1 })).statusCode).toBe(404);
  });
});

describe('orders', () => {
  it('reserves stock and answers 201 with status, total, items and a pickup code', async () => {
    const soap = await addProduct({ stock: 5 });
    const bread = await addProduct({ vendorId: breadId, name: 'Rye Loaf', category: 'Bakery', priceCents: 900, stock: 2 });
    expect((await checkout('', [{ productId: soap.id, quantity: 1 }])).statusCode).toBe(401);
    const res = await checkout(buyer.cookie, [
      { productId: soap.id, quantity: 2 },
      { productId: bread.id, quantity: 1 },
      { productId: soap.id, quantity: 1 },
    ]);
    expect(res.statusCode).toBe(201);
    const order = res.json() as Order;
    expect(order.status).toBe('reserved');
    expect(order.total).toBe(28.5);
    expect(order.pickupCode).toMatch(/^[A-HJ-NP-Z2-9]{6}$/);
    expect(order.items.map((i) => [i.name, i.quantity, i.price, i.vendorName, i.booth])).toEqual([
      ['Rye Loaf', 1, 9, 'Hearth Bread', 'Stall 9'],
      ['Lavender Soap', 3, 6.5, 'Lavender Lane Soaps', 'Stall 4'],
    ]);
    expect(await stockOf(soap.id)).toBe(2);
    expect(await stockOf(bread.id)).toBe(1);
    // Both vendors' owners hear of it.
    const notes = await queryRows<{ user_id: string; message: string }>(t.database.db, sql`select user_id, message from notifications order by user_id`);
    expect(notes.map((n) => n.user_id).sort()).toEqual([owner.user.id, otherVendor.user.id].sort());
    // In dollars, as every price is shown.
    expect(notes.find((n) => n.user_id === otherVendor.user.id)?.message).toMatch(/^An order of \$\d+\.\d\d is reserved for pickup at your booth\.$/);
  });

  it('answers 409 naming the product when stock is short, and reserves nothing of the order', async () => {
    const soap = await addProduct({ stock: 5 });
    const bread = await addProduct({ vendorId: breadId, name: 'Rye Loaf', category: 'Bakery', stock: 0 });
    const res = await checkout(buyer.cookie, [
      { productId: soap.id, quantity: 1 },
      { productId: bread.id, quantity: 1 },
    ]);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'conflict', message: 'Only 0 left of Rye Loaf' });
    expect(await stockOf(soap.id)).toBe(5);
    const short = await checkout(buyer.cookie, [{ productId: soap.id, quantity: 6 }]);
    expect(short.json().message).toBe('Only 5 left of Lavender Soap');
    expect((await queryRows(t.database.db, sql`select id from orders`)).length).toBe(0);
    expect((await checkout(buyer.cookie, [{ productId: soap.id, quantity: 0 }])).statusCode).toBe(400);
    expect((await checkout(buyer.cookie, [])).statusCode).toBe(400);
  });

  it('sells the last item once when two checkouts race for it', async () => {
    const soap = await addProduct({ stock: 1 });
    const [a, b] = await Promise.all([checkout(buyer.cookie, [{ productId: soap.id, quantity: 1 }]), checkout(member.cookie, [{ productId: soap.id, quantity: 1 }])]);
    expect([a!.statusCode, b!.statusCode].sort()).toEqual([201, 409]);
    expect([a!, b!].find((r) => r.statusCode === 409)!.json().message).toBe('Only 0 left of Lavender Soap');
    expect(await stockOf(soap.id)).toBe(0);
    expect((await queryRows(t.database.db, sql`select id from orders`)).length).toBe(1);
  });

  it('lists my orders only, and shows one (with its pickup code) to its buyer and admins only', async () => {
    const soap = await addProduct();
    const mine = (await checkout(buyer.cookie, [{ productId: soap.id, quantity: 1 }])).json() as Order;
    await checkout(member.cookie, [{ productId: soap.id, quantity: 1 }]);
    const list = (await inject('GET', '/api/shop/orders', buyer.cookie)).json() as { orders: Order[] };
    expect(list.orders.map((o) => o.id)).toEqual([mine.id]);
    expect((await inject('GET', '/api/shop/orders')).statusCode).toBe(401);
    for (const who of [buyer, admin]) expect((await inject('GET', `/api/shop/orders/${mine.id}`, who.cookie)).statusCode).toBe(200);
    expect((await inject('GET', `/api/shop/orders/${mine.id}`, member.cookie)).statusCode).toBe(403);
    // Its vendor reads it through the vendor list, where the pickup code is not shown.
    expect((await inject('GET', `/api/shop/orders/${mine.id}`, owner.cookie)).statusCode).toBe(403);
    expect((await inject('GET', `/api/shop/orders/${mine.id}`, otherVendor.cookie)).statusCode).toBe(403);
    expect((await inject('GET', '/api/shop/orders/00000000-0000-4000-8000-000000000000', buyer.cookie)).statusCode).toBe(404);
    expect((await inject('GET', '/api/shop/orders/not-a-uuid', buyer.cookie)).statusCode).toBe(400);
  });

  it('cancelling returns the stock once; strangers get 403; a second cancel is 409', async () => {
    const soap = await addProduct({ stock: 3 });
    const order = (await checkout(buyer.cookie, [{ productId: soap.id, quantity: 2 }])).json() as Order;
    expect(await stockOf(soap.id)).toBe(1);
    expect((await inject('POST', `/api/shop/orders/${order.id}/cancel`, member.cookie)).statusCode).toBe(403);
    expect((await inject('POST', `/api/shop/orders/${order.id}/cancel`, otherVendor.cookie)).statusCode).toBe(403);
    const [first, second] = await Promise.all([inject('POST', `/api/shop/orders/${order.id}/cancel`, buyer.cookie), inject('POST', `/api/shop/orders/${order.id}/cancel`, buyer.cookie)]);
    expect([first!.statusCode, second!.statusCode].sort()).toEqual([200, 409]);
    expect([first!, second!].find((r) => r.statusCode === 200)!.json()).toMatchObject({ status: 'cancelled' });
    expect(await stockOf(soap.id)).toBe(3);
    expect((await inject('POST', `/api/shop/orders/${order.id}/cancel`, buyer.cookie)).statusCode).toBe(409);
    expect(await stockOf(soap.id)).toBe(3);
  });

  it("lets the vendor cancel an order holding its lines, and tells the buyer", async () => {
    const soap = await addProduct({ stock: 3 });
    const order = (await checkout(buyer.cookie, [{ productId: soap.id, quantity: 1 }])).json() as Order;
    const res = await inject('POST', `/api/shop/orders/${order.id}/cancel`, owner.cookie);
    expect(res.statusCode).toBe(200);
    expect(await stockOf(soap.id)).toBe(3);
    const notes = await queryRows<{ title: string }>(t.database.db, sql`select title from notifications where user_id = ${buyer.user.id}`);
    expect(notes.map((n) => n.title)).toEqual(['Order cancelled']);
  });
});

describe('vendor orders and fulfilment by pickup code', () => {
  it('needs the vendor role: 401 signed out, 403 for a member, before the body', async () => {
    expect((await inject('GET', '/api/shop/vendor-orders')).statusCode).toBe(401);
    expect((await inject('GET', '/api/shop/vendor-orders', member.cookie)).statusCode).toBe(403);
    expect((await inject('POST', '/api/shop/vendor-orders/fulfil', undefined, {})).statusCode).toBe(401);
    expect((await inject('POST', '/api/shop/vendor-orders/fulfil', member.cookie, {})).statusCode).toBe(403);
    expect((await inject('POST', '/api/shop/vendor-orders/fulfil', owner.cookie, {})).statusCode).toBe(400);
  });

  it('each vendor sees and hands over its own lines; the order is fulfilled when every line is, then cannot be cancelled', async () => {
    const soap = await addProduct({ stock: 3 });
    const bread = await addProduct({ vendorId: breadId, name: 'Rye Loaf', category: 'Bakery', priceCents: 900, stock: 3 });
    const order = (await checkout(buyer.cookie, [
      { productId: soap.id, quantity: 1 },
      { productId: bread.id, quantity: 2 },
    ])).json() as Order;

    const soapView = (await inject('GET', '/api/shop/vendor-orders', owner.cookie)).json() as VendorOrderListResponse;
    expect(soapView.orders).toHaveLength(1);
    const seen = soapView.orders[0]!;
    expect(seen).toMatchObject({ id: order.id, status: 'reserved', buyerName: 'Bea B.', total: 6.5, handedOver: false });
    expect(seen.items.map((i) => i.name)).toEqual(['Lavender Soap']);
    expect(JSON.stringify(seen)).not.toContain(order.pickupCode);
    expect(((await inject('GET', '/api/shop/vendor-orders', admin.cookie)).json() as VendorOrderListResponse).orders[0]!.items).toHaveLength(2);

    // Typed with a dash and in lower case: the same code.
    const typed = `${order.pickupCode.slice(0, 3).toLowerCase()}-${order.pickupCode.slice(3)}`;
    const first = await inject('POST', '/api/shop/vendor-orders/fulfil', owner.cookie, { pickupCode: typed });
    expect(first.statusCode).toBe(200);
    expect(first.json() as VendorOrder).toMatchObject({ id: order.id, status: 'reserved', handedOver: true });
    expect((await inject('POST', '/api/shop/vendor-orders/fulfil', owner.cookie, { pickupCode: order.pickupCode })).statusCode).toBe(409);
    expect(((await inject('GET', '/api/shop/vendor-orders', owner.cookie)).json() as VendorOrderListResponse).orders).toHaveLength(0);
    expect(((await inject('GET', '/api/shop/vendor-orders?status=all', owner.cookie)).json() as VendorOrderListResponse).orders).toHaveLength(1);
    // Part handed over: no cancel any more.
    expect((await inject('POST', `/api/shop/orders/${order.id}/cancel`, buyer.cookie)).statusCode).toBe(409);

    const second = await inject('POST', '/api/shop/vendor-orders/fulfil', otherVendor.cookie, { pickupCode: order.pickupCode });
    expect(second.json() as VendorOrder).toMatchObject({ status: 'fulfilled', handedOver: true });
    const after = (await inject('GET', `/api/shop/orders/${order.id}`, buyer.cookie)).json() as Order;
    expect(after.status).toBe('fulfilled');
    expect(after.fulfilledAt).not.toBeNull();
    expect(after.items.every((i) => i.fulfilledAt !== null)).toBe(true);
    expect((await inject('POST', `/api/shop/orders/${order.id}/cancel`, buyer.cookie)).json().message).toBe('A picked-up order cannot be cancelled');
    expect(await stockOf(soap.id)).toBe(2);
    const notes = await queryRows<{ title: string }>(t.database.db, sql`select title from notifications where user_id = ${buyer.user.id}`);
    expect(notes.map((n) => n.title)).toEqual(['Order picked up']);
  });

  it("refuses an unknown code, another vendor's order and a cancelled order", async () => {
    const soap = await addProduct({ stock: 3 });
    const order = (await checkout(buyer.cookie, [{ productId: soap.id, quantity: 1 }])).json() as Order;
    expect((await inject('POST', '/api/shop/vendor-orders/fulfil', owner.cookie, { pickupCode: 'ZZZZZZ' })).statusCode).toBe(404);
    expect((await inject('POST', '/api/shop/vendor-orders/fulfil', otherVendor.cookie, { pickupCode: order.pickupCode })).statusCode).toBe(404);
    await inject('POST', `/api/shop/orders/${order.id}/cancel`, buyer.cookie);
    const res = await inject('POST', '/api/shop/vendor-orders/fulfil', owner.cookie, { pickupCode: order.pickupCode });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('cancelled');
  });
});
