import { BADGES, BadgeType, type ActivityResponse, type BadgeResponse, type LeaderboardEntry } from '../../../contract/gaming.ts';
import type { UserBadgeRow } from './badges.table.ts';
import type { AwardRow, LeaderboardRow } from './gaming.repository.ts';

/** A held badge with its title and rule; null for a type this version no longer knows. */
export function toBadgeResponse(b: UserBadgeRow): BadgeResponse | null {
  const parsed = BadgeType.safeParse(b.badgeType);
  if (!parsed.success) return null;
  const info = BADGES[parsed.data];
  return { id: b.id, badgeType: parsed.data, kind: info.kind, title: info.title, rule: info.rule, earnedAt: b.earnedAt.toISOString() };
}

export const toBadgeResponses = (rows: readonly UserBadgeRow[]): BadgeResponse[] => rows.map(toBadgeResponse).filter((b) => b !== null);

/** Ledger activity types under the names the profile uses (spec: attended, discovered, contributed). */
const ACTIVITY_NAMES: Record<string, string> = { check_in: 'attended', discovered: 'discovered', contributed: 'contributed' };

export function toActivity(a: AwardRow): ActivityResponse {
  return {
    id: a.id,
    activityType: ACTIVITY_NAMES[a.activityType] ?? a.activityType,
    eventId: a.eventId,
    pointsEarned: a.points,
    description: a.description,
    createdAt: a.createdAt.toISOString(),
  };
}

/** 'First L.' (or just the first name), or 'Anonymous' for opted-out or nameless users. */
export function displayName(firstName: string | null, lastName: string | null, optOut: boolean): string {
  const first = firstName?.trim();
  if (optOut || !first) return 'Anonymous';
  const initial = lastName?.trim().charAt(0).toUpperCase();
  return initial ? `${first} ${initial}.` : first;
}

export function toLeaderboardEntry(r: LeaderboardRow): LeaderboardEntry {
  return { rank: r.rank, userId: r.userId, points: r.points, displayName: displayName(r.firstName, r.lastName, r.optOut) };
}
