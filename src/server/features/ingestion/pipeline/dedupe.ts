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
  return [...prepared(title).tokens];
}

function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const g = s.slice(i, i + 2);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

/** A title or venue name as compared: its tokens, their joined form, set and bigrams. */
interface Prepared {
  tokens: readonly string[];
  joined: string;
  set: ReadonlySet<string>;
  grams: ReadonlyMap<string, number>;
}

/**
 * A run compares each new item with every event near its start, so one title is compared many
 * times: its preparation is kept (bounded; the cache starts over when full).
 */
const CACHE_LIMIT = 50_000;
const cache = new Map<string, Prepared>();
function prepared(text: string): Prepared {
  let p = cache.get(text);
  if (p) return p;
  const tokens = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .split(' ')
    .filter((w) => w && !STOP.has(w));
  const joined = tokens.join(' ');
  p = { tokens, joined, set: new Set(tokens), grams: bigrams(joined) };
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(text, p);
  return p;
}

function diceOf(a: string, A: ReadonlyMap<string, number>, b: string, B: ReadonlyMap<string, number>): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  let overlap = 0;
  for (const [g, n] of A) overlap += Math.min(n, B.get(g) ?? 0);
  return (2 * overlap) / (a.length - 1 + (b.length - 1));
}

/** Dice coefficient of character bigrams: 1 for equal strings, 0 for nothing in common. */
export function dice(a: string, b: string): number {
  return diceOf(a, bigrams(a), b, bigrams(b));
}

export function titleSimilarity(a: string, b: string): number {
  const pa = prepared(a);
  const pb = prepared(b);
  if (!pa.joined || !pb.joined) return 0;
  if (pa.joined === pb.joined) return 1;
  let inter = 0;
  for (const w of pa.set) if (pb.set.has(w)) inter += 1;
  const jaccard = inter / (pa.set.size + pb.set.size - inter);
  // One title containing the other ("Jazz Night" vs "Jazz Night at the Blue Room") counts.
  const contained = inter === Math.min(pa.set.size, pb.set.size) && Math.min(pa.set.size, pb.set.size) >= 2 ? 0.8 : 0;
  return Math.max(diceOf(pa.joined, pa.grams, pb.joined, pb.grams), jaccard, contained);
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
  const pa = prepared(a.venueName);
  const pb = prepared(b.venueName);
  const va = pa.joined;
  const vb = pb.joined;
  if (va && vb && (va === vb || diceOf(va, pa.grams, vb, pb.grams) >= 0.6 || va.includes(vb) || vb.includes(va))) return 'same';
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
