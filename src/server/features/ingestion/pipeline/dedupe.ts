import { haversineM } from './normalise.ts';

// Deduplication: the same event from two sources (or twice in one) has a similar normalised
// title, starts within 30 minutes, and is at the same or a nearby venue. Occurrences of a
// recurring event start at different times, and different events at one venue have different
// titles, so neither merges.

export const START_WINDOW_MS = 30 * 60 * 1000;
const NEARBY_M = 250;
const STOP = new Set(['the', 'a', 'an', 'and', 'of', 'at', 'in', 'on', 'for', 'with', 'to', 'de', 'la', 'le', 'der', 'die', 'das', 'und']);

/** Lower-case words without punctuation, accents or stop words. */
export function titleTokens(title: string): string[] {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .split(' ')
    .filter((w) => w && !STOP.has(w));
}

function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const g = s.slice(i, i + 2);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

/** Dice coefficient of character bigrams: 1 for equal strings, 0 for nothing in common. */
export function dice(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const A = bigrams(a);
  const B = bigrams(b);
  let overlap = 0;
  for (const [g, n] of A) overlap += Math.min(n, B.get(g) ?? 0);
  return (2 * overlap) / (a.length - 1 + (b.length - 1));
}

export function titleSimilarity(a: string, b: string): number {
  const ta = titleTokens(a);
  const tb = titleTokens(b);
  const sa = ta.join(' ');
  const sb = tb.join(' ');
  if (!sa || !sb) return 0;
  if (sa === sb) return 1;
  const setA = new Set(ta);
  const setB = new Set(tb);
  let inter = 0;
  for (const w of setA) if (setB.has(w)) inter += 1;
  const jaccard = inter / (setA.size + setB.size - inter);
  // One title containing the other ("Jazz Night" vs "Jazz Night at the Blue Room") counts.
  const contained = inter === Math.min(setA.size, setB.size) && Math.min(setA.size, setB.size) >= 2 ? 0.8 : 0;
  return Math.max(dice(sa, sb), jaccard, contained);
}

export interface Comparable {
  title: string;
  start: Date;
  venueName: string;
  lat: number | null;
  lng: number | null;
}

/** Same or nearby venue: similar names, or coordinates within 250 m; unknown venues need a near-identical title. */
export function venueMatch(a: Comparable, b: Comparable): 'same' | 'unknown' | 'different' {
  const va = titleTokens(a.venueName).join(' ');
  const vb = titleTokens(b.venueName).join(' ');
  if (va && vb && (va === vb || dice(va, vb) >= 0.6 || va.includes(vb) || vb.includes(va))) return 'same';
  if (a.lat !== null && a.lng !== null && b.lat !== null && b.lng !== null) {
    return haversineM(a.lat, a.lng, b.lat, b.lng) <= NEARBY_M ? 'same' : 'different';
  }
  if (!va || !vb) return 'unknown';
  return 'different';
}

/** Whether two records describe the same event. */
export function isSameEvent(a: Comparable, b: Comparable): boolean {
  if (Math.abs(a.start.getTime() - b.start.getTime()) > START_WINDOW_MS) return false;
  const sim = titleSimilarity(a.title, b.title);
  const venue = venueMatch(a, b);
  if (venue === 'different') return false;
  if (venue === 'unknown') return sim >= 0.9;
  return sim >= 0.7;
}
