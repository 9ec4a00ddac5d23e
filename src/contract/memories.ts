import { z } from 'zod';

/** Spec section 5: the memory forge's limits, options and messages. */
export const MEMORY_MAX = 1000;
export const OUTPUT_TYPES = ['Memory Rune', 'Story Unlock', 'Emotional XP', 'Map Marker', 'Audio Memory'] as const;
export const PRIVACY_LEVELS = ['public', 'community', 'private'] as const;
export const GEOSYMBOL_DIFFICULTIES = ['easy', 'medium', 'hard', 'expert'] as const;
export const MISSING_FIELDS_MESSAGE = 'Missing Information: Please provide both a location and emotional memory.';
export const FORGE_FAILED_TITLE = 'Memory Forge Failed';
export const FORGE_FAILED_FALLBACK = 'Unable to process your memory. Please try again.';
export const GALLERY_LIMIT = 6;

export const OutputType = z.enum(OUTPUT_TYPES);
export type OutputType = z.infer<typeof OutputType>;
export const PrivacyLevel = z.enum(PRIVACY_LEVELS);
export type PrivacyLevel = z.infer<typeof PrivacyLevel>;

/** POST /api/geosymbol/inject (spec section 7). Empty location or memory is refused with the spec's message by the service. */
export const InjectBody = z.object({
  location: z.string().trim().max(200, 'location must be at most 200 characters').optional().default(''),
  emotionalMemory: z.string().trim().max(MEMORY_MAX, `emotionalMemory must be at most ${MEMORY_MAX} characters`).optional().default(''),
  symbolicElements: z.string().trim().max(300, 'symbolicElements must be at most 300 characters').optional().default(''),
  userContext: z.string().trim().max(300, 'userContext must be at most 300 characters').optional().default(''),
  outputType: OutputType.optional().default('Memory Rune'),
  privacyLevel: PrivacyLevel.optional().default('community'),
});
export type InjectBody = z.input<typeof InjectBody>;

export const CodexEntry = z.object({
  kind: z.enum(['neighbourhood', 'venue', 'event', 'phrase']),
  name: z.string(),
  detail: z.string(),
});
export type CodexEntry = z.infer<typeof CodexEntry>;

/** A forged memory (spec section 3 "Geosymbol") as a viewer may see it. */
export const Geosymbol = z.object({
  id: z.string().uuid(),
  type: OutputType,
  difficulty: z.enum(GEOSYMBOL_DIFFICULTIES),
  privacy_level: PrivacyLevel,
  /** 0..10. */
  emotional_resonance: z.number().min(0).max(10),
  /** The place as the author wrote it. */
  location: z.string(),
  story_trigger: z.string(),
  symbol: z.string(),
  reward: z.object({ points: z.number().int(), description: z.string() }),
  AR_overlay: z.string(),
  linked_codex: z.array(CodexEntry),
  metadata: z.object({
    communityVotes: z.number().int(),
    keyPhrases: z.array(z.string()),
    sentiment: z.enum(['positive', 'negative', 'mixed', 'neutral']),
    generator: z.string(),
  }),
  placeName: z.string().nullable(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  nodeId: z.string().uuid().nullable(),
  author: z.string(),
  /** The viewer wrote it (only then may it be added to a hunt). */
  mine: z.boolean(),
  /** The viewer has voted for it. */
  voted: z.boolean(),
  createdAt: z.string(),
});
export type Geosymbol = z.infer<typeof Geosymbol>;

export const InjectResponse = z.object({ geoSymbol: Geosymbol });
export type InjectResponse = z.infer<typeof InjectResponse>;

/** GET /api/geosymbol/processed: `community` = everything the caller may see at community level (public too). */
export const ProcessedQuery = z.object({
  privacyLevel: PrivacyLevel.optional().default('community'),
  limit: z.coerce.number({ error: 'limit must be a whole number' }).int().min(1, 'limit must be between 1 and 50').max(50, 'limit must be between 1 and 50').optional().default(GALLERY_LIMIT),
});
export const ProcessedResponse = z.object({ symbols: z.array(Geosymbol) });
export type ProcessedResponse = z.infer<typeof ProcessedResponse>;

export const GeosymbolParams = z.object({ id: z.string().uuid() });

export const VoteResponse = z.object({ voted: z.boolean(), communityVotes: z.number().int() });
export type VoteResponse = z.infer<typeof VoteResponse>;

/** POST /api/geosymbol/:id/add-to-hunt. */
export const AddToHuntResponse = z.object({
  geoSymbol: Geosymbol,
  hunt: z.object({ id: z.string().uuid(), name: z.string() }),
  node: z.object({ id: z.string().uuid(), name: z.string(), points: z.number().int(), position: z.number().int() }),
});
export type AddToHuntResponse = z.infer<typeof AddToHuntResponse>;
