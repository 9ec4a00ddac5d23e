import { z } from 'zod';

// ---------------------------------------------------------------------------------------------
// Published rules: levels, badge tiers and type badges (decisions section 4).
// ---------------------------------------------------------------------------------------------

/**
 * Level rule: every LEVEL_POINTS points is one level, starting at level 1.
 * level = 1 + floor(points / 100): 0-99 points is level 1, 100-199 level 2, and so on.
 */
export const LEVEL_POINTS = 100;

/** The level a points total reaches (1 at 0 points). */
export function levelFor(points: number): number {
  return 1 + Math.floor(Math.max(0, points) / LEVEL_POINTS);
}

export const BADGE_TYPES = ['tier_explorer', 'tier_champion', 'tier_local_legend', 'explorer', 'social', 'regular', 'cultural'] as const;
export const BadgeType = z.enum(BADGE_TYPES);
export type BadgeType = z.infer<typeof BadgeType>;

/** The behaviour badges the profile shows (spec section 2). */
export const TYPE_BADGES = ['explorer', 'social', 'regular', 'cultural'] as const satisfies readonly BadgeType[];

export interface BadgeInfo {
  type: BadgeType;
  kind: 'tier' | 'type';
  /** The name users see. */
  title: string;
  /** How it is earned, in words the UI shows. */
  rule: string;
}

/** Points thresholds of the tier badges (spec section 9). */
export const TIER_THRESHOLDS = { tier_explorer: 50, tier_champion: 150, tier_local_legend: 300 } as const;

/** Type-badge thresholds: what counts and how many. */
export const TYPE_BADGE_RULES = {
  explorer: { eventsDiscovered: 10 },
  social: { storiesShared: 3 },
  regular: { streakDays: 7 },
  cultural: { artsCheckIns: 3 },
} as const;

/** Every badge with its title and earned-by rule, so the UI can show the rules. */
export const BADGES: Record<BadgeType, BadgeInfo> = {
  tier_explorer: { type: 'tier_explorer', kind: 'tier', title: 'Explorer', rule: 'Reach 50 points' },
  tier_champion: { type: 'tier_champion', kind: 'tier', title: 'Champion', rule: 'Reach 150 points' },
  tier_local_legend: { type: 'tier_local_legend', kind: 'tier', title: 'Local Legend', rule: 'Reach 300 points' },
  explorer: { type: 'explorer', kind: 'type', title: 'Event Scout', rule: 'Discover 10 events (save them as favourites)' },
  social: { type: 'social', kind: 'type', title: 'Storyteller', rule: 'Share 3 community stories' },
  regular: { type: 'regular', kind: 'type', title: 'Regular', rule: 'Earn points on 7 days in a row' },
  cultural: { type: 'cultural', kind: 'type', title: 'Culture Buff', rule: 'Check in at 3 Arts events' },
};

/** Badge tiers in order, for the two readings below. */
const TIERS = [
  { name: 'Explorer', points: TIER_THRESHOLDS.tier_explorer },
  { name: 'Champion', points: TIER_THRESHOLDS.tier_champion },
  { name: 'Local Legend', points: TIER_THRESHOLDS.tier_local_legend },
] as const;

/**
 * The gaming widget's reading (spec section 4): under 50 the next badge is Explorer at 50,
 * 50-149 Champion at 150, 150-299 Local Legend at 300; from 300 there is none.
 */
export function nextBadgeTarget(points: number): { name: string; points: number } | null {
  const next = TIERS.find((t) => points < t.points);
  return next ? { name: next.name, points: next.points } : null;
}

/**
 * The discover banner's reading (spec section 4): Explorer at 50 under 50, Champion at 150
 * under 150, and 'Local Legend!' (no target) from 150 points up.
 */
