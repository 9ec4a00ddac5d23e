import { and, asc, between, desc, eq, getTableColumns, gte, inArray, isNull, lt, gt, ne, sql, type SQL } from 'drizzle-orm';
import { alias, type SubqueryWithSelection } from 'drizzle-orm/pg-core';
import type { EventDetail } from '../../../contract/events.ts';
import { queryRows, type Db } from '../../db/client.ts';
import { pointAwards } from '../gaming/ledger.table.ts';
import { sources } from '../ingestion/sources.table.ts';
import { eventSources, events, favorites, images, venues } from './events.table.ts';
import { estimateRows, histogram, matchShare, SKETCH_CELLS_PER_DEGREE, WORD_SAMPLE, type ListingSketch } from './listing-sketch.ts';

/** Whether the member checked in at the event (its QR code's award in the ledger). */
const checkedIn = (userId: string, eventId: SQL) =>
  sql`exists (select 1 from ${pointAwards} where ${pointAwards.activityType} = 'check_in' and ${pointAwards.eventId} = ${eventId} and ${pointAwards.userId} = ${userId})`;

/**
 * The members an event's attendees count: who saved it or checked in there, each once (the value
 * events.people_count keeps). For recounts after merges and splits, not for lists.
 */
export const peopleOf = (eventId: SQL) =>
  sql`(select count(*)::int from (select ${favorites.userId} from ${favorites} where ${favorites.eventId} = ${eventId}
    union select ${pointAwards.userId} from ${pointAwards} where ${pointAwards.activityType} = 'check_in' and ${pointAwards.eventId} = ${eventId}) as people)`;

export interface EventFilter {
  now: Date;
  categories?: string[];
  sourceTypes?: string[];
  /** Neighbourhood names, matched case-insensitively. */
  neighbourhoods?: string[];
  search?: string;
  from?: Date;
  to?: Date;
  /** Centre and radius in metres for the distance filter. */
  near?: { lat: number; lng: number; radiusM?: number };
  statuses?: ('pending' | 'approved' | 'rejected')[];
  includeEnded?: boolean;
  /** Every occurrence of a recurring event, not only the first the filter lets through. */
  allOccurrences?: boolean;
  /**
   * The longest listed event's duration, in ms: with `from`, events starting before
   * `from - longestMs` cannot reach the window, so the start index is read from there (without it,
   * a window next month reads every event that ends before it). Set by the repository.
   */
  longestMs?: number;
  /**
   * Test the dates on each match of the words rather than through the date indexes: set by the
   * repository when a search's matches are few enough to read them all (see readsMatchesSooner).
   * The planner otherwise intersects the words' matches with every event of the window taken from
   * the start and end indexes ("marathon" in a month: 979 matches ANDed with 33,649 and 38,380
   * entries, 11.2 ms, where reading the matches alone takes about 3).
   */
  wordsFirst?: boolean;
}

export type SortKey = 'relevance' | 'date' | 'distance' | 'popularity';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const tsQuery = (q: string) => sql`websearch_to_tsquery('english', ${q})`;
const earthOf = (lat: number, lng: number) => sql`ll_to_earth(${lat}::float8, ${lng}::float8)`;
const eventEarth = sql`ll_to_earth(${events.lat}, ${events.lng})`;

/**
 * Relevance ranking reads the words of every match, and a broad term matches a large share of
 * the table. When a search matches more than BROAD_MATCHES events (as the planner expects, see
 * plannedMatches), only the soonest RANK_CANDIDATES of them (or as many as the page reaches) are
 * ranked: the best matches of the coming days come first, walked in start order through the
 * listed cards' index (each card's words read from its row: no btree entry can hold the words of a
 * long description, see migration 0021). Over 100,000 events, ranking every match
 * costs about 4 µs a match (a row read and its rank), and finding the soonest 500 about 0.6 µs
 * per card walked (26,000 / matches ms): the two meet near 2,500 matches, at about 10 ms. With
 * 1,000 candidates they met near 3,300 matches and 14 ms. Deeper pages rank more candidates,
 * and the total still counts every match.
 */
export const BROAD_MATCHES = 2500;
export const RANK_CANDIDATES = 500;

/**
 * A search sorted by date walks the listed cards in start order (testing each one's words) until
 * the page is full: quick while matches are dense, as a broad word's are, or the page
 * is near the top. Deep in a rarer word's list the walk passes tens of thousands of cards, and
 * reading every match (the word indexes, then their rows) and sorting them is cheaper: "jazz"
 * (1,839 matches among 100,000) at offset 456 took 40.7 ms by the walk, 5.2 ms read and sorted.
 * The costs per card walked and per match read, in µs, as measured there, when the walk read the
 * words from an index that carried them (dropped in 0021; the walk now reads each card's row).
 */
const WALK_US_PER_CARD = 1.5;
const READ_US_PER_MATCH = 4;

/** Totals up to this many cards are counted exactly; past it, a filtered total is estimated. */
export const EXACT_COUNT_LIMIT = 1000;
/** How long a search's sample serves its estimates without a write (see `wordSketch`). */
export const WORD_SAMPLE_REFRESH_MS = 60 * 60_000;
/** How long the listed events' sketch serves estimates without a write (see `sketch`). */
export const SKETCH_REFRESH_MS = 5 * 60_000;

export interface Total {
  n: number;
  /** True when `n` is the planner's estimate, rounded, not a count. */
  estimated: boolean;
}

/** An estimate to two significant figures (12,345 -> 12,000), so it does not pass for a count. */
export function roundEstimate(n: number): number {
  if (n < 100) return Math.round(n);
  const step = 10 ** (Math.floor(Math.log10(n)) - 1);
  return Math.round(n / step) * step;
}

/** Whether a filter narrows by a category, source, neighbourhood, words or window. */
const narrowsBesidesPlace = (f: EventFilter) => Boolean(f.categories?.length || f.sourceTypes?.length || f.neighbourhoods?.length || f.search || f.from || f.to);

/** Whether a filter lists every upcoming event (no category, source, words, window or place). */
const isUnfiltered = (f: EventFilter) => !narrowsBesidesPlace(f) && !f.near?.radiusM && !f.statuses && !f.includeEnded && !f.allOccurrences;

/** The sphere of earthdistance (`earth()`), in metres. */
const EARTH_RADIUS_M = 6378168;

/**
 * Latitude and longitude bounds of a circle: a superset, which the upcoming-events geo index
 * narrows to (reading no rows) before the exact distance test. The cube box of earth_box is
 * estimated at a handful of rows whatever its size, so the planner walked the GiST index and
 * read every event of a ten-mile circle from the table.
 */
function boundsOf(lat: number, lng: number, radiusM: number): SQL[] {
  const toDeg = 180 / Math.PI;
  const d = (radiusM / EARTH_RADIUS_M) * (1 + 1e-9) + 1e-12; // radians, widened against rounding
  const bounds = [between(events.lat, lat - d * toDeg, lat + d * toDeg)];
  const phi = lat / toDeg;
  // Without a pole or the antimeridian inside the circle, longitude is bounded too.
  if (Math.abs(phi) + d < Math.PI / 2) {
    const dLng = Math.asin(Math.min(1, Math.sin(d) / Math.cos(phi))) * toDeg;
    if (lng - dLng > -180 && lng + dLng < 180) bounds.push(between(events.lng, lng - dLng, lng + dLng));
  }
  return bounds;
}

/**
 * Great-circle metres from a point to the event on the same sphere, in plain arithmetic
 * (haversine): it is what earth_distance computes, but ll_to_earth's domain checks cost about
 * 50 µs a row against 1 µs here, and the radius test runs on every event inside the bounds.
 */
function metresFrom(lat: number, lng: number): SQL {
  const cosLat = Math.cos((lat * Math.PI) / 180);
  return sql`${2 * EARTH_RADIUS_M}::float8 * asin(least(1, sqrt(power(sin(radians(${events.lat} - ${lat}::float8) / 2), 2) + ${cosLat}::float8 * cos(radians(${events.lat})) * power(sin(radians(${events.lng} - ${lng}::float8) / 2), 2))))`;
}

/**
 * The cube around a circle of `radiusM` metres (earthdistance's earth_box, a superset: it bounds
 * the chord, which is shorter than the great circle). The covering GiST index of listed cards
 * (events_cards_earth_idx) finds the events inside from its entries alone.
 */
function inEarthBox(lat: number, lng: number, radiusM: number | SQL): SQL {
  return sql`earth_box(${earthOf(lat, lng)}, (${radiusM})::float8) @> ${eventEarth}`;
}

/** Every column but the tsvector, the widest value of a row, which no reader needs. */
const { search: _search, ...eventColumns } = getTableColumns(events);

/**
 * A listed event: approved and not gone (an event every feed dropped, or its source cancelled,
 * keeps its row, out of lists and counts), as filterConditions tests for the default statuses
 * before its window, ended and series tests. Counts of events starting in a span (the stats'
 * today, the assistant's category counts) test it as is.
 */
export const listedEvent = (): SQL => and(eq(events.status, 'approved'), isNull(events.goneAt))!;

