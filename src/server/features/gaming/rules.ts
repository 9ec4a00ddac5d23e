// The one table that decides what each activity earns, and the pure rules built on the ledger:
// badges, streaks and the local calendar they use. No database here, so all of it is unit tested.
import { TIER_THRESHOLDS, TYPE_BADGE_RULES, type BadgeType } from '../../../contract/gaming.ts';
import { wallClock, zonedToUtc } from '../../../contract/time.ts';

export interface ActivityRule {
  activityType: string;
  /** Words for messages: "+5 points for <label>". */
  label: string;
  /** Points per award; null when the target decides (a quest node carries its own points). */
  points: number | null;
  /** Awards of this type a user may earn per local day (city time zone); null = no cap. */
  dailyCap: number | null;
  /** Whether a browser may report it (POST /api/gaming/award-points, /api/user/activities). */
  clientReportable: boolean;
  /** Pays once per user and target, whatever the day (the key has no date). */
  oncePerTarget: boolean;
}

const rule = <const T extends ActivityRule>(r: T): T => r;

/** What every activity earns. Change points or caps here and nowhere else. */
export const RULES = {
  discovered: rule({ activityType: 'discovered', label: 'discovering an event', points: 5, dailyCap: null, clientReportable: false, oncePerTarget: true }),
  /** Paid only by POST /api/ar/discover for a session that found real upcoming events. */
  ar: rule({ activityType: 'ar', label: 'an AR interaction', points: 5, dailyCap: 10, clientReportable: false, oncePerTarget: false }),
  flyer_scan: rule({ activityType: 'flyer_scan', label: 'scanning a flyer', points: 10, dailyCap: 5, clientReportable: false, oncePerTarget: true }),
  story_shared: rule({ activityType: 'story_shared', label: 'sharing a story', points: 20, dailyCap: 3, clientReportable: false, oncePerTarget: false }),
  quest_node: rule({ activityType: 'quest_node', label: 'completing a quest node', points: null, dailyCap: null, clientReportable: false, oncePerTarget: true }),
  check_in: rule({ activityType: 'check_in', label: 'checking in at an event', points: 25, dailyCap: null, clientReportable: false, oncePerTarget: true }),
  vendor_visit: rule({ activityType: 'vendor_visit', label: 'visiting a vendor', points: 10, dailyCap: null, clientReportable: false, oncePerTarget: true }),
  /** A flyer-scanning challenge met (Flyer Hunter, Genre Explorer, New in Town): the challenge sets the points. */
  scan_challenge: rule({ activityType: 'scan_challenge', label: 'completing a scan challenge', points: null, dailyCap: null, clientReportable: false, oncePerTarget: true }),
  demo_scan: rule({ activityType: 'demo_scan', label: 'scanning the demo code', points: 15, dailyCap: null, clientReportable: false, oncePerTarget: true }),
  /** Every node of a hunt completed: the hunt's rewardPoints, once. */
  hunt_complete: rule({ activityType: 'hunt_complete', label: 'finishing a hunt', points: null, dailyCap: null, clientReportable: false, oncePerTarget: true }),
} as const;

export type ActivityType = keyof typeof RULES;

/** The rule for an activity type, or undefined for a type the server does not know. */
export function ruleFor(activityType: string): ActivityRule | undefined {
  return Object.hasOwn(RULES, activityType) ? RULES[activityType as ActivityType] : undefined;
}

/** The activity types a client may report, for messages. */
export const clientActivityTypes = (): string[] => Object.values(RULES).filter((r) => r.clientReportable).map((r) => r.activityType);

/** The points of a fixed-amount rule (throws for variable ones: a programming error). */
export function fixedPoints(r: ActivityRule): number {
  if (r.points === null) throw new Error(`${r.activityType} has no fixed amount`);
  return r.points;
}

// --- The local calendar ------------------------------------------------------------------------

/** The local calendar day ('YYYY-MM-DD') of an instant in the city's zone. */
export function localDay(instant: Date, timeZone: string): string {
  const w = wallClock(instant, timeZone);
  return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
}

/** A calendar day moved by n days (calendar arithmetic: immune to daylight-saving changes). */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** The instant the local week (Monday 00:00) containing an instant began. */
export function startOfLocalWeek(instant: Date, timeZone: string): Date {
  const w = wallClock(instant, timeZone);
  const dow = new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay(); // 0 = Sunday
  const monday = new Date(Date.UTC(w.year, w.month - 1, w.day - ((dow + 6) % 7)));
  return zonedToUtc({ year: monday.getUTCFullYear(), month: monday.getUTCMonth() + 1, day: monday.getUTCDate() }, timeZone);
}

/**
 * Consecutive local days with at least one earning activity, ending today or yesterday: a
 * streak stays alive until the end of today, so not having earned yet today does not break it.
 */
export function streakLength(days: Iterable<string>, today: string): number {
  const set = new Set(days);
  let day = set.has(today) ? today : addDays(today, -1);
  let n = 0;
  while (set.has(day)) {
    n += 1;
    day = addDays(day, -1);
  }
  return n;
}

// --- Badges ------------------------------------------------------------------------------------

/** What the badge rules look at, all derived from the ledger. */
export interface BadgeFacts {
  points: number;
  eventsDiscovered: number;
  storiesShared: number;
  streak: number;
  artsCheckIns: number;
}

/** Every badge the facts qualify for (the caller inserts the ones not yet held). */
export function qualifyingBadges(f: BadgeFacts): BadgeType[] {
  const out: BadgeType[] = [];
  for (const [type, threshold] of Object.entries(TIER_THRESHOLDS) as [BadgeType, number][]) if (f.points >= threshold) out.push(type);
  if (f.eventsDiscovered >= TYPE_BADGE_RULES.explorer.eventsDiscovered) out.push('explorer');
  if (f.storiesShared >= TYPE_BADGE_RULES.social.storiesShared) out.push('social');
  if (f.streak >= TYPE_BADGE_RULES.regular.streakDays) out.push('regular');
  if (f.artsCheckIns >= TYPE_BADGE_RULES.cultural.artsCheckIns) out.push('cultural');
  return out;
}
