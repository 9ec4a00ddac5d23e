import { and, asc, between, desc, eq, getTableColumns, gte, inArray, isNull, lt, lte, gt, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { eventSources, events, favorites, images } from './events.table.ts';

export interface EventFilter {
  now: Date;
  categories?: string[];
  sourceTypes?: string[];
  search?: string;
  from?: Date;
  to?: Date;
  /** Centre and radius in metres for the distance filter. */
  near?: { lat: number; lng: number; radiusM?: number };
  statuses?: ('pending' | 'approved' | 'rejected')[];
  includeEnded?: boolean;
  /** Every occurrence of a recurring event, not only the first the filter lets through. */
  allOccurrences?: boolean;
}

export type SortKey = 'relevance' | 'date' | 'distance' | 'popularity';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const tsQuery = (q: string) => sql`websearch_to_tsquery('english', ${q})`;
const earthOf = (lat: number, lng: number) => sql`ll_to_earth(${lat}::float8, ${lng}::float8)`;
const eventEarth = sql`ll_to_earth(${events.lat}, ${events.lng})`;

/**
 * Relevance ranking reads the tsvector of every match, and a broad term matches half the
 * table. When a search matches more than BROAD_MATCHES events, only the soonest
 * RANK_CANDIDATES of them (or as many as the page reaches) are ranked: the date index finds
 * those after reading a few thousand rows. The decision uses the exact match count, not the
 * planner's estimate, which overshoots when the title substring and the words overlap (and then
 * the date index would be walked far past the matches).
 */
export const BROAD_MATCHES = 10_000;
export const RANK_CANDIDATES = 1000;

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

/** Every column but the tsvector, the widest value of a row, which no reader needs. */
const { search: _search, ...eventColumns } = getTableColumns(events);

/** Every condition of a filter; `omit` leaves one out (facet counts ignore their own filter). */
export function filterConditions(f: EventFilter, omit?: 'category' | 'sourceType'): SQL[] {
  const c: SQL[] = [];
  c.push(inArray(events.status, f.statuses ?? ['approved']));
  if (!f.includeEnded) c.push(gt(events.endDate, f.now));
  // Events that vanished from every feed listing them stay in the database, out of lists.
  c.push(isNull(events.goneAt));
  if (omit !== 'category' && f.categories?.length) c.push(inArray(events.category, f.categories));
  if (omit !== 'sourceType' && f.sourceTypes?.length) c.push(inArray(events.sourceType, f.sourceTypes));
  if (f.search) {
    // Ranked full text (word forms via the english stemmer), and always a plain title substring.
    c.push(sql`(${events.search} @@ ${tsQuery(f.search)} or lower(${events.title}) like ${`%${escapeLike(f.search.toLowerCase())}%`})`);
  }
  if (f.from) c.push(gte(events.endDate, f.from));
  if (f.to) c.push(lte(events.startDate, f.to));
  if (f.near?.radiusM) {
    c.push(...boundsOf(f.near.lat, f.near.lng, f.near.radiusM));
    c.push(sql`${metresFrom(f.near.lat, f.near.lng)} <= ${f.near.radiusM}::float8`);
  }
  // A recurring event is one card: its first occurrence that the filter lets through.
  if (!f.allOccurrences) c.push(sql`not exists (${otherOccurrences(f, 'earlier')})`);
  return c;
}

/**
 * The series' other occurrences that the filter lets through, earlier or later than the row
 * in hand. Everything else a filter tests (words, category, source, place) is the same for every
 * occurrence of a series (one title at one place), so only status and dates are tested again.
 */
function otherOccurrences(f: EventFilter, which: 'earlier' | 'later'): SQL {
  const c: SQL[] = [
    sql`o.series_key = ${events.seriesKey}`,
    sql`o.status in (${sql.join(
      (f.statuses ?? ['approved']).map((x) => sql`${x}`),
      sql`, `,
    )})`,
    sql`o.gone_at is null`,
  ];
  if (!f.includeEnded) c.push(sql`o.end_date > ${f.now.toISOString()}::timestamptz`);
  if (f.from) c.push(sql`o.end_date >= ${f.from.toISOString()}::timestamptz`);
  if (f.to) c.push(sql`o.start_date <= ${f.to.toISOString()}::timestamptz`);
  c.push(
    which === 'earlier'
      ? sql`(o.start_date < ${events.startDate} or (o.start_date = ${events.startDate} and o.id < ${events.id}))`
      : sql`(o.start_date > ${events.startDate} or (o.start_date = ${events.startDate} and o.id > ${events.id}))`,
  );
  return sql`select 1 from ${events} o where ${sql.join(c, sql` and `)}`;
}

const summaryColumns = (userId: string | null, near: { lat: number; lng: number } | undefined, f?: EventFilter) => ({
  event: eventColumns,
  imageWidth: sql<number | null>`(select ${images.width} from ${images} where ${images.id} = ${events.imageId} and ${images.status} = 'ready')`,
  moreDates: f && !f.allOccurrences ? sql<number>`(select count(*)::int from (${otherOccurrences(f, 'later')}) later)` : sql<number>`0`,
  isFavorited: userId
    ? sql<boolean>`exists (select 1 from ${favorites} where ${favorites.eventId} = ${events.id} and ${favorites.userId} = ${userId})`
    : sql<boolean>`false`,
  distanceM: near
    ? sql<number | null>`case when ${events.lat} is null or ${events.lng} is null then null else earth_distance(${earthOf(near.lat, near.lng)}, ${eventEarth}) end`
    : sql<number | null>`null`,
});

export type SummaryRow = {
  event: Omit<typeof events.$inferSelect, 'search'>;
  isFavorited: boolean;
  distanceM: number | null;
  /** The original width of the kept image, when there is one. */
  imageWidth?: number | null;
  /** Later occurrences of its series within the list's filter. */
  moreDates?: number;
};

/**
 * Aggregates (list totals, facets, stats) are kept for the current value of the events
 * version (a sequence that every write changing them moves, see migration 0007) and at most
 * AGGREGATE_BUCKET_MS of the app's clock (what has ended moves with time, not with writes).
 * A write still uncommitted when its count is read can leave that count behind for at most one
 * bucket.
 */
export const AGGREGATE_BUCKET_MS = 15_000;
const AGGREGATE_MAX_ENTRIES = 2000;

function createAggregateCache() {
  const entries = new Map<string, Promise<unknown>>();
  return <T>(key: string, load: () => PromiseLike<T>): Promise<T> => {
    let hit = entries.get(key) as Promise<T> | undefined;
    if (!hit) {
      // Promise.resolve: a Drizzle query is a lazy thenable that would run again on every await.
      hit = Promise.resolve(load());
      // A failed query is not kept.
      hit.catch(() => entries.delete(key));
      if (entries.size >= AGGREGATE_MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      entries.set(key, hit);
    }
    return hit;
  };
}

/** The filter as a cache key: everything but `now`, which counts through its bucket. */
const filterKey = (f: EventFilter) => JSON.stringify({ ...f, now: Math.floor(f.now.getTime() / AGGREGATE_BUCKET_MS) });

/** Queries on events, their sources and favourites; no rules here. */
export function createEventsRepository(db: Db) {
  const cached = createAggregateCache();
  const readVersion = async () => {
    // Both drivers answer execute() with { rows }.
    const result = (await db.execute(sql`select last_value::text || (case when is_called then '+' else '' end) as v from events_version_seq`)) as unknown as { rows: { v: string }[] };
    return result.rows[0]?.v ?? '';
  };
  // One version read per request: its filter object (the same for its list, count and facets).
  const versions = new WeakMap<EventFilter, Promise<string>>();
  const versionFor = (f: EventFilter) => {
    let v = versions.get(f);
    if (!v) versions.set(f, (v = readVersion()));
    return v;
  };
  // A request's list and count receive the same filter object: the count runs once (or not at
  // all, when cached), and the ranked list reads it (see BROAD_MATCHES).
  const counts = new WeakMap<EventFilter, Promise<number>>();
  const countOnce = (f: EventFilter) => {
    let n = counts.get(f);
    if (!n) {
      n = versionFor(f).then((v) =>
        cached(`count|${v}|${filterKey(f)}`, () =>
          db
            .select({ n: sql<number>`count(*)::int` })
            .from(events)
            .where(and(...filterConditions(f)))
            .then(([row]) => row?.n ?? 0),
        ),
      );
      counts.set(f, n);
    }
    return n;
  };

  return {
    async list(f: EventFilter, sort: SortKey, page: { limit: number; offset: number }, userId: string | null): Promise<SummaryRow[]> {
      const conds = filterConditions(f);
      const order: SQL[] = [];
      if (sort === 'relevance' && f.search) {
        const broad = (await countOnce(f)) > BROAD_MATCHES;
        const matches = db.select({ ...eventColumns, search: events.search }).from(events).where(and(...conds)).$dynamic();
        // The subquery keeps the table's name, so the columns and expressions below read its rows;
        // without a limit it is flattened into a plain query on the table.
        const source = (
          broad ? matches.orderBy(asc(events.startDate), asc(events.id)).limit(Math.max(RANK_CANDIDATES, page.offset + page.limit)) : matches
        ).as('events');
        const rows = await db
          .select(summaryColumns(userId, f.near, f))
          .from(source)
          .orderBy(
            desc(sql`ts_rank_cd(${events.search}, ${tsQuery(f.search)}) + case when lower(${events.title}) like ${`%${escapeLike(f.search.toLowerCase())}%`} then 1 else 0 end`),
            asc(events.startDate),
            asc(events.id),
          )
          .limit(page.limit)
          .offset(page.offset);
        return rows as SummaryRow[];
      }
      if (sort === 'distance' && f.near) {
        // The GiST index gives nearest first (`<->` is the chord distance, which the
        // great-circle distance follows), so finding the page's last event is cheap; the page
        // is then sorted exactly among the events no farther than it, ties (one venue's
        // events) included, instead of sorting every event in the radius.
        const centre = earthOf(f.near.lat, f.near.lng);
        const [edge] = await db
          .select({ d: sql<number | null>`earth_distance(${centre}, ${eventEarth})` })
          .from(events)
          .where(and(...conds))
          .orderBy(sql`${eventEarth} <-> ${centre}`)
          .limit(1)
          .offset(page.offset + page.limit - 1);
        if (edge && edge.d !== null) {
          const d = Number(edge.d);
          conds.push(sql`earth_box(${centre}, ${d}::float8) @> ${eventEarth}`, sql`earth_distance(${centre}, ${eventEarth}) <= ${d}::float8`);
        }
        order.push(sql`earth_distance(${centre}, ${eventEarth}) asc nulls last`);
      } else if (sort === 'popularity') {
        order.push(desc(sql`${events.favoriteCount} + ${events.attendeeCount} + ${events.checkinCount}`));
      }
      order.push(asc(events.startDate), asc(events.id));
      const rows = await db
        .select(summaryColumns(userId, f.near, f))
        .from(events)
        .where(and(...conds))
        .orderBy(...order)
        .limit(page.limit)
        .offset(page.offset);
      return rows as SummaryRow[];
    },

    async count(f: EventFilter): Promise<number> {
      return countOnce(f);
    },

    async facet(f: EventFilter, by: 'category' | 'sourceType'): Promise<{ value: string; count: number }[]> {
      const col = by === 'category' ? events.category : events.sourceType;
      const v = await versionFor(f);
      return cached(`facet:${by}|${v}|${filterKey(f)}`, () =>
        db
          .select({ value: col, count: sql<number>`count(*)::int` })
          .from(events)
          .where(and(...filterConditions(f, by)))
          .groupBy(col)
          .orderBy(desc(sql`count(*)`), asc(col)),
      );
    },

    /** The events version now, for caching aggregates that take no filter (stats). */
    version: readVersion,

    /** Runs an aggregate once per events version, key and clock bucket (see AGGREGATE_BUCKET_MS). */
    cachedAggregate<T>(version: string, key: string, now: Date, load: () => PromiseLike<T>): Promise<T> {
      return cached(`${key}|${version}|${Math.floor(now.getTime() / AGGREGATE_BUCKET_MS)}`, load);
    },

    async findById(id: string, userId: string | null): Promise<SummaryRow | undefined> {
      const [row] = await db.select(summaryColumns(userId, undefined)).from(events).where(eq(events.id, id));
      return row as SummaryRow | undefined;
    },

    /** Several events at once (in no particular order), as lists show them. */
    async findByIds(ids: string[]): Promise<SummaryRow[]> {
      if (!ids.length) return [];
      return (await db.select(summaryColumns(null, undefined)).from(events).where(inArray(events.id, ids))) as SummaryRow[];
    },

    /** The upcoming dates of an event's series (just its own for a one-off), soonest first. */
    async seriesDates(event: { id: string; seriesKey: string | null; status: 'pending' | 'approved' | 'rejected' | 'merged' }, now: Date, limit = 60) {
      if (!event.seriesKey) return [];
      return db
        .select({ id: events.id, startDate: events.startDate, endDate: events.endDate })
        .from(events)
        .where(and(eq(events.seriesKey, event.seriesKey), eq(events.status, event.status === 'merged' ? 'approved' : event.status), isNull(events.goneAt), gt(events.endDate, now)))
        .orderBy(asc(events.startDate), asc(events.id))
        .limit(limit);
    },

    /** Moves the event's check-in count by one person. */
    async addToCheckinCount(eventId: string, delta: number) {
      await db
        .update(events)
        .set({ checkinCount: sql`greatest(0, ${events.checkinCount} + ${delta})` })
        .where(eq(events.id, eventId));
    },

    /** The sources that list an event: its own links and those of the records merged into it. */
    async findSources(eventId: string) {
      return db
        .select({ sourceType: eventSources.sourceType, url: eventSources.url, name: eventSources.name, eventId: eventSources.eventId, sourceId: eventSources.sourceId })
        .from(eventSources)
        .where(sql`${eventSources.eventId} = ${eventId} or ${eventSources.eventId} in (select ${events.id} from ${events} where ${events.mergedInto} = ${eventId})`)
        .orderBy(asc(eventSources.seenAt));
    },

    async countStartingBetween(start: Date, end: Date): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(events)
        .where(and(eq(events.status, 'approved'), gte(events.startDate, start), lt(events.startDate, end)));
      return row?.n ?? 0;
    },

    async countActiveSources(now: Date): Promise<number> {
      // Grouping hashes the pairs; count(distinct ...) sorted them all, spilling to disk.
      const pairs = db
        .selectDistinct({ sourceType: eventSources.sourceType, name: eventSources.name })
        .from(eventSources)
        .innerJoin(events, eq(events.id, eventSources.eventId))
        .where(and(eq(events.status, 'approved'), gt(events.endDate, now)))
        .as('pairs');
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(pairs);
      return row?.n ?? 0;
    },

    /** Distinct lower-cased neighbourhoods with an approved event starting in the window. */
    async neighbourhoodsWithEvents(from: Date, to: Date): Promise<string[]> {
      const rows = await db
        .selectDistinct({ n: sql<string>`lower(${events.neighbourhood})` })
        .from(events)
        .where(and(eq(events.status, 'approved'), gt(events.endDate, from), lt(events.startDate, to), sql`${events.neighbourhood} is not null`));
      return rows.map((r) => r.n);
    },

    async listFavorites(userId: string): Promise<SummaryRow[]> {
      const rows = await db
        .select({ ...summaryColumns(null, undefined), isFavorited: sql<boolean>`true` })
        .from(favorites)
        .innerJoin(events, eq(events.id, favorites.eventId))
        // A saved event merged into another is saved as that one too (the merge copies favourites).
        .where(and(eq(favorites.userId, userId), ne(events.status, 'merged')))
        .orderBy(asc(events.startDate));
      return rows as SummaryRow[];
    },

    async insert(values: typeof events.$inferInsert, source: { sourceType: string; url: string; name: string }) {
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(events).values(values).returning();
        if (!row) throw new Error('insert returned no row');
        await tx.insert(eventSources).values({ eventId: row.id, sourceType: source.sourceType, url: source.url, name: source.name });
        return row;
      });
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

    async deleteFavorite(userId: string, eventId: string): Promise<boolean> {
      const rows = await db
        .delete(favorites)
        .where(and(eq(favorites.userId, userId), eq(favorites.eventId, eventId)))
        .returning({ eventId: favorites.eventId });
      return rows.length > 0;
    },

    async insertFavorite(userId: string, eventId: string, at: Date): Promise<boolean> {
      const rows = await db.insert(favorites).values({ userId, eventId, createdAt: at }).onConflictDoNothing().returning({ eventId: favorites.eventId });
      return rows.length > 0;
    },

    async addToFavoriteCount(eventId: string, delta: number) {
      await db
        .update(events)
        .set({ favoriteCount: sql`greatest(0, ${events.favoriteCount} + ${delta})` })
        .where(eq(events.id, eventId));
    },

    async listByStatus(status: 'pending' | 'approved' | 'rejected', limit: number) {
      return db.select().from(events).where(eq(events.status, status)).orderBy(desc(events.createdAt), asc(events.id)).limit(limit);
    },
  };
}

export type EventsRepository = ReturnType<typeof createEventsRepository>;
