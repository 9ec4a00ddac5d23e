import { randomInt } from 'node:crypto';
import type { NotificationResponse } from '../../../contract/notifications.ts';
import {
  PICKUP_CODE_ALPHABET,
  PICKUP_CODE_LENGTH,
  type Order,
  type OrderCreateBody,
  type OrderListResponse,
  type PaymentMethod,
  type Product,
  type ProductPatchBody,
  type ShopQuery,
  type ShopResponse,
  type VendorOrder,
  type VendorOrderListResponse,
  type VendorProductsResponse,
} from '../../../contract/shop.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { conflict, forbidden, notFound } from '../../errors.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { createNotification, publishNotifications } from '../notifications/notifications.service.ts';
import type { UserRow } from '../users/users.table.ts';
import { buyerName, toCents, toDollars, toOrder, toProduct, toVendorOrder } from './shop.mapper.ts';
import { createShopRepository, type ItemWithVendor } from './shop.repository.ts';

/**
 * What is real today: paying at the booth, by cash or card, when picking the order up. The
 * providers of the spec's notice stay listed, marked not available.
 */
export const PAYMENT_METHODS: readonly PaymentMethod[] = [
  { id: 'cash', name: 'Cash at the booth', description: 'Pay the vendor in cash when you pick up.', available: true },
  { id: 'card', name: 'Card at the booth', description: "Pay by card on the vendor's reader when you pick up.", available: true },
  { id: 'wallet', name: 'Wallet', description: 'Coming soon', available: false },
  { id: 'cashapp', name: 'CashApp', description: 'Coming soon', available: false },
  { id: 'venmo', name: 'Venmo', description: 'Coming soon', available: false },
];

/** How many orders a list shows. */
const LIST_LIMIT = 100;
/** Draws of a fresh pickup code before giving up (32^6 codes: a collision is rare, several are absurd). */
const CODE_ATTEMPTS = 8;

/** A fresh pickup code: 6 characters from an alphabet without 0/O and 1/I. */
export function newPickupCode(): string {
  let code = '';
  for (let i = 0; i < PICKUP_CODE_LENGTH; i += 1) code += PICKUP_CODE_ALPHABET[randomInt(PICKUP_CODE_ALPHABET.length)];
  return code;
}

type Caller = Pick<UserRow, 'id' | 'role'>;
const isAdmin = (u: Caller) => u.role === 'admin';

