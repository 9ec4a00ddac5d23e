import { describe, expect, it } from 'vitest';
import type { Geosymbol } from '../../../contract/memories.ts';
import { addToHuntBlocker } from './memory-forge-page.tsx';

const g = (o: Partial<Geosymbol>): Geosymbol => ({
  id: '00000000-0000-4000-8000-000000000001',
  type: 'Memory Rune',
  difficulty: 'easy',
  privacy_level: 'community',
  emotional_resonance: 5,
  location: 'Sellwood',
  story_trigger: 't',
  symbol: 's',
  reward: { points: 10, description: '' },
  AR_overlay: 'o',
  linked_codex: [],
  metadata: { communityVotes: 0, keyPhrases: [], sentiment: 'neutral', generator: 'built-in' },
  placeName: 'Sellwood',
  lat: 45.46,
  lng: -122.65,
  nodeId: null,
  author: 'A',
  mine: true,
  voted: false,
  createdAt: '2026-11-18T20:00:00Z',
  ...o,
});

describe('Add to Active Hunt', () => {
  it("works for the author's geocoded non-private memory and says why not otherwise", () => {
    expect(addToHuntBlocker(g({}))).toBeNull();
    expect(addToHuntBlocker(g({ mine: false }))).toContain('Only the author');
    expect(addToHuntBlocker(g({ privacy_level: 'private' }))).toContain('Private');
    expect(addToHuntBlocker(g({ lat: null, lng: null }))).toContain('not on the map');
    expect(addToHuntBlocker(g({ nodeId: '00000000-0000-4000-8000-000000000002' }))).toContain('Already');
  });
});