/** Every condition of a filter; `omit` leaves one out (facet counts ignore their own filter). */
export function filterConditions(f: EventFilter, omit?: 'category' | 'sourceType'): SQL[] {
  const c: SQL[] = [];
  c.push(inArray(events.status, f.statuses ?? ['approved']));
  // With wordsFirst the same tests, on expressions no index answers.
  const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
  const startDate = f.wordsFirst ? sql`(${events.startDate} + interval '0 seconds')` : events.startDate;
  const endDate = f.wordsFirst ? sql`(${events.endDate} + interval '0 seconds')` : events.endDate;
  if (!f.includeEnded) c.push(f.wordsFirst ? sql`${endDate} > ${at(f.now)}` : gt(events.endDate, f.now));
  // Events that vanished from every feed listing them stay in the database, out of lists.
  c.push(isNull(events.goneAt));
  if (omit !== 'category' && f.categories?.length) c.push(inArray(events.category, f.categories));
  if (omit !== 'sourceType' && f.sourceTypes?.length) c.push(ofSourceTypes(f.sourceTypes, Boolean(f.search)));
  if (f.neighbourhoods?.length) c.push(inArray(sql`lower(${events.neighbourhood})`, f.neighbourhoods.map((n) => n.toLowerCase())));
  if (f.search) c.push(matchesSearch(f.search));
  // The window is [from, to), as Discover sends it (a custom day ends at the next midnight): an
  // event is in it when it ends after it opens and starts before it closes (see inWindowFrom).
  if (f.wordsFirst) {
    if (f.from) c.push(sql`${endDate} >= ${at(f.from)}`, inWindowFrom(startDate, endDate, at(f.from)));
    if (f.to) c.push(sql`${startDate} < ${at(f.to)}`);
  } else {
    if (f.from) c.push(gte(events.endDate, f.from), inWindowFrom(events.startDate, events.endDate, at(f.from)));
    if (f.from && f.longestMs !== undefined) c.push(gte(events.startDate, new Date(f.from.getTime() - f.longestMs)));
    if (f.to) c.push(lt(events.startDate, f.to));
  }
  if (f.near?.radiusM) {
    c.push(...boundsOf(f.near.lat, f.near.lng, f.near.radiusM));
    c.push(sql`${metresFrom(f.near.lat, f.near.lng)} <= ${f.near.radiusM}::float8`);
  }
  // A recurring event is one card: its first occurrence that the filter lets through.
  // Other statuses (no stored column) look each row up in the series index; OFFSET 0 keeps that a
  // per-row lookup, which PostgreSQL would otherwise turn into an anti-join hashing the table.
  // The words are the one thing occurrences of a series do not share (each week's description
  // tells its own theme): with words, an earlier occurrence hides the row only if it matches them too.
  // A row with no earlier listed occurrence at all (most rows: series_prev_end) is its series' card
  // whatever the words; only the others look their earlier occurrences up (7,288 lookups for
  // "networking" over 100,000 events, 30 of its 59 ms, without this).
  const earlierPasses = sql`not exists (${otherOccurrences(f, 'earlier')} offset 0)`;
  if (!f.allOccurrences) c.push(!isListedOnly(f) ? earlierPasses : f.search ? sql`(${firstOfSeries(f)} or ${earlierPasses})` : firstOfSeries(f));
  return c;
}

/**
 * Beside `end >= from` (the range the end-date indexes read, kept as it was): leaves out an event
 * that ends exactly as the window opens, which only touches it (9 PM to midnight, or an all-day
 * event of the day before), but keeps an instant (start = end) at `from`, which is in it. The
 * planner takes this test as true for nearly every row, so it changes no plan.
 */
const inWindowFrom = (start: SQL | typeof events.startDate, end: SQL | typeof events.endDate, from: SQL) => sql`(${end} <> ${from} or ${start} >= ${from})`;

/**
 * Listed by one of these sources: the event's own record is of one of the types, or a record of
 * another source merged into it is (other_source_types, kept by migration 0038's triggers; null
 * for an event with none, for which the second test is null and costs nothing). The listing
 * indexes carry both columns, so the test reads no rows. With words, the same test on the types as
 * one array, the expression the words index holds (events_cards_words_idx): the index then finds
 * the source's matches itself ("yoga" within meetup: 1,358 rows of every source read and tested,
 * 3.7 ms, where the index hands back the meetup ones).
 */
const ofSourceTypes = (types: string[], inWordsIndex = false) => {
  const list = sql`array[${sql.join(
    types.map((t) => sql`${t}`),
    sql`, `,
  )}]::text[]`;
  return inWordsIndex
    ? sql`(array[${events.sourceType}] || ${events.otherSourceTypes}) && ${list}`
    : sql`(${inArray(events.sourceType, types)} or ${events.otherSourceTypes} && ${list})`;
};

/** Counts per event grouped by its own type and its merged records' types, as `n` per source type: an event counts once under each of its types. */
type TypesCount = { own: string | null; others: string[] | string | null; n: number };

/** `n` of each group added to its own type and to each of its other types (see TypesCount). */
function countByType(rows: readonly TypesCount[]): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (type: string, n: number) => counts.set(type, (counts.get(type) ?? 0) + n);
  for (const r of rows) {
    const n = Number(r.n);
    if (r.own !== null) add(r.own, n);
    for (const other of typesOf(r.others)) add(other, n);
  }
  return counts;
}

/** Facet values, most first, then by value. */
const byCountThenValue = (values: { value: string; count: number }[]) => values.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));

/** A text[] as either driver hands it back: an array, or its literal ('{meetup,rss}') when left unparsed. */
function typesOf(v: string[] | string | null): string[] {
  if (v === null) return [];
  if (Array.isArray(v)) return v;
  const inner = v.replace(/^\{|\}$/g, '');
  return inner ? inner.split(',').map((x) => x.replace(/^"|"$/g, '')) : [];
}

/** Ranked full text (word forms via the english stemmer), and always a plain title substring; of the row, or of occurrence `o`. */
const matchesSearch = (search: string, of?: 'o') =>
  of
    ? sql`(o.search @@ ${tsQuery(search)} or lower(o.title) like ${`%${escapeLike(search.toLowerCase())}%`})`
    : sql`(${events.search} @@ ${tsQuery(search)} or lower(${events.title}) like ${`%${escapeLike(search.toLowerCase())}%`})`;

/** Whether a filter lists only approved events, the ones `series_prev_end` is kept for. */
const isListedOnly = (f: EventFilter) => !f.statuses || (f.statuses.length === 1 && f.statuses[0] === 'approved');

/**
 * No earlier occurrence of the row's series passes the filter. An earlier one passes when it is
 * listed, has not ended (unless ended ones are included) and ends after the window opens; its
 * start is before the row's, so before the window closes too. `series_prev_end` holds the latest
 * end among the listed occurrences that start strictly earlier (migrations 0014 and 0024:
 * occurrences at the same moment are each their own card), so the test reads the row alone.
 * An earlier occurrence ending exactly as the window opens only touches it, so the row is the
 * series' card then (`<=`); the column cannot tell an earlier instant (start = end) at `from`
 * apart, which is in the window: such a series shows that instant and this row, two cards.
 */
export function firstOfSeries(f: Pick<EventFilter, 'now' | 'includeEnded' | 'from'>): SQL {
  const passed: SQL[] = [sql`${events.seriesPrevEnd} is null`];
  if (!f.includeEnded) passed.push(sql`${events.seriesPrevEnd} <= ${f.now.toISOString()}::timestamptz`);
  if (f.from) passed.push(sql`${events.seriesPrevEnd} <= ${f.from.toISOString()}::timestamptz`);
  return sql`(${sql.join(passed, sql` or `)})`;
}

/**
 * The series' other occurrences that the filter lets through, earlier or later than the row
 * in hand: status, dates and (for earlier ones) the words. Category, source and place are the
 * same for every occurrence of a series (one title at one place, decision 004), so they are not
 * tested again; the words are not (a weekly club's description names each week's theme).
 */
function otherOccurrences(f: EventFilter, which: 'earlier' | 'later', select: SQL = sql`1`): SQL {
  const c: SQL[] = [
    sql`o.series_key = ${events.seriesKey}`,
    sql`o.status in (${sql.join(
      (f.statuses ?? ['approved']).map((x) => sql`${x}`),
      sql`, `,
    )})`,
    sql`o.gone_at is null`,
  ];
  if (!f.includeEnded) c.push(sql`o.end_date > ${f.now.toISOString()}::timestamptz`);
  // The window as filterConditions tests it: [from, to), an instant at `from` in it.
  if (f.from) {
    const from = sql`${f.from.toISOString()}::timestamptz`;
    c.push(sql`o.end_date >= ${from}`, inWindowFrom(sql`o.start_date`, sql`o.end_date`, from));
  }
  if (f.to) c.push(sql`o.start_date < ${f.to.toISOString()}::timestamptz`);
  // Strictly earlier or later: occurrences at the same moment are each their own card.
  c.push(which === 'earlier' ? sql`o.start_date < ${events.startDate}` : sql`o.start_date > ${events.startDate}`);
  // The card is the first occurrence the words find; later dates count whatever they say.
  if (which === 'earlier' && f.search) c.push(matchesSearch(f.search, 'o'));
  return sql`select ${select} from ${events} o where ${sql.join(c, sql` and `)}`;
}

