import type { ActivityResponse, BadgeResponse, BadgeType, GamingProgress } from '../../../contract/gaming.ts';
import { BADGES } from '../../../contract/gaming.ts';

/** Test-only builders for the gaming screens. */

let seq = 0;
const uuid = (n: number) => `00000000-0000-4000-9000-${String(n).padStart(12, '0')}`;

export function buildBadge(type: BadgeType, earnedAt: string, over: Partial<BadgeResponse> = {}): BadgeResponse {
  seq += 1;
  const info = BADGES[type];
  return { id: uuid(seq), badgeType: type, kind: info.kind, title: info.title, rule: info.rule, earnedAt, ...over };
}

export function buildActivity(over: Partial<ActivityResponse> = {}): ActivityResponse {
  seq += 1;
  return { id: uuid(seq), activityType: 'discovered', eventId: null, pointsEarned: 5, description: `Discovered Event ${seq}`, createdAt: new Date().toISOString(), ...over };
}

export function buildProgress(over: Partial<GamingProgress> = {}): GamingProgress {
  return { level: 1, points: 0, badges: [], eventsAttended: 0, merchantsVisited: 0, nextBadge: { name: 'Explorer', points: 50 }, streak: 0, ...over };
}
