// Paying an award: the one path every feature uses (favourites, award-points, QR scans, ...), so
// idempotency, daily caps, badges and notifications behave the same everywhere.
import { BADGES, BADGE_TYPES, type BadgeResponse, type BadgeType } from '../../../contract/gaming.ts';
import type { NotificationResponse } from '../../../contract/notifications.ts';
import { zonedDayBounds } from '../../../contract/time.ts';
import type { Db } from '../../db/client.ts';
import { rateLimited } from '../../errors.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { createNotification, publishNotifications } from '../notifications/notifications.service.ts';
import { toBadgeResponses } from './gaming.mapper.ts';
import { createGamingRepository, type AwardRow, type GamingRepository } from './gaming.repository.ts';
import { appendAwardRow, lockUserAwards, type Award } from './ledger.repository.ts';
import { localDay, qualifyingBadges, streakLength, type ActivityRule, type BadgeFacts } from './rules.ts';

/** How far back the streak looks: longer streaks than this are not told apart. */
const STREAK_LOOKBACK_DAYS = 400;
const DAY_MS = 24 * 3600 * 1000;

export type PayOutcome =
  | { status: 'paid'; award: { id: string; points: number }; total: number; newBadges: BadgeResponse[]; notifications: NotificationResponse[] }
  | { status: 'duplicate'; award: AwardRow; total: number; newBadges: BadgeResponse[]; notifications: NotificationResponse[] };

/** The current streak of a user from the ledger, in the city's calendar. */
export async function streakOf(repo: GamingRepository, userId: string, now: Date, timeZone: string): Promise<number> {
  const days = await repo.awardDays(userId, new Date(now.getTime() - STREAK_LOOKBACK_DAYS * DAY_MS), timeZone);
  return streakLength(days, localDay(now, timeZone));
}

/**
 * Inside the award's transaction: earns every badge the user now qualifies for and does not hold
 * yet, and persists an achievement notification for each. Facts are only computed for badges
 * still missing, so a user holding them all pays nothing extra.
 */
export async function earnBadges(
  tx: Db,
  opts: { userId: string; awardId: string | null; total: number; at: Date; timeZone: string },
): Promise<{ newBadges: BadgeResponse[]; notifications: NotificationResponse[] }> {
  const repo = createGamingRepository(tx);
  const held = new Set((await repo.findBadges(opts.userId)).map((b) => b.badgeType));
  const missing = BADGE_TYPES.filter((t) => !held.has(t));
  if (missing.length === 0) return { newBadges: [], notifications: [] };
  const needs = (t: BadgeType) => missing.includes(t);
  const counts = needs('explorer') || needs('social') ? await repo.countAwardsByType(opts.userId, ['discovered', 'story_shared']) : {};
  const facts: BadgeFacts = {
    points: opts.total,
    eventsDiscovered: counts.discovered ?? 0,
    storiesShared: counts.story_shared ?? 0,
    streak: needs('regular') ? await streakOf(repo, opts.userId, opts.at, opts.timeZone) : 0,
    artsCheckIns: needs('cultural') ? await repo.countCheckInsInCategory(opts.userId, 'Arts') : 0,
  };
  const earned = qualifyingBadges(facts).filter(needs);
  const newBadges = toBadgeResponses(await repo.insertBadges(opts.userId, earned, opts.awardId, opts.at));
  const notifications: NotificationResponse[] = [];
  for (const b of newBadges) {
    notifications.push(await createNotification(tx, opts.userId, { type: 'achievement', title: 'New Badge Unlocked', message: `${b.title}: ${BADGES[b.badgeType].rule}` }, opts.at));
  }
  return { newBadges, notifications };
}

/**
 * Pays an award inside the caller's transaction: serialises the user's awards, answers a
 * duplicate (same idempotency key) with the earlier award, refuses with 429 past the rule's daily
 * cap (counted in the city's local day), appends to the ledger and earns any new badges.
 * After the transaction commits, call `announceAward`.
 */
export async function payAward(tx: Db, rule: ActivityRule, award: Award, timeZone: string): Promise<PayOutcome> {
  const repo = createGamingRepository(tx);
  await lockUserAwards(tx, award.userId);
  const replay = async (): Promise<PayOutcome> => {
    const earlier = await repo.findAwardByKey(award.idempotencyKey);
    if (!earlier) throw new Error('award neither paid nor found');
    const newBadges = toBadgeResponses(await repo.findBadgesByAward(earlier.id));
    return { status: 'duplicate', award: earlier, total: await repo.findPoints(award.userId), newBadges, notifications: [] };
  };
  if (await repo.findAwardByKey(award.idempotencyKey)) return replay();
  if (rule.dailyCap !== null) {
    const day = zonedDayBounds(award.at, timeZone);
    const used = await repo.countAwardsBetween(award.userId, rule.activityType, day.start, day.end);
    if (used >= rule.dailyCap) throw rateLimited(`Daily limit reached for ${rule.activityType}`, (day.end.getTime() - award.at.getTime()) / 1000);
  }
  const paid = await appendAwardRow(tx, award);
  if (!paid) return replay();
  const { newBadges, notifications } = await earnBadges(tx, { userId: award.userId, awardId: paid.id, total: paid.total, at: award.at, timeZone });
  return { status: 'paid', award: { id: paid.id, points: award.points }, total: paid.total, newBadges, notifications };
}

/** After commit: tells the user's open pages about new points and notifications. */
export function announceAward(bus: EventBus, userId: string, outcome: PayOutcome | null | undefined, extra: readonly NotificationResponse[] = []): void {
  if (!outcome || outcome.status !== 'paid') return;
  bus.publish('gaming_update', { userId, points: outcome.total });
  publishNotifications(bus, userId, [...outcome.notifications, ...extra]);
}
