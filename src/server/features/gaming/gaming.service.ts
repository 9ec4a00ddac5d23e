import type { CityConfig } from '../../../contract/city.ts';
import {
  levelFor,
  nextBadgeTarget,
  type ActivityBody,
  type ActivityResponse,
  type AwardPointsBody,
  type AwardResult,
  type BadgeResponse,
  type GamingProgress,
  type LeaderboardEntry,
  type LeaderboardQuery,
  type ProfileSettings,
  type ProfileSettingsPatch,
  type UserStats,
} from '../../../contract/gaming.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { invalid, notFound } from '../../errors.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { announceAward, payAward, streakOf, type PayOutcome } from './awards.ts';
import { toActivity, toBadgeResponses, toLeaderboardEntry } from './gaming.mapper.ts';
import { createGamingRepository } from './gaming.repository.ts';
import { clientActivityTypes, localDay, ruleFor, startOfLocalWeek, type ActivityRule } from './rules.ts';

const LEADERBOARD_SIZE = 50;
const ACTIVITY_LIMIT = 50;

/** The message of an award, the same for the first answer and for replays of it. */
function awardMessage(rule: ActivityRule, points: number, newBadges: readonly BadgeResponse[]): string {
  const badges = newBadges.length ? ` New badge${newBadges.length > 1 ? 's' : ''}: ${newBadges.map((b) => b.title).join(', ')}!` : '';
  return `+${points} points for ${rule.label}.${badges}`;
}

/** Points, badges, levels, streaks and the leaderboard, all derived from the ledger. */
export function createGamingService(deps: { db: Db; clock: Clock; city: CityConfig; bus: EventBus }) {
  const { db, clock, bus } = deps;
  const timeZone = deps.city.timeZone;
  const repo = createGamingRepository(db);

  /** The rule of a type a client may report, or a 400 naming activityType. */
  function clientRule(activityType: string): ActivityRule {
    const rule = ruleFor(activityType);
    if (!rule?.clientReportable) {
      const allowed = clientActivityTypes();
      const own = rule ? `activityType '${activityType}' is awarded by the server itself, not reported by the browser` : `activityType '${activityType}' is unknown`;
      const hint = rule?.activityType === 'ar' ? ' (AR points come from recording an AR session: POST /api/ar/discover)' : '';
      throw invalid(`${own}${hint}${allowed.length ? `; a browser may report: ${allowed.join(', ')}` : ''}`);
    }
    return rule;
  }

  /** The client may say how many points it expects, but only the rule's amount is accepted. */
  function checkPoints(rule: ActivityRule, field: string, points: number | null | undefined): number {
    const amount = rule.points;
    if (amount === null) throw new Error(`client-reportable rule ${rule.activityType} must have fixed points`);
    if (points !== null && points !== undefined && points !== amount) throw invalid(`${field} must be ${amount} for ${rule.activityType}`);
    return amount;
  }

  /**
   * Pays a client-reported activity once per user, reason and local day. Identical requests,
   * even concurrent ones, pay once and all get the same answer.
   */
  async function pay(userId: string, rule: ActivityRule, points: number, a: { reason: string; eventId?: string | null; description: string }): Promise<AwardResult> {
    const at = clock.now();
    const { outcome, badges } = await db.transaction(async (tx) => {
      const outcome: PayOutcome = await payAward(
        tx,
        rule,
        {
          userId,
          activityType: rule.activityType,
          reason: a.reason,
          targetType: a.eventId ? 'event' : null,
          targetId: a.eventId ?? null,
          eventId: a.eventId ?? null,
          points,
          description: a.description,
          idempotencyKey: `${rule.activityType}:${userId}:${a.reason}:${localDay(at, timeZone)}`,
          at,
        },
        timeZone,
      );
      return { outcome, badges: toBadgeResponses(await createGamingRepository(tx).findBadges(userId)) };
    });
    announceAward(bus, userId, outcome);
    return {
      progress: { points: outcome.total, badges: badges.map((b) => b.title) },
      newBadges: outcome.newBadges,
      message: awardMessage(rule, outcome.award.points, outcome.newBadges),
      pointsAwarded: outcome.award.points,
    };
  }

  return {
    /** POST /api/gaming/award-points: only client-reportable types, only the rule's amount. */
    async awardPoints(userId: string, body: AwardPointsBody): Promise<AwardResult> {
      const rule = clientRule(body.activityType);
      const points = checkPoints(rule, 'points', body.points);
      return pay(userId, rule, points, { reason: body.reason, description: body.reason });
    },

    /** POST /api/user/activities: the same rules; the event, when named, must exist. */
    async reportActivity(userId: string, body: ActivityBody): Promise<AwardResult> {
      const rule = clientRule(body.activityType);
      const points = checkPoints(rule, 'pointsEarned', body.pointsEarned);
      let description = body.description || rule.label;
      if (body.eventId) {
        const event = await repo.findEventForActivity(body.eventId);
        if (!event || event.status !== 'approved') throw notFound('Event not found');
        if (!body.description) description = `${rule.label} at ${event.title}`;
      }
      const reason = body.eventId ? `event:${body.eventId}` : body.description || rule.activityType;
      return pay(userId, rule, points, { reason, eventId: body.eventId, description });
    },

    async progress(userId: string): Promise<GamingProgress> {
      const [points, badges, counts, streak] = await Promise.all([
        repo.findPoints(userId),
        repo.findBadges(userId),
        repo.countAwardsByType(userId, ['check_in', 'vendor_visit']),
        streakOf(repo, userId, clock.now(), timeZone),
      ]);
      return {
        level: levelFor(points),
        points,
        badges: toBadgeResponses(badges).map((b) => b.title),
        eventsAttended: counts.check_in ?? 0,
        merchantsVisited: counts.vendor_visit ?? 0,
        nextBadge: nextBadgeTarget(points),
        streak,
      };
    },

    async stats(userId: string): Promise<UserStats> {
      const [points, counts, contributionsCount, streak] = await Promise.all([
        repo.findPoints(userId),
        repo.countAwardsByType(userId, ['check_in', 'discovered']),
        repo.countContributions(userId),
        streakOf(repo, userId, clock.now(), timeZone),
      ]);
      return { points, level: levelFor(points), eventsAttended: counts.check_in ?? 0, eventsDiscovered: counts.discovered ?? 0, contributionsCount, streak };
    },

    async badges(userId: string): Promise<BadgeResponse[]> {
      return toBadgeResponses(await repo.findBadges(userId));
    },

    async activities(userId: string): Promise<ActivityResponse[]> {
      return (await repo.listAwards(userId, ACTIVITY_LIMIT)).map(toActivity);
    },

    /** Top 50, all time or this local week (from Monday 00:00 in the city's zone). */
    async leaderboard(q: LeaderboardQuery): Promise<LeaderboardEntry[]> {
      const rows = q.period === 'week' ? await repo.leaderboardSince(startOfLocalWeek(clock.now(), timeZone), LEADERBOARD_SIZE) : await repo.leaderboardAllTime(LEADERBOARD_SIZE);
      return rows.map(toLeaderboardEntry);
    },

    async profile(userId: string): Promise<ProfileSettings> {
      return repo.findProfileSettings(userId);
    },

    /** Changes the settings given; the others stay as they are. */
    async updateProfile(userId: string, settings: ProfileSettingsPatch): Promise<ProfileSettings> {
      await repo.setProfileSettings(userId, settings, clock.now());
      return repo.findProfileSettings(userId);
    },
  };
}

export type GamingService = ReturnType<typeof createGamingService>;
