import { AR_ACHIEVEMENTS, type ArAchievement, type ArDiscovery } from '../../../contract/ar.ts';
import type { ArDiscoveryRow } from './ar.table.ts';

/** A recorded AR session as the contract shows it. */
export function toArDiscovery(r: ArDiscoveryRow): ArDiscovery {
  return {
    id: r.id,
    placeName: r.placeName,
    lat: r.latitude,
    lng: r.longitude,
    eventIds: r.eventIds,
    eventsFound: r.eventsFound,
    pointsEarned: r.pointsEarned,
    shared: r.shared,
    createdAt: r.createdAt.toISOString(),
  };
}

/** The three AR achievements from the counted facts. */
export function toArAchievements(f: { sessions: number; distinctEvents: number; shared: number }): ArAchievement[] {
  const one = (id: keyof typeof AR_ACHIEVEMENTS, value: number): ArAchievement => {
    const a = AR_ACHIEVEMENTS[id];
    return { id, title: a.title, description: a.description, progress: Math.min(value, a.target), target: a.target, earned: value >= a.target };
  };
  return [one('ar_explorer', f.sessions), one('reality_hunter', f.distinctEvents), one('digital_pioneer', f.shared)];
}
