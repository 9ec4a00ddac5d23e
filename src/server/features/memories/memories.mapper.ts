import { CodexEntry, GEOSYMBOL_DIFFICULTIES, OUTPUT_TYPES, type Geosymbol, type OutputType } from '../../../contract/memories.ts';
import { z } from 'zod';
import type { GeosymbolView } from './memories.repository.ts';

/** What the service stores in `geosymbols.generated`. */
export const Generated = z.object({
  difficulty: z.enum(GEOSYMBOL_DIFFICULTIES),
  emotional_resonance: z.number(),
  story_trigger: z.string(),
  symbol: z.string(),
  reward: z.object({ points: z.number().int(), description: z.string() }),
  AR_overlay: z.string(),
  linked_codex: z.array(CodexEntry),
  keyPhrases: z.array(z.string()),
  sentiment: z.enum(['positive', 'negative', 'mixed', 'neutral']),
});
export type Generated = z.infer<typeof Generated>;

const authorName = (r: Pick<GeosymbolView, 'authorFirstName' | 'authorLastName'>) =>
  [r.authorFirstName, r.authorLastName ? `${r.authorLastName.slice(0, 1)}.` : null].filter(Boolean).join(' ') || 'A neighbour';

/** A geosymbol row as the viewer sees it (spec section 3 keys plus place, author and the viewer's state). */
export function toGeosymbol(r: GeosymbolView, viewerId: string | null): Geosymbol {
  const g = Generated.parse(r.generated);
  const type: OutputType = (OUTPUT_TYPES as readonly string[]).includes(r.outputType) ? (r.outputType as OutputType) : 'Memory Rune';
  return {
    id: r.id,
    type,
    difficulty: g.difficulty,
    privacy_level: r.privacyLevel,
    emotional_resonance: g.emotional_resonance,
    location: r.locationText,
    story_trigger: g.story_trigger,
    symbol: g.symbol,
    reward: g.reward,
    AR_overlay: g.AR_overlay,
    linked_codex: g.linked_codex,
    metadata: { communityVotes: r.communityVotes, keyPhrases: g.keyPhrases, sentiment: g.sentiment, generator: r.generator },
    placeName: r.placeName,
    lat: r.latitude,
    lng: r.longitude,
    nodeId: r.nodeId,
    author: authorName(r),
    mine: viewerId !== null && viewerId === r.userId,
    voted: r.voted,
    createdAt: r.createdAt.toISOString(),
  };
}
