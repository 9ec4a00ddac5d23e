import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AddAppearanceBody,
  CreateVendorBody,
  EventVendorsResponse,
  FollowResponse,
  OwnerLookupQuery,
  OwnerLookupResponse,
  UpdateVendorBody,
  VendorAppearance,
  VendorDetail,
  VendorListQuery,
  VendorListResponse,
  VendorParams,
} from '../../../contract/vendors.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { signedIn, type AccessGuard } from '../../plugins/auth.ts';
import { createVendorsService, type VendorsService } from './vendors.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The vendors service, decorated on the root so the demo seeder can reach it. */
    vendors: VendorsService;
  }
}

const EventParams = z.object({ id: z.string().max(100) });

/**
 * Vendor routes (spec sections 2, 3, 7), plus "Who's here" on an event. Wrapped with
 * fastify-plugin so `app.vendors` is visible to the demo seeder at the root.
 */
export const vendorsPlugin = fp(
  async (app: FastifyInstance, deps: { db: Db; clock: Clock; bus: EventBus }) => {
    const vendors = createVendorsService(deps);
    app.decorate('vendors', vendors);
    const r = app.withTypeProvider<ZodTypeProvider>();

    /** Owner-or-admin routes: runs before the body is read, after `access: 'user'`. */
    const ownerOrAdmin: AccessGuard = async (req: FastifyRequest) => {
      const id = (req.params as { id?: string }).id ?? '';
      await vendors.assertCanEdit(id, req.user);
    };

    r.get('/api/vendors', { schema: { querystring: VendorListQuery, response: { 200: VendorListResponse } }, config: { access: 'public' } }, async (req) => vendors.list(req.query));

    r.get('/api/vendors/owners', { schema: { querystring: OwnerLookupQuery, response: { 200: OwnerLookupResponse } }, config: { access: 'admin' } }, async (req) =>
      vendors.lookupOwners(req.query.email),
    );

    r.get('/api/vendors/:id', { schema: { params: VendorParams, response: { 200: VendorDetail } }, config: { access: 'public' } }, async (req) => vendors.detail(req.params.id, req.user));

    r.post('/api/vendors', { schema: { body: CreateVendorBody, response: { 201: VendorDetail } }, config: { access: 'admin' } }, async (req, reply) =>
      reply.status(201).send(await vendors.create(req.body, signedIn(req))),
    );

    r.patch(
      '/api/vendors/:id',
      { schema: { params: VendorParams, body: UpdateVendorBody, response: { 200: VendorDetail } }, config: { access: 'user', guard: ownerOrAdmin } },
      async (req) => vendors.update(req.params.id, req.body, signedIn(req)),
    );

    r.post(
      '/api/vendors/:id/appearances',
      { schema: { params: VendorParams, body: AddAppearanceBody, response: { 201: VendorAppearance } }, config: { access: 'user', guard: ownerOrAdmin } },
      async (req, reply) => reply.status(201).send(await vendors.addAppearance(req.params.id, req.body)),
    );

    r.post('/api/vendors/:id/follow', { schema: { params: VendorParams, response: { 200: FollowResponse } }, config: { access: 'user' } }, async (req) =>
      vendors.toggleFollow(req.params.id, signedIn(req).id),
    );

    r.get('/api/events/:id/vendors', { schema: { params: EventParams, response: { 200: EventVendorsResponse } }, config: { access: 'public' } }, async (req) =>
      vendors.atEvent(req.params.id),
    );
  },
  { name: 'vendors' },
);
