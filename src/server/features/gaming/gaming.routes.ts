import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ActivityBody,
  ActivityResponse,
  AwardPointsBody,
  AwardResult,
  BadgeResponse,
  GamingProgress,
  LeaderboardEntry,
  LeaderboardQuery,
  ProfileSettings,
  ProfileSettingsPatch,
  UserStats,
} from '../../../contract/gaming.ts';
import { perUser, signedIn } from '../../plugins/auth.ts';
import type { GamingService } from './gaming.service.ts';

/** Per signed-in user, not per address: households share an address. */
/** Caps and idempotency keep the points honest; this only stops floods. */
const awardLimit = { rateLimit: { max: 120, timeWindow: '1 minute', keyGenerator: perUser } };

/** Points, badges, progress, the leaderboard and the user's activity (spec section 7). */
export async function gamingRoutes(app: FastifyInstance, deps: { gaming: GamingService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { gaming } = deps;

  r.get('/api/gaming/progress', { schema: { response: { 200: GamingProgress } }, config: { access: 'user' } }, async (req) => gaming.progress(signedIn(req).id));

  r.get('/api/gaming/leaderboard', { schema: { querystring: LeaderboardQuery, response: { 200: z.array(LeaderboardEntry) } }, config: { access: 'user' } }, async (req) =>
    gaming.leaderboard(req.query),
  );

  r.post('/api/gaming/award-points', { schema: { body: AwardPointsBody, response: { 200: AwardResult } }, config: { access: 'user', ...awardLimit } }, async (req) =>
    gaming.awardPoints(signedIn(req).id, req.body),
  );

  r.get('/api/user/stats', { schema: { response: { 200: UserStats } }, config: { access: 'user' } }, async (req) => gaming.stats(signedIn(req).id));

  r.get('/api/user/badges', { schema: { response: { 200: z.array(BadgeResponse) } }, config: { access: 'user' } }, async (req) => gaming.badges(signedIn(req).id));

  r.get('/api/user/activities', { schema: { response: { 200: z.array(ActivityResponse) } }, config: { access: 'user' } }, async (req) => gaming.activities(signedIn(req).id));

  r.post('/api/user/activities', { schema: { body: ActivityBody, response: { 200: AwardResult } }, config: { access: 'user', ...awardLimit } }, async (req) =>
    gaming.reportActivity(signedIn(req).id, req.body),
  );

  r.get('/api/user/profile', { schema: { response: { 200: ProfileSettings } }, config: { access: 'user' } }, async (req) => gaming.profile(signedIn(req).id));

  r.patch('/api/user/profile', { schema: { body: ProfileSettingsPatch, response: { 200: ProfileSettings } }, config: { access: 'user' } }, async (req) =>
    gaming.updateProfile(signedIn(req).id, req.body),
  );
}