/** The marketplace: catalogue, products of vendors, orders reserved in one transaction and handed over at the booth. */
export function createShopService(deps: { db: Db; clock: Clock; bus: EventBus }) {
  const { db, clock, bus } = deps;
  const repo = createShopRepository(db);

  async function loadOrder(r: ReturnType<typeof createShopRepository>, id: string): Promise<Order> {
    const order = await r.findOrder(id);
    if (!order) throw notFound('Order not found');
    return toOrder(order, await r.itemsOf([id]));
  }

  /**
   * The buyer or an admin; with `vendors`, also an owner of a vendor with lines in it (who may
   * cancel, but reads orders through the vendor list, without the pickup code). 404 when unknown.
   */
  async function checkOrderAccess(user: Caller, orderId: string, opts: { vendors: boolean }): Promise<void> {
    const order = await repo.findOrder(orderId);
    if (!order) throw notFound('Order not found');
    if (order.userId === user.id || isAdmin(user)) return;
    if (!opts.vendors) throw forbidden('Only the buyer may see this order');
    const owners = await repo.vendorOwnersOf(orderId);
    if (owners.some((o) => o.ownerId === user.id)) return;
    throw forbidden('Only the buyer or its vendors may see this order');
  }

  const announce = (list: { userId: string; notice: NotificationResponse }[]) => {
    for (const n of list) publishNotifications(bus, n.userId, [n.notice]);
  };

  return {
    async catalogue(q: ShopQuery): Promise<ShopResponse> {
      const category = q.category && q.category.toLowerCase() !== 'all' ? q.category : undefined;
      const search = q.search || undefined;
      const [rows, counts] = await Promise.all([repo.listProducts({ category, search }), repo.categoryCounts(search)]);
      return {
        products: rows.map(toProduct),
        categories: counts.map((c) => ({ id: c.category, name: c.category, count: c.count })),
        paymentMethods: [...PAYMENT_METHODS],
      };
    },

    /** Guard of PATCH /api/shop/products/:id: the vendor's owner or an admin. */
    async checkProductAccess(user: Caller, productId: string): Promise<void> {
      const owner = await repo.findProductOwner(productId);
      if (!owner) throw notFound('Product not found');
      if (!isAdmin(user) && owner.ownerId !== user.id) throw forbidden("Only the vendor's owner or an admin may edit this product");
    },

    checkOrderAccess,

    async createProduct(user: Caller, body: { vendorId: string; name: string; price: number; description: string; category: string; stock: number }): Promise<Product> {
      const vendor = await repo.findVendor(body.vendorId);
      if (!vendor) throw notFound('Vendor not found');
      if (!isAdmin(user) && vendor.ownerId !== user.id) throw forbidden('You can only add products to a vendor you run');
      const now = clock.now();
      const id = await repo.insertProduct({
        vendorId: vendor.id,
        name: body.name,
        description: body.description,
        category: body.category,
        priceCents: toCents(body.price),
        stock: body.stock,
        createdAt: now,
        updatedAt: now,
      });
      return toProduct((await repo.findProduct(id))!);
    },

    async updateProduct(id: string, body: ProductPatchBody): Promise<Product> {
      const { price, ...rest } = body;
      await repo.updateProduct(id, { ...rest, ...(price !== undefined ? { priceCents: toCents(price) } : {}), updatedAt: clock.now() });
      const row = await repo.findProduct(id);
      if (!row) throw notFound('Product not found');
      return toProduct(row);
    },

    /**
     * Reserves every line or none, in one transaction: each line takes its units with a
     * conditional update (`stock >= quantity`), so two checkouts of the last unit cannot both win.
     */
    async checkout(userId: string, body: OrderCreateBody): Promise<Order> {
      // One line per product; locked in id order so two carts never wait on each other in a cycle.
      const wanted = new Map<string, number>();
      for (const i of body.items) wanted.set(i.productId, (wanted.get(i.productId) ?? 0) + i.quantity);
      const lines = [...wanted.entries()].sort(([a], [b]) => a.localeCompare(b));
      const now = clock.now();
      const { order, notices } = await db.transaction(async (tx) => {
        const r = createShopRepository(tx);
        const reserved: { productId: string; vendorId: string; name: string; priceCents: number; quantity: number }[] = [];
        for (const [productId, quantity] of lines) {
          const row = await r.reserveStock(productId, quantity, now);
          if (!row) {
            const product = await r.findProduct(productId);
            if (!product) throw notFound('A product in your cart is no longer sold');
            throw conflict(`Only ${product.stock} left of ${product.name}`);
          }
          reserved.push({ productId, vendorId: row.vendorId, name: row.name, priceCents: row.priceCents, quantity });
        }
        const totalCents = reserved.reduce((sum, l) => sum + l.priceCents * l.quantity, 0);
        let created;
        for (let attempt = 0; attempt < CODE_ATTEMPTS && !created; attempt += 1) {
          created = await r.insertOrder({ userId, status: 'reserved', totalCents, pickupCode: newPickupCode(), createdAt: now, updatedAt: now });
        }
        if (!created) throw new Error('no free pickup code after several draws');
        const orderId = created.id;
        await r.insertItems(reserved.map((l) => ({ orderId, ...l })));
        // Each vendor's owner hears of the order once, whatever the number of its lines.
        const notices: { userId: string; notice: NotificationResponse }[] = [];
        const owners = new Set((await r.vendorOwnersOf(orderId)).map((o) => o.ownerId).filter((id): id is string => id !== null && id !== userId));
        for (const owner of owners) {
          notices.push({ userId: owner, notice: await createNotification(tx, owner, { type: 'info', title: 'New order to hand over', message: `An order of $${toDollars(totalCents).toFixed(2)} is reserved for pickup at your booth.` }, now) });
        }
        return { order: await loadOrder(r, orderId), notices };
      });
      announce(notices);
      return order;
    },

    async myOrders(userId: string): Promise<OrderListResponse> {
      const rows = await repo.listOrdersOfUser(userId, LIST_LIMIT);
      const items = await repo.itemsOf(rows.map((o) => o.id));
      return { orders: rows.map((o) => toOrder(o, items.filter((i) => i.orderId === o.id))) };
    },

    async getOrder(id: string): Promise<Order> {
      return loadOrder(repo, id);
    },

    /**
     * Cancels a reserved order and puts its units back, once: the order row is locked and its
     * status checked, so a second cancel (or a racing fulfil) finds it no longer reserved.
     */
    async cancel(user: Caller, orderId: string): Promise<Order> {
      const now = clock.now();
      const { order, notices } = await db.transaction(async (tx) => {
        const r = createShopRepository(tx);
        const locked = await r.lockOrder(orderId);
        if (!locked) throw notFound('Order not found');
        if (locked.status === 'cancelled') throw conflict('This order is already cancelled');
        if (locked.status === 'fulfilled') throw conflict('A picked-up order cannot be cancelled');
        const items = await r.itemsOf([orderId]);
        if (items.some((i) => i.fulfilledAt !== null)) throw conflict('Part of this order was already handed over, so it cannot be cancelled');
        const cancelled = await r.cancelIfReserved(orderId, user.id, now);
        if (!cancelled) throw conflict('This order can no longer be cancelled');
        for (const i of items) if (i.productId) await r.returnStock(i.productId, i.quantity, now);
        const notices: { userId: string; notice: NotificationResponse }[] = [];
        if (cancelled.userId !== user.id) {
          notices.push({
            userId: cancelled.userId,
            notice: await createNotification(tx, cancelled.userId, { type: 'info', title: 'Order cancelled', message: `Your order ${cancelled.pickupCode} was cancelled by the vendor.` }, now),
          });
        }
        return { order: toOrder(cancelled, items), notices };
      });
      announce(notices);
      return order;
    },

    /** The vendors the caller runs (admins: all) with their products, for the stock editor. */
    async vendorProducts(user: Caller): Promise<VendorProductsResponse> {
      const list = await repo.listVendors(isAdmin(user) ? null : user.id);
      const rows = await repo.listProductsOfVendors(list.map((v) => v.id));
      return { vendors: list, products: rows.map(toProduct) };
    },

    /** The orders a vendor (or an admin: every vendor) has to hand over, or all of them. */
    async vendorOrders(user: Caller, status: 'open' | 'all'): Promise<VendorOrderListResponse> {
      const vendorIds = isAdmin(user) ? null : await repo.vendorIdsOwnedBy(user.id);
      if (vendorIds !== null && vendorIds.length === 0) return { orders: [] };
      const rows = await repo.listOrdersForVendors(vendorIds, status === 'open', LIST_LIMIT);
      const items = await repo.itemsOf(rows.map((r) => r.order.id));
      const mine = (i: ItemWithVendor) => vendorIds === null || vendorIds.includes(i.vendorId);
      return {
        orders: rows.map((r) => toVendorOrder(r.order, buyerName(r), items.filter((i) => i.orderId === r.order.id && mine(i)))),
      };
    },

    /**
     * Hands over the lines of the caller's vendors (admin: all lines) of the order with this
     * pickup code; the order is fulfilled once every line is.
     */
    async fulfil(user: Caller, pickupCode: string): Promise<VendorOrder> {
      const vendorIds = isAdmin(user) ? null : await repo.vendorIdsOwnedBy(user.id);
      const now = clock.now();
      const found = await repo.findOrderByCode(pickupCode);
      const unknown = () => notFound(`No order with pickup code ${pickupCode} for your booth`);
      if (!found) throw unknown();
      const { order, notices } = await db.transaction(async (tx) => {
        const r = createShopRepository(tx);
        const locked = await r.lockOrder(found.id);
        if (!locked) throw unknown();
        const items = await r.itemsOf([locked.id]);
        const mine = items.filter((i) => vendorIds === null || vendorIds.includes(i.vendorId));
        // An order with nothing of the caller's is not theirs to see: same answer as an unknown code.
        if (mine.length === 0) throw unknown();
        if (locked.status === 'cancelled') throw conflict(`Order ${pickupCode} was cancelled`);
        if (mine.every((i) => i.fulfilledAt !== null)) throw conflict(`Order ${pickupCode} was already handed over`);
        await r.fulfilLines(locked.id, vendorIds, now);
        const done = await r.fulfilOrderIfComplete(locked.id, now);
        const notices: { userId: string; notice: NotificationResponse }[] = [];
        if (done) {
          notices.push({ userId: done.userId, notice: await createNotification(tx, done.userId, { type: 'success', title: 'Order picked up', message: `Order ${pickupCode} is complete. Enjoy!` }, now) });
        }
        const after = (await r.findOrder(locked.id))!;
        const buyer = (await r.findBuyer(after.userId))!;
        const lines = (await r.itemsOf([locked.id])).filter((i) => vendorIds === null || vendorIds.includes(i.vendorId));
        return { order: toVendorOrder(after, buyerName(buyer), lines), notices };
      });
      announce(notices);
      return order;
    },
  };
}

export type ShopService = ReturnType<typeof createShopService>;
