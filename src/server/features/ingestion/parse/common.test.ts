import { describe, expect, it } from 'vitest';
import type { CandidateEvent } from '../ingestion.types.ts';
import { uniqueIds } from './common.ts';

const at = (iso: string) => new Date(iso);
const item = (externalId: string, title: string, start: string): CandidateEvent => ({ externalId, title, start: at(start) });

describe('uniqueIds', () => {
  it('drops only an exact repeat: same id, same start, same title', () => {
    const { candidates, duplicates } = uniqueIds([item('a', 'Open Mic', '2026-12-01T03:00:00Z'), item('a', ' open  mic ', '2026-12-01T03:00:00Z')]);
    expect(candidates.map((c) => c.externalId)).toEqual(['a']);
    expect(duplicates).toBe(1);
  });

  it('keeps an id seen again at another start, with the start appended', () => {
    const { candidates } = uniqueIds([item('a', 'Open Mic', '2026-12-01T03:00:00Z'), item('a', 'Open Mic', '2026-12-08T03:00:00Z')]);
    expect(candidates.map((c) => c.externalId)).toEqual(['a', 'a@2026-12-08T03:00:00.000Z']);
  });

  it('keeps an id seen again at the same start under another title: another event, its start then its title appended', () => {
    const { candidates, duplicates } = uniqueIds([
      item('s@tv', 'Episode Part 1 of 3', '2026-12-01T03:00:00Z'),
      item('s@tv', 'Episode Part 2 of 3', '2026-12-01T03:00:00Z'),
      item('s@tv', 'Episode Part 2 of 3', '2026-12-01T03:00:00Z'),
      item('s@tv', 'Episode Part 3 of 3', '2026-12-01T03:00:00Z'),
    ]);
    expect(candidates.map((c) => [c.externalId, c.title])).toEqual([
      ['s@tv', 'Episode Part 1 of 3'],
      ['s@tv@2026-12-01T03:00:00.000Z', 'Episode Part 2 of 3'],
      ['s@tv@2026-12-01T03:00:00.000Z#episode part 3 of 3', 'Episode Part 3 of 3'],
    ]);
    expect(duplicates).toBe(1);
  });
});