export function discoverBannerTier(points: number): { name: string; target: number | null } {
  if (points < TIER_THRESHOLDS.tier_explorer) return { name: 'Explorer', target: TIER_THRESHOLDS.tier_explorer };
  if (points < TIER_THRESHOLDS.tier_champion) return { name: 'Champion', target: TIER_THRESHOLDS.tier_champion };
  return { name: 'Local Legend!', target: null };
}

/** Activity types a browser may report itself; every other type is decided by the server. */
export const CLIENT_ACTIVITY_TYPES = ['ar'] as const;

// ---------------------------------------------------------------------------------------------
// Wire shapes (spec section 3 and 7).
// ---------------------------------------------------------------------------------------------

/** A badge the user holds (spec: id, badgeType), with its title and rule. */
export const BadgeResponse = z.object({
  id: z.string(),
  badgeType: BadgeType,
  kind: z.enum(['tier', 'type']),
  title: z.string(),
  rule: z.string(),
  earnedAt: z.string(),
});
export type BadgeResponse = z.infer<typeof BadgeResponse>;

/** GET /api/gaming/progress (polled every 30 s). */
export const GamingProgress = z.object({
  level: z.number().int(),
  points: z.number().int(),
  /** Titles of the badges held, oldest first. */
  badges: z.array(z.string()),
  /** Event check-ins. */
  eventsAttended: z.number().int(),
  /** Vendor visits. */
  merchantsVisited: z.number().int(),
  /** The gaming widget's next tier badge, null from 300 points. */
  nextBadge: z.object({ name: z.string(), points: z.number().int() }).nullable(),
  streak: z.number().int(),
});
export type GamingProgress = z.infer<typeof GamingProgress>;

/** POST /api/gaming/award-points: the server checks points against its rule table. */
export const AwardPointsBody = z.object({
  points: z.number({ message: 'points must be a number' }).int('points must be a whole number'),
  reason: z.string().trim().min(1, 'reason is required').max(200, 'reason must be at most 200 characters'),
  activityType: z.string().trim().min(1, 'activityType is required').max(40, 'activityType must be at most 40 characters'),
});
export type AwardPointsBody = z.infer<typeof AwardPointsBody>;

/** The points-award result (spec section 3): progress, newly earned badges and a message. */
export const AwardResult = z.object({
  progress: z.object({ points: z.number().int(), badges: z.array(z.string()) }),
  newBadges: z.array(BadgeResponse),
  message: z.string(),
  /** Points of this award; a duplicate request gets the answer of the award it repeats. */
  pointsAwarded: z.number().int(),
});
export type AwardResult = z.infer<typeof AwardResult>;

export const LeaderboardQuery = z.object({
  period: z.enum(['all', 'week'], { message: 'period must be all or week' }).default('all'),
});
export type LeaderboardQuery = z.infer<typeof LeaderboardQuery>;

/**
 * One leaderboard row. Ranks use standard competition ranking (1, 2, 2, 4): equal points share
 * a rank; within it, whoever reached the total first is listed first.
 */
export const LeaderboardEntry = z.object({
  rank: z.number().int(),
  userId: z.string(),
  points: z.number().int(),
  /** 'First L.', or 'Anonymous' for users who opted out in their profile. */
  displayName: z.string(),
});
export type LeaderboardEntry = z.infer<typeof LeaderboardEntry>;

/** User stats (spec section 3) plus the level. */
export const UserStats = z.object({
  points: z.number().int(),
  level: z.number().int(),
  eventsAttended: z.number().int(),
  eventsDiscovered: z.number().int(),
  contributionsCount: z.number().int(),
  streak: z.number().int(),
});
export type UserStats = z.infer<typeof UserStats>;

/** A ledger row as the Recent Activity list shows it. */
export const ActivityResponse = z.object({
  id: z.string(),
  /** 'attended' (check-ins), 'discovered', 'contributed', or the rule's own type (ar, ...). */
  activityType: z.string(),
  eventId: z.string().nullable(),
  pointsEarned: z.number().int(),
  description: z.string(),
  createdAt: z.string(),
});
export type ActivityResponse = z.infer<typeof ActivityResponse>;

