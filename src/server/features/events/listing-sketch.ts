import { haversineM } from '../../lib/geo.ts';

/**
 * A summary of the listed events (every occurrence) from which a filter's size is estimated in
 * memory instead of asking the planner: how many start and end in each hour, how many lie in each
 * cell of a 0.005° grid (about 550 m by 390 m here), and how many have each category and source.
 * It is read once per events version and clock bucket (one scan); an EXPLAIN per new filter cost
 * a round trip and 1 to 4 ms of planning, and its guess for a radius is a fixed fraction, while
 * the sketch knows where the events are.
 */
export interface ListingSketch {
  rows: number;
  /**
   * Hour number (epoch hours) and rows starting, resp. ending, in it, in ascending hour order. A
   * start is in hour h when h <= start < h + 1, an end when h < end <= h + 1: an end on the hour
   * belongs to the hour before, as the window [from, to) leaves out what ends exactly at `from`.
   */
  startHours: Histogram;
  endHours: Histogram;
  cells: { lat: number; lng: number; n: number }[];
  categories: Map<string, number>;
  /** Rows listed under each source type: their own record's, or a record merged into them (an event under each of its types). */
  sourceTypes: Map<string, number>;
  /** Rows per neighbourhood, lower-cased (the filter matches them in any case), when a filter needs them. */
  neighbourhoods?: Map<string, number>;
}

export const SKETCH_CELLS_PER_DEGREE = 200;
const HOUR_MS = 3600_000;

/** Counts per hour, with running sums for counting the rows before or after an instant. */
export interface Histogram {
  hours: number[];
  /** before[i]: rows in the hours before hours[i]. */
  before: number[];
  counts: number[];
}

export function histogram(pairs: readonly (readonly [number, number])[]): Histogram {
  const sorted = [...pairs].sort((a, b) => a[0] - b[0]);
  const hours: number[] = [];
  const counts: number[] = [];
  const before: number[] = [];
  let sum = 0;
  for (const [h, n] of sorted) {
    hours.push(h);
    counts.push(n);
    before.push(sum);
    sum += n;
  }
  return { hours, counts, before };
}

/** Rows whose instant is before `t`, the rows of t's own hour counted by the share of it gone. */
export function countBefore(h: Histogram, t: number): number {
  const hour = Math.floor(t / HOUR_MS);
  // First index whose hour is >= the instant's hour.
  let lo = 0;
  let hi = h.hours.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (h.hours[mid]! < hour) lo = mid + 1;
    else hi = mid;
  }
  const total = h.hours.length ? h.before[h.hours.length - 1]! + h.counts[h.hours.length - 1]! : 0;
  if (lo === h.hours.length) return total;
  const whole = h.before[lo]!;
  return h.hours[lo] === hour ? whole + (h.counts[lo]! * (t - hour * HOUR_MS)) / HOUR_MS : whole;
}

/** What a filter narrows that the sketch knows (no words, listed events only). */
export interface SketchFilter {
  categories?: string[];
  sourceTypes?: string[];
  neighbourhoods?: string[];
  from?: Date;
  to?: Date;
  near?: { lat: number; lng: number; radiusM?: number };
}

/**
 * The rows a filter matches, estimated as the planner does (each condition's share of the rows,
 * taken as independent), but from the listed events themselves.
 */
export function estimateRows(s: ListingSketch, f: SketchFilter): number {
  if (s.rows === 0) return 0;
  let share = 1;
  // At most all of them: an event listed by two of the sources asked for counts under each (sourceTypes).
  const shareOf = (values: string[] | undefined, counts: Map<string, number>) => (values?.length ? Math.min(1, values.reduce((n, v) => n + (counts.get(v) ?? 0), 0) / s.rows) : 1);
  share *= shareOf(f.categories, s.categories);
  share *= shareOf(f.sourceTypes, s.sourceTypes);
  if (s.neighbourhoods) share *= shareOf(f.neighbourhoods && [...new Set(f.neighbourhoods.map((n) => n.toLowerCase()))], s.neighbourhoods);
  if (f.from || f.to) {
    // Overlapping the window [from, to): all rows but those ending at or before `from` and those
    // starting at or after `to` (each by its hour's share, exact on the hour; see startHours).
    const endedBefore = f.from ? countBefore(s.endHours, f.from.getTime()) : 0;
    const startAfter = f.to ? s.rows - countBefore(s.startHours, f.to.getTime()) : 0;
    share *= Math.max(0, s.rows - endedBefore - startAfter) / s.rows;
  }
  if (f.near?.radiusM) share *= withinRadius(s, f.near.lat, f.near.lng, f.near.radiusM) / s.rows;
  return share * s.rows;
}

/**
 * How many of a word's matches are sampled to learn where they lie (see `matchShare`): the word
 * index hands back about this many at random (gin_fuzzy_search_limit), whose rows are read.
 */
export const WORD_SAMPLE = 400;
/**
 * A sample of fewer matches (a rare word, several words, a fragment of a title) says little: it
 * is blended with the whole listing's shares, weighing them as WORD_PRIOR_ROWS sampled matches.
 * A larger one speaks for itself, so a category none of them falls in is estimated at none.
 */
export const WORD_SAMPLE_TRUSTED = 100;
export const WORD_PRIOR_ROWS = 20;

/**
 * The share of a search's matches that a filter's other conditions (category, source, window,
 * place) leave. Words are not spread as the listing is: "tasting" is a Food word, and the Music
 * events that mention it are none of the 21,909 that the listing's shares (taken as independent,
 * as the planner takes them) would give a ninth of its 12,897 matches. So the share is read
 * from a sample of the word's own matches, blended with the listing's while the sample is small.
 */
export function matchShare(f: SketchFilter, listing: ListingSketch, sample: ListingSketch | null): number {
  const overall = listing.rows > 0 ? estimateRows(listing, f) / listing.rows : 0;
  if (!sample?.rows) return overall;
  const own = estimateRows(sample, f) / sample.rows;
  if (sample.rows >= WORD_SAMPLE_TRUSTED) return own;
  return (sample.rows * own + WORD_PRIOR_ROWS * overall) / (sample.rows + WORD_PRIOR_ROWS);
}

/** Rows in the circle: each cell by the share of it inside, judged from its centre's distance. */
function withinRadius(s: ListingSketch, lat: number, lng: number, radiusM: number): number {
  const cellLatM = 111_320 / SKETCH_CELLS_PER_DEGREE;
  let n = 0;
  for (const c of s.cells) {
    const cellLngM = cellLatM * Math.cos((c.lat * Math.PI) / 180);
    const half = Math.hypot(cellLatM, cellLngM) / 2;
    const d = haversineM(lat, lng, c.lat, c.lng);
    if (d >= radiusM + half) continue;
    n += d <= radiusM - half ? c.n : (c.n * (radiusM + half - d)) / (2 * half);
  }
  return n;
}
