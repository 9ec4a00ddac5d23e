import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { QrDemoResponse, QrIssued, QrIssueQuery, QrScanBody, QrScanResult } from '../../../contract/gaming.ts';
import { perUser, signedIn } from '../../plugins/auth.ts';
import type { QrService } from './qr.service.ts';

const IssueParams = z.object({ kind: z.string().max(20), id: z.string().max(100) });
/** Scanning is rate limited per user so codes cannot be brute-forced or hammered. */
export const SCAN_LIMIT_PER_MINUTE = 20;

/** Signed QR codes: admins print them, users scan them, everyone may try the demo code. */
export async function qrRoutes(app: FastifyInstance, deps: { qr: QrService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { qr } = deps;

  r.get('/api/admin/qr/:kind/:id', { schema: { params: IssueParams, querystring: QrIssueQuery }, config: { access: 'admin' } }, async (req, reply) => {
    const issued = await qr.issueForPrint(req.params.kind, req.params.id, req.query.expiresAt);
    const file = `townbeat-${issued.kind}-${issued.targetId}`.replace(/[^a-z0-9-]+/gi, '-');
    reply.header('cache-control', 'no-store');
    if (req.query.format === 'json') return reply.type('application/json').send(QrIssued.parse(issued));
    if (req.query.format === 'svg') return reply.type('image/svg+xml').header('content-disposition', `inline; filename="${file}.svg"`).send(await qr.renderSvg(issued));
    return reply.type('image/png').header('content-disposition', `inline; filename="${file}.png"`).send(await qr.renderPng(issued));
  });

  r.get('/api/gaming/qr-demo', { schema: { response: { 200: QrDemoResponse } }, config: { access: 'user' } }, async (req) => qr.demoCode(signedIn(req).id));

  r.post(
    '/api/gaming/qr-scan',
    { schema: { body: QrScanBody, response: { 200: QrScanResult } }, config: { access: 'user', rateLimit: { max: SCAN_LIMIT_PER_MINUTE, timeWindow: '1 minute', keyGenerator: perUser } } },
    async (req) => qr.scan(signedIn(req).id, req.body.qrData),
  );
}
