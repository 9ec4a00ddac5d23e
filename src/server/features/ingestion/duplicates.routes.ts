import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DuplicateListResponse, KeepApartResponse, MergeBody, MergedRecordsResponse, MergeResponse, SplitBody, SplitResponse } from '../../../contract/duplicates.ts';
import { signedIn } from '../../plugins/auth.ts';
import type { DuplicatesService } from './duplicates.service.ts';

const IdParams = z.object({ id: z.uuid('id must be an id') });

/** Admins decide possible duplicates, and split merged events back into their sources. */
export async function duplicatesRoutes(app: FastifyInstance, deps: { duplicates: DuplicatesService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { duplicates } = deps;
  const admin = { access: 'admin' } as const;

  r.get('/api/admin/duplicates', { schema: { response: { 200: DuplicateListResponse } }, config: admin }, async () => duplicates.list());

  r.post('/api/admin/duplicates/:id/merge', { schema: { params: IdParams, body: MergeBody, response: { 200: MergeResponse } }, config: admin }, async (req) =>
    duplicates.merge(req.params.id, signedIn(req).id, req.body?.keepId),
  );

  r.post('/api/admin/duplicates/:id/keep-apart', { schema: { params: IdParams, response: { 200: KeepApartResponse } }, config: admin }, async (req) =>
    duplicates.keepApart(req.params.id, signedIn(req).id),
  );

  r.post('/api/admin/events/:id/split', { schema: { params: IdParams, body: SplitBody, response: { 200: SplitResponse } }, config: admin }, async (req) =>
    req.body?.recordId ? duplicates.splitRecord(req.params.id, req.body.recordId, signedIn(req).id) : duplicates.split(req.params.id, signedIn(req).id),
  );

  r.get('/api/admin/events/:id/records', { schema: { params: IdParams, response: { 200: MergedRecordsResponse } }, config: admin }, async (req) => duplicates.records(req.params.id));
}