/**
 * What a card shows (the columns toEventSummary reads): lists read only these, not the
 * description and bookkeeping columns a detail page needs. On the embedded database, turning a
 * row's columns into values costs more than finding the row.
 */
const cardColumns = {
  id: events.id,
  title: events.title,
  category: events.category,
  categoryConfidence: events.categoryConfidence,
  sourceType: events.sourceType,
  sourceUrl: events.sourceUrl,
  imageId: events.imageId,
  startDate: events.startDate,
  endDate: events.endDate,
  timeZone: events.timeZone,
  allDay: events.allDay,
  venueName: events.venueName,
  address: events.address,
  neighbourhood: events.neighbourhood,
  lat: events.lat,
  lng: events.lng,
  attendeeCount: events.attendeeCount,
  checkinCount: events.checkinCount,
  peopleCount: events.peopleCount,
  price: events.price,
  priceMax: events.priceMax,
  priceNote: events.priceNote,
  isFree: events.isFree,
  isVerified: events.isVerified,
  isDemo: events.isDemo,
  status: events.status,
  premergeStatus: events.premergeStatus,
  favoriteCount: events.favoriteCount,
};
type CardEvent = Pick<typeof events.$inferSelect, keyof typeof cardColumns>;

const summaryColumns = (userId: string | null, near: { lat: number; lng: number } | undefined, f?: EventFilter, columns: typeof cardColumns | typeof eventColumns = eventColumns) => ({
  event: columns,
  imageWidth: sql<number | null>`(select ${images.width} from ${images} where ${images.id} = ${events.imageId} and ${images.status} = 'ready')`,
  // Later dates, not later rows: two occurrences at one moment are one more date.
  moreDates: f && !f.allOccurrences ? sql<number>`(select count(distinct later.start_date)::int from (${otherOccurrences(f, 'later', sql`o.start_date`)}) later)` : sql<number>`0`,
  isFavorited: userId
    ? sql<boolean>`exists (select 1 from ${favorites} where ${favorites.eventId} = ${events.id} and ${favorites.userId} = ${userId})`
    : sql<boolean>`false`,
  distanceM: near
    ? sql<number | null>`case when ${events.lat} is null or ${events.lng} is null then null else ${metresFrom(near.lat, near.lng)} end`
    : sql<number | null>`null`,
});

export type SummaryRow = {
  event: CardEvent;
  isFavorited: boolean;
  distanceM: number | null;
  /** The original width of the kept image, when there is one. */
  imageWidth?: number | null;
  /** Later occurrences of its series within the list's filter. */
  moreDates?: number;
};

/** A row with every column of the event (but its words), as a detail page reads it. */
export type DetailRow = SummaryRow & { event: Omit<typeof events.$inferSelect, 'search'> };

/**
 * Aggregates (list totals, facets, stats) are kept for the current value of the events
 * version (a sequence that every write changing them moves, see migration 0007) and at most
 * AGGREGATE_BUCKET_MS of the app's clock (what has ended moves with time, not with writes).
 * A write still uncommitted when its count is read can leave that count behind for at most one
 * bucket.
 */
export const AGGREGATE_BUCKET_MS = 15_000;
const AGGREGATE_MAX_ENTRIES = 2000;

function createAggregateCache(onPrevious?: (now: Date) => void) {
  const entries = new Map<string, Promise<unknown>>();
  /** Values of loads that succeeded, for serving while their next bucket loads. */
  const values = new Map<string, unknown>();
  const evictOldest = () => {
    const oldest = entries.keys().next().value!;
    entries.delete(oldest);
    values.delete(oldest);
  };
  const get = <T>(key: string, load: () => PromiseLike<T>): Promise<T> => {
    let hit = entries.get(key) as Promise<T> | undefined;
    if (!hit) {
      // Promise.resolve: a Drizzle query is a lazy thenable that would run again on every await.
      const loading = Promise.resolve(load());
      hit = loading;
      // A failed query is not kept.
      loading.then(
        (v) => {
          if (entries.get(key) === loading) values.set(key, v);
        },
        () => entries.delete(key),
      );
      if (entries.size >= AGGREGATE_MAX_ENTRIES) evictOldest();
      entries.set(key, hit);
    }
    return hit;
  };
  return Object.assign(get, {
    /**
     * The value of `key` once loaded; until then undefined, the load started (once): for what an
     * answer may do without, so that no request waits for it.
     */
    ready<T>(key: string, load: () => PromiseLike<T>): T | undefined {
      if (values.has(key)) return values.get(key) as T;
      get(key, load).catch(() => undefined);
      return undefined;
    },
    /**
     * Per events version and clock bucket, as `get`; when only the clock has moved on to the next
     * bucket, the previous bucket's value is answered while the new one loads in the background,
     * so no request waits for a whole-listing aggregate. At most two buckets old; a write (a new
     * version) or a longer gap always waits for the fresh value.
     */
    bucketed<T>(base: string, now: Date, load: () => PromiseLike<T>, opts: { bucketMs?: number; estimate?: boolean } = {}): Promise<T> {
      const bucket = Math.floor(now.getTime() / (opts.bucketMs ?? AGGREGATE_BUCKET_MS));
      const key = `${base}|${bucket}`;
      const previous = `${base}|${bucket - 1}`;
      if (!entries.has(key) && values.has(previous)) {
        get(key, load).catch(() => undefined);
        // An estimate a little old is still an estimate: only an exact figure makes the answer provisional.
        if (!opts.estimate) onPrevious?.(now);
        return Promise.resolve(values.get(previous) as T);
      }
      return get(key, load);
    },
  });
}

/** The filter as a cache key: everything but `now`, which counts through its bucket. */
const filterKey = (f: EventFilter) => JSON.stringify({ ...f, now: Math.floor(f.now.getTime() / AGGREGATE_BUCKET_MS) });

interface FacetRow {
  g: number;
  category: string | null;
  source_type: string | null;
  other_source_types: string[] | string | null;
  for_category: number;
  for_source: number;
  n: number;
}

type FacetValues = { values: { value: string; count: number }[]; estimated: boolean };
export interface FacetsResult {
  categories: FacetValues;
  sourceTypes: FacetValues;
  total: Total;
}

interface SketchRow {
  g: number;
  sh: number | null;
  eh: number | null;
  cy: number | null;
  cx: number | null;
  category: string | null;
  source_type: string | null;
  other_source_types: string[] | string | null;
  n: number;
}

/** Queries on events, their sources and favourites; no rules here. */
/**
 * The review queue: pending events an approval would list. One its source no longer lists (gone)
 * or that has ended would not be, whatever the admin decides: it stays pending, out of the queue,
 * and is back in it if its source lists it again.
 */
export function awaitingReview(now: Date): SQL {
  return and(eq(events.status, 'pending'), isNull(events.goneAt), gt(events.endDate, now))!;
}

/** One source's link to an event, through the event's own record or one merged into it, and what that record says now. */
export interface SourceLink {
  /** The event asked about (the record's, or the one it is merged into). */
  eventId: string;
  /** The record the link belongs to. */
  record: string;
  sourceType: string;
  url: string;
  name: string;
  sourceId: string | null;
  /** The record is not gone from its source. */
  live: boolean;
  /** Gone because its source said so. */
  calledOff: 'cancelled' | 'postponed' | null;
}
export type SourcesSay = Pick<EventDetail, 'calledOffBy' | 'stillListedBy'>;

/** Which sources call an event off and which still list it, from its links in the order seen: one entry per source name. */
export function sourcesSayOf(links: readonly Pick<SourceLink, 'name' | 'live' | 'calledOff'>[]): SourcesSay {
  const say: SourcesSay = { calledOffBy: [], stillListedBy: [] };
  for (const l of links) {
    if (l.calledOff && !say.calledOffBy.some((c) => c.name === l.name)) say.calledOffBy.push({ name: l.name, kind: l.calledOff });
    if (l.live && !say.stillListedBy.includes(l.name)) say.stillListedBy.push(l.name);
  }
  return say;
}

