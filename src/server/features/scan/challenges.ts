// The flyer-scanning challenges: what each asks, what it pays, and the idempotency key that
// makes it pay once (Flyer Hunter once per local week, the others once ever). Pure: the
// service counts the user's scans and pays through the ledger.
import type { ScanChallenge } from '../../../contract/scan.ts';
import { localDay } from '../gaming/rules.ts';

/** What the challenges look at, all from the user's flyer scans. */
export interface ScanFacts {
  /** Scans since Monday 00:00 in the city's zone. */
  thisWeek: number;
  /** Distinct categories of the events the user's scans came to. */
  categories: number;
  /** Scans that brought a venue new to the city. */
  newVenues: number;
}

interface ChallengeDef {
  id: 'flyer_hunter' | 'genre_explorer' | 'new_in_town';
  title: string;
  description: string;
  points: number;
  target: number;
  progress(f: ScanFacts): number;
  /** The ledger key: one award per user (and week, for weekly ones). */
  key(userId: string, weekStart: Date, timeZone: string): string;
}

export const SCAN_CHALLENGES: readonly ChallengeDef[] = [
  {
    id: 'flyer_hunter',
    title: 'Flyer Hunter',
    description: 'Scan 3 flyers this week',
    points: 50,
    target: 3,
    progress: (f) => f.thisWeek,
    key: (userId, weekStart, timeZone) => `scan_challenge:flyer_hunter:${userId}:${localDay(weekStart, timeZone)}`,
  },
  {
    id: 'genre_explorer',
    title: 'Genre Explorer',
    description: 'Scan flyers of events in 3 different categories',
    points: 75,
    target: 3,
    progress: (f) => f.categories,
    key: (userId) => `scan_challenge:genre_explorer:${userId}`,
  },
  {
    id: 'new_in_town',
    title: 'New in Town',
    description: 'Be the first to scan a flyer of a venue new to the city',
    points: 100,
    target: 1,
    progress: (f) => f.newVenues,
    key: (userId) => `scan_challenge:new_in_town:${userId}`,
  },
];

export type ScanChallengeDef = ChallengeDef;

/** The challenges as the page shows them; `paid` holds the keys already in the ledger. */
export function challengeStates(facts: ScanFacts, paid: ReadonlySet<string>, keyOf: (c: ChallengeDef) => string): ScanChallenge[] {
  return SCAN_CHALLENGES.map((c) => {
    const progress = Math.min(c.progress(facts), c.target);
    return { id: c.id, title: c.title, description: c.description, reward: { points: c.points }, progress, target: c.target, completed: paid.has(keyOf(c)) || progress >= c.target };
  });
}
