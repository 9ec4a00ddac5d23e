import { z } from 'zod';
import { FLYER_MAX_BASE64_CHARS } from './scan.ts';

export const NODE_DIFFICULTIES = ['easy', 'medium', 'hard', 'expert'] as const;
export const NodeDifficulty = z.enum(NODE_DIFFICULTIES);
/** Default geofence radius of a node, in metres. */
export const DEFAULT_NODE_RADIUS_M = 75;
/** The most of a position's reported accuracy counted in the player's favour, in metres. */
export const MAX_ACCURACY_CREDIT_M = 50;
/** Faster than this between two completions is refused as impossible travel. */
export const MAX_TRAVEL_KMH = 150;

/** A quest node (spec section 3) plus its place on the map and geofence. */
export const QuestNode = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  difficulty: NodeDifficulty,
  category: z.string(),
  points: z.number().int(),
  clue: z.string(),
  location: z.object({ address: z.string() }),
  requirements: z.array(z.string()),
  latitude: z.number(),
  longitude: z.number(),
  radiusM: z.number().int(),
  requiresPhoto: z.boolean(),
  active: z.boolean(),
  isDemo: z.boolean(),
});
export type QuestNode = z.infer<typeof QuestNode>;

/** A hunt (spec section 3) with its nodes in order. */
export const Hunt = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  totalNodes: z.number().int(),
  reward: z.string(),
  rewardPoints: z.number().int(),
  ordered: z.boolean(),
  active: z.boolean(),
  nodeIds: z.array(z.string()),
  isDemo: z.boolean(),
});
export type Hunt = z.infer<typeof Hunt>;

export const MapResponse = z.object({ nodes: z.array(QuestNode), activeHunts: z.array(Hunt) });
export type MapResponse = z.infer<typeof MapResponse>;

/** The player's progress through one hunt. */
export const HuntProgressEntry = z.object({ huntId: z.string(), completed: z.number().int(), total: z.number().int(), finished: z.boolean() });

export const HuntProgress = z.object({
  totalPoints: z.number().int(),
  playerLevel: z.number().int(),
  /** Ids of the nodes the player has completed. */
  completedNodes: z.array(z.string()),
  /** Ids of the active nodes the player has not completed yet. */
  availableNodes: z.array(z.string()),
  /** Ids of the nodes whose photo waits for an admin. */
  pendingNodes: z.array(z.string()),
  hunts: z.array(HuntProgressEntry),
});
export type HuntProgress = z.infer<typeof HuntProgress>;

const lat = z.number('latitude must be a number').min(-90, 'latitude must be between -90 and 90').max(90, 'latitude must be between -90 and 90');
const lng = z.number('longitude must be a number').min(-180, 'longitude must be between -180 and 180').max(180, 'longitude must be between -180 and 180');
const tags = z.array(z.string().trim().min(1).max(40)).max(10, 'requirements: at most 10 tags');

export const CreateNodeBody = z.object({
  name: z.string().trim().min(1, 'name is required').max(120),
  description: z.string().trim().max(1000).default(''),
  difficulty: NodeDifficulty.default('easy'),
  category: z.string().trim().min(1, 'category is required').max(60),
  points: z.number().int('points must be a whole number').min(1, 'points must be at least 1').max(1000, 'points must be at most 1000'),
  clue: z.string().trim().max(500).default(''),
  address: z.string().trim().max(200).default(''),
  latitude: lat,
  longitude: lng,
  radiusM: z.number().int().min(10, 'radiusM must be at least 10').max(1000, 'radiusM must be at most 1000').default(DEFAULT_NODE_RADIUS_M),
  requiresPhoto: z.boolean().default(false),
  requirements: tags.default([]),
  active: z.boolean().default(true),
});
export type CreateNodeBody = z.infer<typeof CreateNodeBody>;

export const UpdateNodeBody = z
  .object({
    name: z.string().trim().min(1, 'name is required').max(120),
    description: z.string().trim().max(1000),
    difficulty: NodeDifficulty,
    category: z.string().trim().min(1).max(60),
    points: z.number().int().min(1).max(1000),
    clue: z.string().trim().max(500),
    address: z.string().trim().max(200),
    latitude: lat,
    longitude: lng,
    radiusM: z.number().int().min(10).max(1000),
    requiresPhoto: z.boolean(),
    requirements: tags,
    active: z.boolean(),
  })
  .partial()
  .refine((b) => Object.keys(b).length > 0, { message: 'nothing to update' })
  .refine((b) => (b.latitude === undefined) === (b.longitude === undefined), { message: 'latitude and longitude must be given together', path: ['latitude'] });
export type UpdateNodeBody = z.infer<typeof UpdateNodeBody>;

export const CreateHuntBody = z.object({
  name: z.string().trim().min(1, 'name is required').max(120),
  description: z.string().trim().max(1000).default(''),
  reward: z.string().trim().max(200).default(''),
  rewardPoints: z.number().int().min(0).max(10000).default(0),
  ordered: z.boolean().default(false),
  active: z.boolean().default(true),
  nodeIds: z.array(z.uuid('nodeIds must be node ids')).min(1, 'nodeIds: at least one node').max(50),
});
export type CreateHuntBody = z.infer<typeof CreateHuntBody>;

export const UpdateHuntBody = z
  .object({
    name: z.string().trim().min(1).max(120),
    description: z.string().trim().max(1000),
    reward: z.string().trim().max(200),
    rewardPoints: z.number().int().min(0).max(10000),
    ordered: z.boolean(),
    active: z.boolean(),
    nodeIds: z.array(z.uuid('nodeIds must be node ids')).min(1).max(50),
  })
  .partial()
  .refine((b) => Object.keys(b).length > 0, { message: 'nothing to update' });
export type UpdateHuntBody = z.infer<typeof UpdateHuntBody>;

export const IdParams = z.object({ id: z.uuid('id must be an id') });

export const EvidenceBody = z.object({
  latitude: lat,
  longitude: lng,
  accuracy: z.number('accuracy must be a number').min(0, 'accuracy must be at least 0').max(100_000),
  /** A JPEG, PNG or WebP photo as base64 without the data-URL prefix. */
  photo: z.string().max(FLYER_MAX_BASE64_CHARS, 'photo must be at most 8 MB').optional(),
});
export type EvidenceBody = z.infer<typeof EvidenceBody>;

export const EvidenceResponse = z.union([
  z.object({ completed: z.literal(true), pointsEarned: z.number().int(), progress: HuntProgress, huntBonus: z.number().int() }),
  z.object({ completed: z.literal(false), distanceM: z.number(), pending: z.boolean(), progress: HuntProgress }),
]);
export type EvidenceResponse = z.infer<typeof EvidenceResponse>;

export const PendingEvidence = z.object({
  id: z.string(),
  nodeId: z.string(),
  nodeName: z.string(),
  userId: z.string(),
  userName: z.string(),
  distanceM: z.number().nullable(),
  submittedAt: z.string(),
});
/** GET /api/admin/hunt/evidence: the oldest photos waiting (at most 100), and how many wait in all. */
export const PendingEvidenceList = z.object({ evidence: z.array(PendingEvidence), total: z.number().int() });
export type PendingEvidence = z.infer<typeof PendingEvidence>;

export const ReviewParams = z.object({ id: z.uuid('id must be an id'), decision: z.enum(['accept', 'reject'], 'decision must be accept or reject') });
export const ReviewResponse = z.object({ id: z.string(), status: z.enum(['completed', 'rejected']), pointsEarned: z.number().int() });
