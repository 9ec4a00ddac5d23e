import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FLYER_MAX_BASE64_CHARS, FlyerCorrection, FlyerCorrectionResponse, FlyerScanBody, FlyerScanResponse, ScanChallenges, ScanHistory } from '../../../contract/scan.ts';
import { perUser, signedIn } from '../../plugins/auth.ts';
import type { ScanService } from './scan.service.ts';

/** Each scan costs seconds of OCR: a user gets this many a minute. */
export const FLYER_SCANS_PER_MINUTE = 10;
/** The base64 of the largest flyer plus room for the rest of the JSON; a larger body is 413 unread. */
export const FLYER_BODY_LIMIT = FLYER_MAX_BASE64_CHARS + 16 * 1024;
const ScanParams = z.object({ id: z.uuid({ message: 'id must be a scan id' }) });

/** The flyer scanner: scan, correct what was read, and the user's scanning figures. */
export async function scanRoutes(app: FastifyInstance, deps: { scan: ScanService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { scan } = deps;

  r.post(
    '/api/scan/flyer',
    {
      bodyLimit: FLYER_BODY_LIMIT,
      schema: { body: FlyerScanBody, response: { 200: FlyerScanResponse } },
      config: { access: 'user', rateLimit: { max: FLYER_SCANS_PER_MINUTE, timeWindow: '1 minute', keyGenerator: perUser } },
    },
    async (req) => scan.scanFlyer(signedIn(req).id, req.body),
  );

  r.patch('/api/scan/:id', { schema: { params: ScanParams, body: FlyerCorrection, response: { 200: FlyerCorrectionResponse } }, config: { access: 'user' } }, async (req) =>
    scan.correct(signedIn(req).id, req.params.id, req.body),
  );

  r.get('/api/scan/history', { schema: { response: { 200: ScanHistory } }, config: { access: 'user' } }, async (req) => scan.history(signedIn(req).id));

  r.get('/api/scan/challenges', { schema: { response: { 200: ScanChallenges } }, config: { access: 'user' } }, async (req) => scan.challenges(signedIn(req).id));
}
