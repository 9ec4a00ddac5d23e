import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  FulfilBody,
  Order,
  OrderCreateBody,
  OrderListResponse,
  OrderParams,
  Product,
  ProductCreateBody,
  ProductParams,
  ProductPatchBody,
  ShopQuery,
  ShopResponse,
  VendorOrder,
  VendorOrderListResponse,
  VendorOrdersQuery,
  VendorProductsResponse,
} from '../../../contract/shop.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { perUser, signedIn } from '../../plugins/auth.ts';
import { insertShopDemo } from './shop.demo.ts';
import { createShopService, type ShopService } from './shop.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The shop service, decorated on the root so the demo seeder can reach it. */
    shop: ShopService & { seedDemo(): Promise<number> };
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The `:id` of the URL when it is a uuid; anything else is left to the params schema (400). */
const uuidParam = (req: FastifyRequest) => {
  const id = (req.params as { id?: unknown }).id;
  return typeof id === 'string' && UUID.test(id) ? id : null;
};
/** Checkouts a user may start a minute: plenty for a person, a wall for a script hoarding stock. */
export const CHECKOUTS_PER_MINUTE = 20;

/** The marketplace: the catalogue, vendors' products, orders reserved for pickup at the booth. */
export const shopPlugin = fp(
  async (app: FastifyInstance, deps: { db: Db; clock: Clock; bus: EventBus }) => {
    const shop = createShopService(deps);
    app.decorate('shop', { ...shop, seedDemo: () => insertShopDemo(deps.db, deps.clock) });
    await shopRoutes(app, shop);
  },
  { name: 'shop' },
);

async function shopRoutes(app: FastifyInstance, shop: ShopService) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  const productOwner = async (req: FastifyRequest) => {
    const id = uuidParam(req);
    if (id) await shop.checkProductAccess(signedIn(req), id);
  };
  const orderBuyer = async (req: FastifyRequest) => {
    const id = uuidParam(req);
    if (id) await shop.checkOrderAccess(signedIn(req), id, { vendors: false });
  };
  const orderParty = async (req: FastifyRequest) => {
    const id = uuidParam(req);
    if (id) await shop.checkOrderAccess(signedIn(req), id, { vendors: true });
  };

  r.get('/api/shop', { schema: { querystring: ShopQuery, response: { 200: ShopResponse } }, config: { access: 'public' } }, async (req) => shop.catalogue(req.query));

  r.post('/api/shop/products', { schema: { body: ProductCreateBody, response: { 201: Product } }, config: { access: 'vendor' } }, async (req, reply) =>
    reply.status(201).send(await shop.createProduct(signedIn(req), req.body)),
  );

  r.patch(
    '/api/shop/products/:id',
    { schema: { params: ProductParams, body: ProductPatchBody, response: { 200: Product } }, config: { access: 'vendor', guard: productOwner } },
    async (req) => shop.updateProduct(req.params.id, req.body),
  );

  r.post(
    '/api/shop/orders',
    {
      schema: { body: OrderCreateBody, response: { 201: Order } },
      config: { access: 'user', rateLimit: { max: CHECKOUTS_PER_MINUTE, timeWindow: '1 minute', keyGenerator: perUser } },
    },
    async (req, reply) => reply.status(201).send(await shop.checkout(signedIn(req).id, req.body)),
  );

  r.get('/api/shop/orders', { schema: { response: { 200: OrderListResponse } }, config: { access: 'user' } }, async (req) => shop.myOrders(signedIn(req).id));

  r.get('/api/shop/orders/:id', { schema: { params: OrderParams, response: { 200: Order } }, config: { access: 'user', guard: orderBuyer } }, async (req) =>
    shop.getOrder(req.params.id),
  );

  r.post('/api/shop/orders/:id/cancel', { schema: { params: OrderParams, response: { 200: Order } }, config: { access: 'user', guard: orderParty } }, async (req) =>
    shop.cancel(signedIn(req), req.params.id),
  );

  r.get('/api/shop/vendor-products', { schema: { response: { 200: VendorProductsResponse } }, config: { access: 'vendor' } }, async (req) => shop.vendorProducts(signedIn(req)));

  r.get('/api/shop/vendor-orders', { schema: { querystring: VendorOrdersQuery, response: { 200: VendorOrderListResponse } }, config: { access: 'vendor' } }, async (req) =>
    shop.vendorOrders(signedIn(req), req.query.status),
  );

  r.post('/api/shop/vendor-orders/fulfil', { schema: { body: FulfilBody, response: { 200: VendorOrder } }, config: { access: 'vendor' } }, async (req) =>
    shop.fulfil(signedIn(req), req.body.pickupCode),
  );
}
