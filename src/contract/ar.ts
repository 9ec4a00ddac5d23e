import { z } from 'zod';

/** Spec section 9: the AR radius in metres, and the most a client may ask for. */
export const AR_DEFAULT_RADIUS_M = 1000;
export const AR_MAX_RADIUS_M = 20_000;

const Lat = z.number().min(-90).max(90);
const Lng = z.number().min(-180).max(180);

/** POST /api/ar/nearby-events. */
export const NearbyEventsBody = z.object({
  lat: Lat,
  lng: Lng,
  radius: z.number().int().min(1).max(AR_MAX_RADIUS_M).default(AR_DEFAULT_RADIUS_M),
});
export type NearbyEventsBody = z.input<typeof NearbyEventsBody>;

/** An AR event (spec section 3) plus where it is from the viewer. */
export const ArEvent = z.object({
  id: z.string().uuid(),
  title: z.string(),
  /** ISO start instant. */
  time: z.string(),
  /** An all-day event: shown by its day, with no time. */
  allDay: z.boolean(),
  attendees: z.number().int(),
  category: z.string(),
  venue: z.string(),
  lat: z.number(),
  lng: z.number(),
  distanceM: z.number(),
  /** Compass bearing from the viewer, degrees clockwise from north. */
  bearing: z.number(),
});
export type ArEvent = z.infer<typeof ArEvent>;

export const NearbyEventsResponse = z.object({ events: z.array(ArEvent) });
export type NearbyEventsResponse = z.infer<typeof NearbyEventsResponse>;

/** POST /api/ar/discover: where the session looked and what it found (ids or event objects). */
export const DiscoverBody = z.object({
  location: z.object({ lat: Lat, lng: Lng, name: z.string().trim().max(200).optional().default('') }),
  events: z
    .array(z.union([z.string().uuid(), z.object({ id: z.string().uuid() }).passthrough()]))
    .max(100)
    .default([]),
});
export type DiscoverBody = z.input<typeof DiscoverBody>;

export const ArAchievementId = z.enum(['ar_explorer', 'reality_hunter', 'digital_pioneer']);

/** One AR achievement (spec section 2) counted from the player's recorded discoveries. */
export const ArAchievement = z.object({
  id: ArAchievementId,
  title: z.string(),
  description: z.string(),
  progress: z.number().int(),
  target: z.number().int(),
  earned: z.boolean(),
});
export type ArAchievement = z.infer<typeof ArAchievement>;

export const ArAchievementsResponse = z.object({ achievements: z.array(ArAchievement) });
export type ArAchievementsResponse = z.infer<typeof ArAchievementsResponse>;

export const ArDiscovery = z.object({
  id: z.string().uuid(),
  placeName: z.string(),
  lat: z.number(),
  lng: z.number(),
  eventIds: z.array(z.string()),
  eventsFound: z.number().int(),
  pointsEarned: z.number().int(),
  shared: z.boolean(),
  createdAt: z.string(),
});
export type ArDiscovery = z.infer<typeof ArDiscovery>;

/** What recording a session answers: the discovery, the points paid (0 past the cap) and why. */
export const DiscoverResponse = z.object({
  discovery: ArDiscovery,
  pointsAwarded: z.number().int(),
  message: z.string(),
  achievements: z.array(ArAchievement),
});
export type DiscoverResponse = z.infer<typeof DiscoverResponse>;

export const DiscoveryParams = z.object({ id: z.string().uuid() });

export const ShareResponse = z.object({ discovery: ArDiscovery, achievements: z.array(ArAchievement) });
export type ShareResponse = z.infer<typeof ShareResponse>;

/** Targets of the three AR achievements. */
export const AR_ACHIEVEMENTS = {
  ar_explorer: { title: 'AR Explorer', description: 'Use AR 5 times', target: 5 },
  reality_hunter: { title: 'Reality Hunter', description: 'Find 10 AR events', target: 10 },
  digital_pioneer: { title: 'Digital Pioneer', description: 'Share AR discoveries', target: 1 },
} as const;