export function createEventsRepository(db: Db) {
  /** The links of the events' own records and of the records merged into them, in the order they were seen. */
  const sourceLinks = async (eventIds: readonly string[]): Promise<SourceLink[]> => {
    if (!eventIds.length) return [];
    const ids = sql`${sql.param([...eventIds])}::uuid[]`;
    return queryRows<SourceLink>(
      db,
      sql`select case when r.id = any(${ids}) then r.id else r.merged_into end as "eventId", r.id as record, l.source_type as "sourceType", l.url, l.name, l.source_id as "sourceId",
          r.gone_at is null as live,
          case when r.gone_at is null then null when r.cancelled_by_source then 'cancelled' when r.postponed_by_source then 'postponed' end as "calledOff"
        from ${eventSources} l join ${events} r on r.id = l.event_id
        where r.id = any(${ids}) or r.merged_into = any(${ids})
        order by l.seen_at`,
    );
  };
  // Clock readings (requests) that were answered from the previous bucket.
  const provisional = new WeakSet<Date>();
  const cached = createAggregateCache((now) => provisional.add(now));
  const readVersionNow = async () => {
    // Both drivers answer execute() with { rows }.
    const result = (await db.execute(sql`select last_value::text || (case when is_called then '+' else '' end) as v from events_version_seq`)) as unknown as { rows: { v: string }[] };
    return result.rows[0]?.v ?? '';
  };
  // Requests arriving while a read is under way share it (it may miss a write committed during
  // that one round trip, as a read started a moment earlier would); one after another, each reads.
  let versionInFlight: Promise<string> | null = null;
  const readVersion = () => {
    if (!versionInFlight) {
      const read = readVersionNow();
      versionInFlight = read;
      const clear = () => {
        if (versionInFlight === read) versionInFlight = null;
      };
      read.then(clear, clear);
    }
    return versionInFlight;
  };
  /** The longest listed event, kept per events version (one read of the listed rows' dates). */
  const longest = (now: Date) =>
    versionFor({ now }).then((v) =>
      cached.bucketed(`longest|${v}`, now, async () => {
        const [row] = await db
          .select({ ms: sql<number | null>`(extract(epoch from max(${events.endDate} - ${events.startDate})) * 1000)::float8` })
          .from(events)
          .where(and(...filterConditions({ now, allOccurrences: true })));
        return Math.ceil(Number(row?.ms ?? 0)) + 1000;
      }),
    );
  // A request's list, count and facets receive one filter object: the bound is read once for it.
  const resolved = new WeakMap<EventFilter, Promise<EventFilter>>();
  const withWindowBound = (f: EventFilter): Promise<EventFilter> => {
    if (!f.from || f.longestMs !== undefined) return Promise.resolve(f);
    let r = resolved.get(f);
    if (!r) resolved.set(f, (r = longest(f.now).then((longestMs) => ({ ...f, longestMs }))));
    return r;
  };
  // One version read per request: keyed by its clock reading, which every filter derived from
  // the request's (its list, count, facets, window bound and whole-listing totals) carries.
  const versions = new WeakMap<Date, Promise<string>>();
  const versionFor = (f: { now: Date }) => {
    let v = versions.get(f.now);
    if (!v) versions.set(f.now, (v = readVersion()));
    return v;
  };
  /**
   * The listed cards (a series is one) and the rows of the default filter (every upcoming listed
   * event), exactly: the unfiltered total, and the cards-per-row ratio estimates scale by. One
   * read of the upcoming index, the series test being a column it carries.
   */
  const listedTotals = (now: Date) =>
    versionFor({ now }).then((v) =>
      cached.bucketed(`listed|${v}`, now, async () => {
        const [row] = await db
          .select({ rows: sql<number>`count(*)::int`, cards: sql<number>`(count(*) filter (where ${firstOfSeries({ now })}))::int` })
          .from(events)
          .where(and(...filterConditions({ now, allOccurrences: true })));
        return { rows: row?.rows ?? 0, cards: row?.cards ?? 0 };
      }),
    );
  /**
   * An estimate of the rows a filter matches, every occurrence counted (no rows are read); `omit`
   * leaves a facet's own filter out. Without words, from the listing sketch (the planner only for
   * other statuses or ended events); with words, plannedMatches.
   */
  const plannedRows = (f: EventFilter, omit?: 'category' | 'sourceType'): Promise<number> => {
    const g = omit === 'category' ? { ...f, categories: undefined } : omit === 'sourceType' ? { ...f, sourceTypes: undefined } : f;
    if (g.search) return plannedMatches(g, g.search);
    // Listed events narrowed by category, source, neighbourhood, window or place: from the sketch, in memory.
    if (isListedOnly(g) && !g.includeEnded) return withNeighbourhoods(g, sketch(g.now)).then((s) => estimateRows(s, g));
    return plannedRowsOf(filterConditions({ ...g, allOccurrences: true }));
  };
  /**
   * The listed events' sketch (see listing-sketch.ts): one scan (about 250 ms over 100,000 events
   * on this 2-core machine), made again after a write, and every SKETCH_REFRESH_MS for the events
   * that ended meanwhile. A write is waited for (its events count at once); when only the clock
   * moved on, the last sketch answers while the next is made.
   */
  let lastSketch: { version: string; bucket: number; value: ListingSketch } | null = null;
  const sketch = async (now: Date): Promise<ListingSketch> => {
    const version = await versionFor({ now });
    const bucket = Math.floor(now.getTime() / SKETCH_REFRESH_MS);
    const fresh = cached(`sketch|${version}|${bucket}`, () => loadSketch(now));
    if (lastSketch?.version === version && lastSketch.bucket === bucket) return lastSketch.value;
    void fresh.then((value) => {
      if (!lastSketch || lastSketch.bucket <= bucket) lastSketch = { version, bucket, value };
    }, () => undefined);
    return lastSketch?.version === version ? lastSketch.value : fresh;
  };
  /**
   * The listed events per neighbourhood (lower-cased), for the few requests that filter by one (the
   * assistant, API clients): the column is in no index, so the sketch's index-only scan leaves it
   * out and this scan of the rows is made only when asked, once per events version and bucket.
   */
  const neighbourhoodCounts = async (now: Date): Promise<Map<string, number>> => {
    const version = await versionFor({ now });
    return cached(`neighbourhoods|${version}|${Math.floor(now.getTime() / SKETCH_REFRESH_MS)}`, async () => {
      const rows = await db
        .select({ nb: sql<string>`lower(${events.neighbourhood})`, n: sql<number>`count(*)::int` })
        .from(events)
        .where(and(...filterConditions({ now, allOccurrences: true }), sql`${events.neighbourhood} is not null`))
        .groupBy(sql`1`);
      return new Map(rows.map((r) => [r.nb, Number(r.n)]));
    });
  };
  const withNeighbourhoods = async (f: EventFilter, s: Promise<ListingSketch>): Promise<ListingSketch> =>
    f.neighbourhoods?.length ? { ...(await s), neighbourhoods: await neighbourhoodCounts(f.now) } : s;
  /**
   * A sketch of a search's listed matches, from a random sample of about WORD_SAMPLE of them (the
   * word indexes hand back a random subset under gin_fuzzy_search_limit; the bitmap scans are the
   * only plan allowed, so the limit applies): where its matches lie (see matchShare). Made once
   * per word and events version, in the background: its 400 rows lie on as many pages, most of
   * them outside PostgreSQL's buffers, 12 to 28 ms over 100,000 events, which a request waiting
   * for it paid (ranked search p95 25 -> 33 ms in the bench). Until it is there, null: the
   * estimate takes the word and the filter as independent. Made again each WORD_SAMPLE_REFRESH_MS
   * too, for the matches that ended meanwhile.
   */
  const wordSketch = async (now: Date, search: string): Promise<ListingSketch | null> => {
    const v = await versionFor({ now });
    const bucket = Math.floor(now.getTime() / WORD_SAMPLE_REFRESH_MS);
    return cached.ready(`words|${v}|${bucket}|${search}`, () => loadSketch(now, search)) ?? null;
  };
  const loadSketch = async (now: Date, search?: string): Promise<ListingSketch> => {
    const per = SKETCH_CELLS_PER_DEGREE;
    // A search's listed matches are found from the listed cards' word index alone (OFFSET 0 keeps
    // the end date out of it), then those not ended kept; the subquery keeps the table's name.
    const from = search
      ? sql`(select * from ${events} where ${and(...filterConditions({ now, search, allOccurrences: true, includeEnded: true }))} offset 0) ${events}`
      : events;
    // An end is tallied in the hour that leads up to it (one at midnight in 23:00's), so the rows
    // ending exactly as a window opens count as ended before it (see estimateRows).
    // The source types are grouped by the own one and by the merged records' ones (a handful of
    // distinct arrays), added up per type here (countByType) rather than unnested row by row.
    const query = sql`
      select grouping(sh, eh, cy, cx, category, source_type, other_source_types)::int as g, sh, eh, cy, cx, category, source_type, other_source_types, count(*)::int as n
      from (
        select floor(date_part('epoch', ${events.startDate}) / 3600)::int as sh, ceil(date_part('epoch', ${events.endDate}) / 3600)::int - 1 as eh,
          floor(${events.lat} * ${per}::float8)::int as cy, floor(${events.lng} * ${per}::float8)::int as cx, ${events.category} as category, ${events.sourceType} as source_type,
          ${events.otherSourceTypes} as other_source_types
        from ${from} where ${and(...filterConditions({ now, allOccurrences: true }))}
      ) listed
      group by grouping sets ((sh), (eh), (cy, cx), (category), (source_type), (other_source_types))`;
    const result = (
      search
        ? await db.transaction(async (tx) => {
            await tx.execute(sql.raw(`set local gin_fuzzy_search_limit = ${WORD_SAMPLE}`));
            await tx.execute(sql.raw('set local enable_seqscan = off'));
            await tx.execute(sql.raw('set local enable_indexscan = off'));
            return tx.execute(query);
          })
        : await db.execute(query)
    ) as unknown as { rows: SketchRow[] };
    const s: ListingSketch = { rows: 0, startHours: histogram([]), endHours: histogram([]), cells: [], categories: new Map(), sourceTypes: new Map() };
    const starts: [number, number][] = [];
    const ends: [number, number][] = [];
    const types: TypesCount[] = [];
    // grouping(): a bit per column, set where the row is not grouped by it (first column highest).
    for (const r of result.rows) {
      const n = Number(r.n);
      if (r.g === 0b0111111) {
        starts.push([Number(r.sh), n]);
        s.rows += n;
      } else if (r.g === 0b1011111) ends.push([Number(r.eh), n]);
      else if (r.g === 0b1100111 && r.cy !== null && r.cx !== null) s.cells.push({ lat: (Number(r.cy) + 0.5) / per, lng: (Number(r.cx) + 0.5) / per, n });
      else if (r.g === 0b1111011 && r.category !== null) s.categories.set(r.category, n);
      else if (r.g === 0b1111101) types.push({ own: r.source_type, others: null, n });
      else if (r.g === 0b1111110) types.push({ own: null, others: r.other_source_types, n });
    }
    s.sourceTypes = countByType(types);
    s.startHours = histogram(starts);
    s.endHours = histogram(ends);
    return s;
  };
  const plannedRowsOf = async (conds: SQL[]): Promise<number> => {
    const result = (await db.execute(sql`explain (format json) select 1 from ${events} where ${and(...conds)}`)) as unknown as { rows: Record<string, unknown>[] };
    const cell = result.rows[0] ? Object.values(result.rows[0])[0] : undefined;
    const plan = (typeof cell === 'string' ? JSON.parse(cell) : cell) as { Plan?: { 'Plan Rows'?: number } }[] | undefined;
    return Math.max(0, Number(plan?.[0]?.Plan?.['Plan Rows'] ?? 0));
  };
  /** Cards estimated from planned rows, scaled by the listed cards per row and rounded to two figures. */
  const toCards = async (rows: number, now: Date): Promise<number> => {
    const totals = await listedTotals(now);
    const perRow = totals.rows > 0 ? totals.cards / totals.rows : 1;
    return roundEstimate(Math.min(rows * perRow, totals.cards));
  };
  /**
   * A page that reads every match of a search anyway (a ranked search of a word that is not broad,
   * a date-sorted one read and sorted rather than walked) counts them with `count(*) over ()` for
   * its filter's total, sparing the count a second read of the matches (rows read from the heap).
   * Null when it could not tell (the page does not read every match, is past the last match, or
   * failed). Keyed by the request's filter as `list` and `count` both receive it: the list claims
   * it before its first wait, so the count, running beside it, always finds the claim (before, the
   * count often looked first and read the matches a second time: 77 of 143 ranked-search misses).
   */
  const pageTotals = new WeakMap<EventFilter, Promise<number | null>>();
  /**
   * The list's side of pageTotals: settle once with the page's count, or null. No claim (null) for
   * a page that never reads every match (no words, or sorted by popularity or distance).
   */
  const claimPageTotal = (original: EventFilter, sort: SortKey): ((n: number | null) => void) | null => {
    if (!original.search || sort === 'popularity' || sort === 'distance' || pageTotals.has(original)) return null;
    let settle: (n: number | null) => void = () => {};
    pageTotals.set(original, new Promise<number | null>((resolve) => (settle = resolve)));
    return settle;
  };
  /** The filter's cards, counted up to one past EXACT_COUNT_LIMIT. */
  const countBounded = async (f: EventFilter): Promise<number> => {
    const conds = filterConditions(f);
    // A place and nothing else that has an index of its own (a category, source, word or
    // window): the circle's box in the covering GiST index of listed cards, which holds every
    // other column the filter tests. The latitude band of the B-tree crosses the whole city:
    // 3.5 to 4.2 ms against 1.2 to 1.5 ms for a one-mile circle over 100,000 events.
    const near = f.near;
    if (near?.radiusM && isListedOnly(f) && !f.includeEnded && !narrowsBesidesPlace(f)) {
      conds.push(inEarthBox(near.lat, near.lng, near.radiusM));
    }
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(db.select({ one: sql`1` }).from(events).where(and(...conds)).limit(EXACT_COUNT_LIMIT + 1).as('bounded'));
    return row?.n ?? 0;
  };
  /**
   * A filter's total. Its size is first estimated (plannedRows, reading no rows): a small set
   * (at most EXACT_COUNT_LIMIT) is counted exactly, bounded; the unfiltered list is counted exactly
   * once per events version; any other broad filter gets the estimate, marked as such. An exact
   * count of a broad filter reads every match and tests each for an earlier occurrence of its
   * series: about 150 ms over 100,000 events, for a figure people read as "about".
   */
  const exactOrEstimate = async (f: EventFilter): Promise<Total> => {
    const planned = await plannedRows(f);
    if (planned <= EXACT_COUNT_LIMIT) {
      // A ranked page of the same filter that reads every match counts them on the way.
      const counted = await pageTotals.get(f);
      const n = counted ?? (await countBounded({ ...f, wordsFirst: await readsMatchesSooner(f) }));
      // The planner can be wrong; past the bound the estimate stands, never below the bound.
      if (n <= EXACT_COUNT_LIMIT) return { n, estimated: false };
      return { n: Math.max(EXACT_COUNT_LIMIT + 1, await toCards(planned, f.now)), estimated: true };
    }
    return { n: await toCards(planned, f.now), estimated: true };
  };
  /**
   * How many events a search matches, as the planner expects (reading no rows): the word matches,
   * or half the title-substring matches when that is more. Their sum, which the planner gives for
   * the two together, counts twice the events matching both (most), overshooting about twofold.
   * The word estimate is close (1,260 planned where 1,244 match); the substring one ranges from
   * right to 2.3 times over (titles with "meditation": 2,871 planned, 1,244 there), which alone
   * would call a word broad and walk 35,000 cards for its soonest matches (25 ms) instead of
   * ranking them all (5 ms). Halved, it still counts for a fragment that matches no word ("ytho").
   */
  const plannedMatchesOf = (f: EventFilter, search: string) =>
    versionFor(f).then((v) => cached(`matches|${v}|${filterKey(f)}`, () => plannedSearch(f, search)));
  const plannedSearch = async (f: EventFilter, search: string): Promise<number> => {
    const base = filterConditions({ ...f, search: undefined, allOccurrences: true });
    const [words, titles] = await Promise.all([
      plannedRowsOf([...base, sql`${events.search} @@ ${tsQuery(search)}`]),
      plannedRowsOf([...base, sql`lower(${events.title}) like ${`%${escapeLike(search.toLowerCase())}%`}`]),
    ]);
    return Math.max(words, titles / 2);
  };
  /**
   * A word's planned matches among all listed events: per events version and SKETCH_REFRESH_MS,
   * the last value answering while the next is asked (the planner's figure moves with writes and
   * statistics, not with each 15 s of the clock, and each asking is two EXPLAINs).
   */
  const wordMatches = (now: Date, search: string) =>
    versionFor({ now }).then((v) => cached.bucketed(`word|${v}|${search}`, now, () => plannedSearch({ now }, search), { bucketMs: SKETCH_REFRESH_MS, estimate: true }));
  /**
   * A search narrowed by category, source, window or place: the word's matches among all listed
   * events (wordMatches: once per word and 5 minutes) times the share of them the other filters
   * leave, read from a sample of the word's matches (matchShare). Asking the planner per filter cost two EXPLAINs for
   * every new window or category a word came with, and it takes the word and the category as
   * independent: "tasting" among Music events, which has none, was planned at 2,700 and walked
   * every Music card for the soonest of them (66 ms over 100,000 events).
   */
  const plannedMatches = async (f: EventFilter, search: string): Promise<number> => {
    if (!isListedOnly(f) || f.includeEnded) return plannedMatchesOf(f, search);
    // Keyed by the word alone: a sort's centre or a page's other fields do not change the estimate.
    const words = wordMatches(f.now, search);
    const narrowed = f.categories?.length || f.sourceTypes?.length || f.neighbourhoods?.length || f.from || f.to || f.near?.radiusM;
    if (!narrowed) return words;
    const [w, s, sample] = await Promise.all([words, withNeighbourhoods(f, sketch(f.now)), wordSketch(f.now, search)]);
    // A word's sample knows no neighbourhoods: their share is the listing's (taken as independent).
    const place = f.neighbourhoods?.length ? estimateRows(s, { neighbourhoods: f.neighbourhoods }) / Math.max(1, s.rows) : 1;
    return w * matchShare({ ...f, neighbourhoods: undefined }, s, sample) * place;
  };
  /**
   * Whether a date-sorted page of a search is found sooner by reading every match of its words
   * and sorting them than by walking the cards in start order (see WALK_US_PER_CARD). The walk
   * crosses the cards of the window (all cards without one) at the rate the filter's matches
   * occur among them; the read takes every match of the words, whatever else the filter says.
   * Estimates only (the planner once per word and 5 minutes, the sketch): no rows are read to decide.
   */
  const readsMatchesSooner = async (f: EventFilter, page?: { limit: number; offset: number }): Promise<boolean> => {
    if (!f.search || !isListedOnly(f) || f.includeEnded) return false;
    const [words, matches, s] = await Promise.all([wordMatches(f.now, f.search), plannedMatches(f, f.search), sketch(f.now)]);
    const span = f.from || f.to ? estimateRows(s, { from: f.from, to: f.to }) : s.rows;
    // A count crosses the whole span.
    const walked = page && matches > 0 ? Math.min(span, ((page.offset + page.limit) * span) / matches) : span;
    return words * READ_US_PER_MATCH < walked * WALK_US_PER_CARD;
  };
  // A request's list and count receive the same filter object: the count runs once (or not at
  // all, when cached).
  const counts = new WeakMap<EventFilter, Promise<Total>>();
  const countOnce = (f: EventFilter) => {
    let n = counts.get(f);
    if (!n) {
      // The whole listing is counted exactly once per version and bucket (listedTotals).
      n = isUnfiltered(f)
        ? listedTotals(f.now).then((t) => ({ n: t.cards, estimated: false }))
        : versionFor(f).then((v) => cached(`count|${v}|${filterKey(f)}`, () => exactOrEstimate(f)));
      counts.set(f, n);
    }
    return n;
  };

  /** The values of a facet among every listed event (kept per events version): what estimates are made for. */
  /** Each value of a facet among the listed events, with its share of them (per version and bucket). */
  const presentShares = (now: Date, by: 'category' | 'sourceType') =>
    versionFor({ now }).then((v) =>
      cached.bucketed(`present:${by}|${v}`, now, async () => {
        // A source's share is of the events listed under it, by their own or a merged record's
        // type: grouped by both, each group counted under each of its types (countByType).
        const listed = and(...filterConditions({ now, allOccurrences: true }));
        const rows: TypesCount[] =
          by === 'category'
            ? (await db.select({ own: events.category, n: sql<number>`count(*)::int` }).from(events).where(listed).groupBy(events.category)).map((r) => ({ ...r, others: null }))
            : await db.select({ own: events.sourceType, others: events.otherSourceTypes, n: sql<number>`count(*)::int` }).from(events).where(listed).groupBy(events.sourceType, events.otherSourceTypes);
        const all = rows.reduce((sum, r) => sum + r.n, 0) || 1;
        return [...countByType(rows)].map(([value, n]) => ({ value, share: n / all }));
      }),
    );
  /**
   * Cards per value of a facet, its own filter left out. Exact when the planner expects at most
   * EXACT_COUNT_LIMIT rows; past it, each value present among the listed events is estimated
   * (as `count` estimates), which reads no rows.
   */
  const facetOf = async (original: EventFilter, by: 'category' | 'sourceType'): Promise<FacetValues> => {
    const col = by === 'category' ? events.category : events.sourceType;
    const f = await withWindowBound(original);
    const v = await versionFor(f);
    return cached(`facet:${by}|${v}|${filterKey(f)}`, async () => {
      const planned = await plannedRows(f, by);
      if (planned <= EXACT_COUNT_LIMIT && by === 'category') {
        const values = await db
          .select({ value: col, count: sql<number>`count(*)::int` })
          .from(events)
          .where(and(...filterConditions(f, by)))
          .groupBy(col)
          .orderBy(desc(sql`count(*)`), asc(col));
        return { values, estimated: false };
      }
      if (planned <= EXACT_COUNT_LIMIT) {
        // An event counts under each of its types: grouped by its own and its merged records' ones.
        const rows = await db
          .select({ own: events.sourceType, others: events.otherSourceTypes, n: sql<number>`count(*)::int` })
          .from(events)
          .where(and(...filterConditions(f, by)))
          .groupBy(events.sourceType, events.otherSourceTypes);
        return { values: byCountThenValue([...countByType(rows)].map(([value, count]) => ({ value, count }))), estimated: false };
      }
      // Each value's share of the listed events applied to the filter's planned rows, without
      // asking the planner once per value; a search's values are planned as its own (their share
      // of the word's matches, see plannedMatches), a Food word's matches being Food events.
      const present = await presentShares(f.now, by);
      const key = by === 'category' ? 'categories' : 'sourceTypes';
      const plannedOf = async (value: string, share: number) => (f.search ? plannedRows({ ...f, [key]: [value] }) : planned * share);
      const estimates = await Promise.all(present.map(async ({ value, share }) => ({ value, count: await toCards(await plannedOf(value, share), f.now) })));
      const values = estimates.filter((x) => x.count > 0).sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
      return { values, estimated: true };
    });
  };
  /**
   * A small set's category and source facets and total in one read of its matches (three before:
   * a search's matches are rows read from the heap, most of a facets answer's cost). Each facet
   * leaves its own filter out, as `facet` does: the other's filter is applied per count. Null when
   * the widest of the three (no category, no source) is not expected to be small, or turns out not
   * to be: then each is counted or estimated on its own.
   */
  const exactFacets = async (f: EventFilter): Promise<FacetsResult | null> => {
    const wide = { ...f, categories: undefined, sourceTypes: undefined };
    if ((await plannedRows(wide)) > EXACT_COUNT_LIMIT) return null;
    const wordsFirst = await readsMatchesSooner(wide);
    const byCategory = f.categories?.length ? inArray(events.category, f.categories) : sql`true`;
    const bySource = f.sourceTypes?.length ? ofSourceTypes(f.sourceTypes) : sql`true`;
    // The source facet is grouped by the own type and by the merged records' types, and each
    // group counted under each of its types (countByType): an event once per type.
    const result = (await db.execute(sql`
      select grouping(${events.category}, ${events.sourceType}, ${events.otherSourceTypes})::int as g, ${events.category} as category, ${events.sourceType} as source_type,
        ${events.otherSourceTypes} as other_source_types,
        (count(*) filter (where ${bySource}))::int as for_category, (count(*) filter (where ${byCategory}))::int as for_source,
        (count(*) filter (where ${byCategory} and ${bySource}))::int as n
      from ${events} where ${and(...filterConditions({ ...wide, wordsFirst }))}
      group by grouping sets ((${events.category}), (${events.sourceType}), (${events.otherSourceTypes}), ())`)) as unknown as { rows: FacetRow[] };
    // grouping(): a bit per column, set where the row is not grouped by it (category highest).
    const all = result.rows.find((r) => r.g === 0b111);
    const n = Number(all?.n ?? 0);
    // Past the bound a list's total is an estimate; the facets' total says the same (see count).
    if (n > EXACT_COUNT_LIMIT) return null;
    const categories = result.rows.filter((r) => r.g === 0b011 && r.category !== null).map((r) => ({ value: r.category!, count: Number(r.for_category) }));
    const types = countByType(
      result.rows.flatMap((r): TypesCount[] => (r.g === 0b101 ? [{ own: r.source_type, others: null, n: r.for_source }] : r.g === 0b110 ? [{ own: null, others: r.other_source_types, n: r.for_source }] : [])),
    );
    const present = (values: { value: string; count: number }[]) => byCountThenValue(values.filter((x) => x.count > 0));
    return {
      categories: { values: present(categories), estimated: false },
      sourceTypes: { values: present([...types].map(([value, count]) => ({ value, count }))), estimated: false },
      total: { n, estimated: false },
    };
  };
  /**
   * A page's rows without the count of every match they carried, which goes to `counted`: none on
   * the first page is none at all; a later page without a row cannot tell (null).
   */
  const withoutTotal = (rows: (SummaryRow & { matchTotal?: number })[], offset: number, counted: ((n: number | null) => void) | null): SummaryRow[] => {
    const n = rows[0]?.matchTotal;
    counted?.(n !== undefined ? Number(n) : offset === 0 ? 0 : null);
    return rows.map(({ matchTotal: _, ...row }) => row as SummaryRow);
  };
  /** The count of every match, beside each of a page's ids, when the page reads them all anyway. */
  const matchTotalOf = (counts: boolean): { matchTotal: SQL.Aliased<number> } | Record<never, never> => (counts ? { matchTotal: sql<number>`count(*) over ()`.as('match_total') } : {});
  /**
   * A page's cards from its ids (subquery `page`), in `order`: PostgreSQL computes a query's
   * output columns (the image, later dates and favourite subqueries among them) for every row an
   * OFFSET skips too, so the ids come first. The count the page carried goes to `counted`.
   */
  const cardsOf = async (
    page: SubqueryWithSelection<{ pageId: SQL.Aliased<string> }, 'page'>,
    counts: boolean,
    userId: string | null,
    f: EventFilter,
    order: SQL[],
    offset: number,
    counted: ((n: number | null) => void) | null,
  ): Promise<SummaryRow[]> => {
    const rows = await db
      .select({ ...summaryColumns(userId, f.near, f, cardColumns), ...(counts ? { matchTotal: sql<number>`${sql.identifier('page')}.match_total` } : {}) })
      .from(events)
      .innerJoin(page, eq(events.id, page.pageId))
      .orderBy(...order);
    return withoutTotal(rows, offset, counted);
  };
  /** One page of the filter's cards in the given order (see `list`); `counted`, when the count waits for it, takes the page's count of every match. */
  const listPage = async (original: EventFilter, sort: SortKey, page: { limit: number; offset: number }, userId: string | null, counted: ((n: number | null) => void) | null): Promise<SummaryRow[]> => {
    const bounded = await withWindowBound(original);
    // A date-sorted search whose matches are better read and sorted than walked in start order.
    const byStartOrRank = sort !== 'popularity' && !(sort === 'distance' && bounded.near);
    const wordsFirst = byStartOrRank && (await readsMatchesSooner(bounded, page));
    const f = wordsFirst ? { ...bounded, wordsFirst } : bounded;
    const conds = filterConditions(f);
    const order: SQL[] = [];
    if (sort === 'relevance' && f.search) {
      const broad = (await plannedMatches(f, f.search)) > BROAD_MATCHES;
      // A broad word ranks its soonest matches only: its count is the count's own (an estimate).
      const counts = !broad && counted !== null;
      if (!counts) counted?.(null);
      // Ranking needs a match's id, start, title and words only; the page's other columns are
      // read for its own rows at the end.
      const matches = db.select({ id: events.id, startDate: events.startDate, title: events.title, search: events.search }).from(events).where(and(...conds)).$dynamic();
      // The subquery keeps the table's name, so the columns and expressions below read its rows;
      // without a limit it is flattened into a plain query on the table.
      const source = (
        broad ? matches.orderBy(asc(events.startDate), asc(events.id)).limit(Math.max(RANK_CANDIDATES, page.offset + page.limit)) : matches
      ).as('events');
      const rank = sql<number>`ts_rank_cd(${events.search}, ${tsQuery(f.search)}) + case when lower(${events.title}) like ${`%${escapeLike(f.search.toLowerCase())}%`} then 1 else 0 end`;
      const ranked = db
        .select({ pageId: sql<string>`${events.id}`.as('page_id'), pageRank: rank.as('page_rank'), ...matchTotalOf(counts) })
        .from(source)
        // By the output column, not the expression again: its parameters differ from the select's,
        // so PostgreSQL would rank every match twice (1,556 "bluegrass" matches: 12.4 -> 10.7 ms).
        .orderBy(desc(sql.identifier('page_rank')), asc(events.startDate), asc(events.id))
        .limit(page.limit)
        .offset(page.offset)
        .as('page');
      return cardsOf(ranked, counts, userId, f, [desc(ranked.pageRank), asc(events.startDate), asc(events.id)], page.offset, counted);
    }
    if (sort === 'distance' && f.near) {
      // The GiST index of listed cards gives nearest first (`<->` is the chord distance, which
      // the great-circle distance follows), so finding the page's last event (its edge) is
      // cheap; the page is then sorted exactly among the events no farther than it, ties (one
      // venue's events) included, instead of sorting every event in the radius (a category's
      // 1,000 cards in a three-mile circle: 22,000 index entries read, 9 ms). Past the last
      // event there is no edge: the page sorts the whole circle. Both read the cube around their
      // circle from that index's entries alone (it carries what the filter, the order and the
      // page need).
      const { lat, lng, radiusM } = f.near;
      // The subquery keeps the table's name, so the distance is computed once, for the edge
      // alone, not for each event the offset passes. ll_to_earth costs about 7 µs a row: sorting
      // a two-mile circle by it took 15 ms, the nearest-first walk of the index 1.3 ms.
      const nearest = db
        .select({ lat: events.lat, lng: events.lng })
        .from(events)
        .where(and(...conds, ...(radiusM ? [inEarthBox(lat, lng, radiusM)] : [])))
        .orderBy(sql`${eventEarth} <-> ${earthOf(lat, lng)}`)
        .limit(1)
        .offset(page.offset + page.limit - 1)
        .as('events');
      // One metre of slack against rounding; an extra row sorts after the page.
      const edge = db.select({ d: sql<number>`${metresFrom(lat, lng)} + 1` }).from(nearest);
      if (radiusM) {
        // In the page's own query (one round trip, planned once), beside the count instead of
        // after it. The box is a superset of the edge's circle; the radius test in the filter
        // keeps the circle, and what the box adds beyond the edge sorts after the page.
        conds.push(inEarthBox(lat, lng, sql`coalesce((${edge}), ${radiusM}::float8)`));
      } else {
        // No radius: a page past the last located event also lists the events with no place
        // (distance unknown, last), which no box holds.
        const [row] = await edge;
        if (row && row.d !== null) conds.push(inEarthBox(lat, lng, Number(row.d)));
      }
      order.push(sql`${metresFrom(lat, lng)} asc nulls last`);
    } else if (sort === 'popularity') {
      // Attendees as every screen shows them; the expression of events_cards_popularity_idx (0035).
      order.push(desc(sql`${events.attendeeCount} + ${events.peopleCount}`));
    }
    // The same order, by an expression no index gives, when every match is better read and sorted.
    order.push(asc(f.wordsFirst && order.length === 0 ? sql`${events.startDate} + interval '0 seconds'` : events.startDate), asc(events.id));
    // A search read and sorted by date reads every match: it counts them on the way. A walk in
    // start order stops at the page, so the count reads for itself, beside it.
    const counts = Boolean(f.wordsFirst) && counted !== null;
    if (!counts) counted?.(null);
    // The page's ids first, then its columns (see cardsOf).
    const ids = db
      .select({ pageId: sql<string>`${events.id}`.as('page_id'), ...matchTotalOf(counts) })
      .from(events)
      .where(and(...conds))
      .orderBy(...order)
      .limit(page.limit)
      .offset(page.offset)
      .as('page');
    return cardsOf(ids, counts, userId, f, order, page.offset, counted);
  };
  return {
    async list(original: EventFilter, sort: SortKey, page: { limit: number; offset: number }, userId: string | null): Promise<SummaryRow[]> {
      const counted = claimPageTotal(original, sort);
      try {
        return await listPage(original, sort, page, userId, counted);
      } finally {
        // A page that did not count (or failed) leaves the count to read for itself.
        counted?.(null);
      }
    },

    /** The filter's total: exact for a small set (and for the unfiltered list), else estimated. */
    async count(original: EventFilter): Promise<Total> {
      const f = await withWindowBound(original);
      // The request's list, running beside it, may count its matches (see pageTotals).
      const fromPage = pageTotals.get(original);
      if (fromPage && f !== original && !pageTotals.has(f)) pageTotals.set(f, fromPage);
      return countOnce(f);
    },

    /** The category and source facets and the total of a filter: one read when the set is small. */
    async facets(original: EventFilter): Promise<FacetsResult> {
      const f = await withWindowBound(original);
      const v = await versionFor(f);
      const merged = await cached(`facets|${v}|${filterKey(f)}`, () => exactFacets(f));
      if (merged) return merged;
      const [categories, sourceTypes, total] = await Promise.all([facetOf(f, 'category'), facetOf(f, 'sourceType'), countOnce(f)]);
      return { categories, sourceTypes, total };
    },

    /**
     * Whether a request (its clock reading) was answered with an aggregate of the previous clock
     * bucket while the current one loads: such an answer is not to be kept for the bucket.
     */
    answeredFromPreviousBucket: (now: Date) => provisional.has(now),

    /** The events version, read once per clock reading (a request's `now`). */
    version: (now: Date) => versionFor({ now }),

    /** Runs an aggregate once per events version, key and clock bucket (see AGGREGATE_BUCKET_MS and `bucketed`). */
    cachedAggregate<T>(version: string, key: string, now: Date, load: () => PromiseLike<T>): Promise<T> {
      return cached.bucketed(`${key}|${version}`, now, load);
    },

    async findById(id: string, userId: string | null): Promise<DetailRow | undefined> {
      const [row] = await db.select(summaryColumns(userId, undefined)).from(events).where(eq(events.id, id));
      return row as DetailRow | undefined;
    },

    /** The other sources' records merged into these events, oldest first (what a merge fills blanks from). */
    async findMergedRecords(eventIds: readonly string[]): Promise<DetailRow[]> {
      if (!eventIds.length) return [];
      return (await db
        .select(summaryColumns(null, undefined))
        .from(events)
        .where(and(inArray(events.mergedInto, [...eventIds]), eq(events.status, 'merged')))
        .orderBy(asc(events.createdAt), asc(events.id))) as DetailRow[];
    },

    /** Several events at once (in no particular order), as lists show them. */
    async findByIds(ids: string[]): Promise<DetailRow[]> {
      if (!ids.length) return [];
      return (await db.select(summaryColumns(null, undefined)).from(events).where(inArray(events.id, ids))) as DetailRow[];
    },

    /**
     * The upcoming dates of an event's series (just its own for a one-off), soonest first: one
     * per moment, the event itself at its own (another occurrence at the same moment is its own
     * card, not another date).
     */
    async seriesDates(event: { id: string; seriesKey: string | null; status: 'pending' | 'approved' | 'rejected' | 'merged' }, now: Date, limit = 60) {
      if (!event.seriesKey) return [];
      const rows = await db
        .select({ id: events.id, startDate: events.startDate, endDate: events.endDate })
        .from(events)
        .where(and(eq(events.seriesKey, event.seriesKey), eq(events.status, event.status === 'merged' ? 'approved' : event.status), isNull(events.goneAt), gt(events.endDate, now)))
        .orderBy(asc(events.startDate), sql`${events.id} = ${event.id} desc`, asc(events.id))
        .limit(limit);
      return rows.filter((r, i) => i === 0 || r.startDate.getTime() !== rows[i - 1]!.startDate.getTime());
    },

    /** Moves the event's check-in count by one person. */
    async addToCheckinCount(eventId: string, delta: number) {
      await db
        .update(events)
        .set({ checkinCount: sql`greatest(0, ${events.checkinCount} + ${delta})` })
        .where(eq(events.id, eventId));
    },

    /** The event's links and those of the records merged into it; `dropped`: a merged record its source no longer lists. */
    /**
     * The links of an event's own record and of the records merged into it, in the order they were
     * seen, each with what its record says now: still listed (`live`), or called off by its source.
     */
    async findSources(eventId: string) {
      return (await sourceLinks([eventId])).map(({ record, ...l }) => ({ ...l, eventId: record, dropped: record !== eventId && !l.live }));
    },

    /**
     * What each event's sources say of it, from its own record and those merged into it (in the
     * order they were seen): which call it off and which still list it (sourcesSayOf).
     */
    async sourcesSay(eventIds: readonly string[]): Promise<Map<string, SourcesSay>> {
      const links = new Map<string, SourceLink[]>(eventIds.map((id) => [id, []]));
      for (const l of await sourceLinks(eventIds)) links.get(l.eventId)?.push(l);
      return new Map([...links].map(([id, rows]) => [id, sourcesSayOf(rows)]));
    },

    /** Listed events starting in [start, end) that have not ended at `now` (today's, as the header counts them). */
    async countStartingBetween(start: Date, end: Date, now: Date): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(events)
        .where(and(listedEvent(), gte(events.startDate, start), lt(events.startDate, end), gt(events.endDate, now)));
      return row?.n ?? 0;
    },

    /**
     * "Active sources" (the Coverage widget's): enabled sources, the admin's feeds, APIs and uploads
     * (rows of `sources`, as /api/health and the Overview count them), with a listed event that has
     * not ended, their own or one their record was merged into. An admin's own events and members'
     * contributions (URL imports, flyer scans) come from no source: they are not counted. Discover's
     * filter lists source types, a kind several sources share: another figure.
     */
    async countActiveSources(now: Date): Promise<number> {
      const record = alias(events, 'record');
      // Grouping hashes the ids; count(distinct ...) sorted them all, spilling to disk.
      const active = db
        .selectDistinct({ id: sources.id })
        .from(eventSources)
        .innerJoin(sources, and(eq(sources.id, eventSources.sourceId), eq(sources.enabled, true)))
        .innerJoin(record, and(eq(record.id, eventSources.eventId), isNull(record.goneAt)))
        .innerJoin(events, eq(events.id, sql`coalesce(${record.mergedInto}, ${record.id})`))
        .where(and(listedEvent(), gt(events.endDate, now)))
        .as('active');
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(active);
      return row?.n ?? 0;
    },

    /** Distinct lower-cased neighbourhoods with a listed event in the window. */
    async neighbourhoodsWithEvents(from: Date, to: Date): Promise<string[]> {
      const rows = await db
        .selectDistinct({ n: sql<string>`lower(${events.neighbourhood})` })
        .from(events)
        .where(and(listedEvent(), gt(events.endDate, from), lt(events.startDate, to), sql`${events.neighbourhood} is not null`));
      return rows.map((r) => r.n);
    },

    async listFavorites(userId: string): Promise<(SummaryRow & { removedBySource: boolean; cancelledBySource: boolean; postponedBySource: boolean; endGiven: boolean })[]> {
      const rows = await db
        .select({
          ...summaryColumns(null, undefined),
          isFavorited: sql<boolean>`true`,
          removedBySource: sql<boolean>`${events.goneAt} is not null`,
          cancelledBySource: sql<boolean>`${events.goneAt} is not null and ${events.cancelledBySource}`,
          postponedBySource: sql<boolean>`${events.goneAt} is not null and ${events.postponedBySource}`,
          // As the event's page reads it: a row stored before the flag existed reads as given.
          endGiven: sql<boolean>`${events.endGiven} is not false`,
        })
        .from(favorites)
        .innerJoin(events, eq(events.id, favorites.eventId))
        // A saved event merged into another is saved as that one too (the merge copies favourites).
        .where(and(eq(favorites.userId, userId), ne(events.status, 'merged')))
        .orderBy(asc(events.startDate));
      return rows as (SummaryRow & { removedBySource: boolean; cancelledBySource: boolean; postponedBySource: boolean; endGiven: boolean })[];
    },

    /** The venues Townbeat knows, with their places (to place an event by its venue, as ingestion does). */
    allVenues: () => db.select({ id: venues.id, name: venues.name, address: venues.address, neighbourhood: venues.neighbourhood, lat: venues.lat, lng: venues.lng }).from(venues),

    async insert(values: typeof events.$inferInsert, source: { sourceType: string; url: string; name: string }) {
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(events).values(values).returning();
        if (!row) throw new Error('insert returned no row');
        await tx.insert(eventSources).values({ eventId: row.id, sourceType: source.sourceType, url: source.url, name: source.name });
        return row;
      });
    },

    /** Holds the event's row until the transaction ends: decisions on one event happen one after the other. */
    async lock(id: string) {
      await db.select({ id: events.id }).from(events).where(eq(events.id, id)).for('update');
    },

    async update(id: string, patch: Partial<typeof events.$inferInsert>) {
      const [row] = await db
        .update(events)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(events.id, id))
        .returning();
      return row;
    },

    /** Serialises toggles of one user's favourite of one event (until the transaction ends). */
    async lockFavorite(userId: string, eventId: string) {
      await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`fav:${userId}:${eventId}`}))`);
    },

    /**
     * Unsaves the event, and the records merged into it that the member saved (their saves were
     * copied to it): a later split must not bring back a save the member took away.
     */
    async deleteFavorite(userId: string, eventId: string): Promise<boolean> {
      const rows = await db
        .delete(favorites)
        .where(and(eq(favorites.userId, userId), eq(favorites.eventId, eventId)))
        .returning({ eventId: favorites.eventId });
      if (rows.length === 0) return false;
      await db.execute(sql`with gone as (
          delete from ${favorites} f using ${events} e
          where f.user_id = ${userId} and f.event_id = e.id and e.merged_into = ${eventId} returning f.event_id)
        update ${events} set favorite_count = greatest(favorite_count - 1, 0),
          people_count = greatest(people_count - case when ${checkedIn(userId, sql`${events.id}`)} then 0 else 1 end, 0)
        where id in (select event_id from gone)`);
      return true;
    },

    /** Who saved each of these events. */
    async saversOf(eventIds: readonly string[]): Promise<{ userId: string; eventId: string }[]> {
      if (!eventIds.length) return [];
      return db.select({ userId: favorites.userId, eventId: favorites.eventId }).from(favorites).where(inArray(favorites.eventId, [...eventIds]));
    },

    async insertFavorite(userId: string, eventId: string, at: Date): Promise<boolean> {
      const rows = await db.insert(favorites).values({ userId, eventId, createdAt: at }).onConflictDoNothing().returning({ eventId: favorites.eventId });
      return rows.length > 0;
    },

    /**
     * Moves the event's saves by the member's one save, and its people unless the member checked in
     * there (then they are counted already). Called under lockFavorite, which check-ins take too.
     */
    async addToFavoriteCount(eventId: string, userId: string, delta: 1 | -1) {
      await db
        .update(events)
        .set({
          favoriteCount: sql`greatest(0, ${events.favoriteCount} + ${delta})`,
          peopleCount: sql`greatest(0, ${events.peopleCount} + case when ${checkedIn(userId, sql`${events.id}`)} then 0 else ${delta}::int end)`,
        })
        .where(eq(events.id, eventId));
    },

    /** A page of the review queue (see awaitingReview). */
    async listAwaitingReview(now: Date, limit: number, offset = 0) {
      // One run's events arrive together: among them, the soonest first, so none starts unreviewed behind the others.
      return db.select().from(events).where(awaitingReview(now)).orderBy(desc(events.createdAt), asc(events.startDate), asc(events.id)).limit(limit).offset(offset);
    },
    async countAwaitingReview(now: Date) {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(events).where(awaitingReview(now));
      return row?.n ?? 0;
    },
  };
}

export type EventsRepository = ReturnType<typeof createEventsRepository>;