/** POST /api/user/activities: a client-reportable activity; the server decides its points. */
export const ActivityBody = z.object({
  activityType: z.string().trim().min(1, 'activityType is required').max(40, 'activityType must be at most 40 characters'),
  eventId: z.uuid('eventId must be an event id').nullish(),
  pointsEarned: z.number().int('pointsEarned must be a whole number').nullish(),
  description: z.string().trim().max(200, 'description must be at most 200 characters').nullish(),
});
export type ActivityBody = z.infer<typeof ActivityBody>;

/** PATCH /api/user/profile and its answer. */
export const ProfileSettings = z.object({
  leaderboardOptOut: z.boolean({ message: 'leaderboardOptOut must be true or false' }),
  /** Kept out of other people's Community Buzz when set. */
  buzzOptOut: z.boolean({ message: 'buzzOptOut must be true or false' }),
});
export type ProfileSettings = z.infer<typeof ProfileSettings>;
/** PATCH /api/user/profile: either setting alone, or both. */
export const ProfileSettingsPatch = ProfileSettings.partial();
export type ProfileSettingsPatch = z.infer<typeof ProfileSettingsPatch>;

// ---------------------------------------------------------------------------------------------
// QR codes.
// ---------------------------------------------------------------------------------------------

/** What a signed QR code points at. 'demo' codes are personal and issued by /api/gaming/qr-demo. */
export const QR_KINDS = ['event', 'vendor', 'node', 'demo'] as const;
export const QrKind = z.enum(QR_KINDS);
export type QrKind = z.infer<typeof QrKind>;
/** The kinds an admin prints. */
export const PRINTABLE_QR_KINDS = ['event', 'vendor', 'node'] as const;

export const QrScanBody = z.object({
  qrData: z.string().trim().min(1, 'qrData is required').max(2000, 'qrData must be at most 2000 characters'),
});
export type QrScanBody = z.infer<typeof QrScanBody>;

/** The QR scan result (spec section 3): type, targetId, name, points, bonus. */
export const QrScanResult = z.object({
  type: QrKind,
  targetId: z.string(),
  name: z.string(),
  points: z.number().int(),
  /** Extra points on top of the code's base amount; none of today's rules pays one, so 0. */
  bonus: z.number().int(),
  isDemo: z.boolean(),
  totalPoints: z.number().int(),
  newBadges: z.array(BadgeResponse),
  message: z.string(),
});
export type QrScanResult = z.infer<typeof QrScanResult>;

/** GET /api/admin/qr/:kind/:id query. */
export const QrIssueQuery = z.object({
  format: z.enum(['png', 'svg', 'json'], { message: 'format must be png, svg or json' }).default('png'),
  expiresAt: z.iso.datetime({ offset: true, message: 'expiresAt must be an ISO date-time' }).optional(),
});
export type QrIssueQuery = z.infer<typeof QrIssueQuery>;

/** The signed payload of an issued code (format=json, and the demo code). */
export const QrIssued = z.object({
  qrData: z.string(),
  kind: QrKind,
  targetId: z.string(),
  name: z.string(),
  points: z.number().int(),
  issuedAt: z.string(),
  expiresAt: z.string().nullable(),
});
export type QrIssued = z.infer<typeof QrIssued>;

/** GET /api/gaming/qr-demo: the user's personal demo code, worth 15 points once. */
export const QrDemoResponse = QrIssued.extend({
  isDemo: z.literal(true),
  alreadyScanned: z.boolean(),
});
export type QrDemoResponse = z.infer<typeof QrDemoResponse>;

/** The demo sample event of the /qr-scanner page (spec sections 2 and 9). */
export const DEMO_QR = { targetId: 'community-demo-day', name: 'Sample Event: Community Demo Day (demo)', points: 15, scanMs: 2000 } as const;
