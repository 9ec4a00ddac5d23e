import { and, desc, eq, gte, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { eventSources, events, venues } from '../events/events.table.ts';
import { sourceRuns, sources } from './sources.table.ts';

export type SourceRow = typeof sources.$inferSelect;
/** An event a run creates: every column it sets, for the bulk insert. */
export interface RunEventRow {
  id: string;
  title: string;
  description: string;
  category: string;
  categoryConfidence: number;
  sourceType: string;
  sourceUrl: string | null;
  imageUrl: string | null;
  startDate: Date;
  endDate: Date;
  timeZone: string;
  allDay: boolean;
  venueId: string | null;
  venueName: string;
  address: string | null;
  neighbourhood: string | null;
  lat: number | null;
  lng: number | null;
  attendeeCount: number;
  price: number | null;
  isFree: boolean;
  isVerified: boolean;
  isDemo: boolean;
  status: 'pending' | 'approved' | 'rejected';
  createdAt: Date;
  updatedAt: Date;
}
/** A link a run creates between an event and the item of a source. */
export interface RunLinkRow {
  eventId: string;
  sourceType: string;
  url: string;
  name: string;
  externalId: string;
  sourceId: string;
  seenAt: Date;
  contentHash: string | null;
}
const iso = (d: Date | null) => (d ? d.toISOString() : null);
/** One array parameter holding a column of the rows (for unnest). */
const column = <R, T>(rows: R[], f: (r: R) => T) => sql.param(rows.map(f));

/** A run's new values for one event it already links. */
export interface EventUpdate {
  id: string;
  title: string;
  description: string;
  startDate: Date;
  endDate: Date;
  allDay: boolean;
  venueName: string;
  address: string | null;
  neighbourhood: string | null;
  lat: number | null;
  lng: number | null;
  price: number | null;
  isFree: boolean;
  imageUrl: string | null;
  sourceUrl: string | null;
  goneAt: Date | null;
  updatedAt: Date;
}
export type NewSource = typeof sources.$inferInsert;

/** Queries on sources, their runs, and the event rows a run reads and writes. */
export function createSourcesRepository(db: Db) {
  return {
    list: () => db.select().from(sources).orderBy(sources.name),
    async findById(id: string) {
      const [row] = await db.select().from(sources).where(eq(sources.id, id));
      return row;
    },
    async insert(values: NewSource) {
      const [row] = await db.insert(sources).values(values).returning();
      return row!;
    },
    async update(id: string, patch: Partial<NewSource>) {
      const [row] = await db
        .update(sources)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(sources.id, id))
        .returning();
      return row;
    },
    async remove(id: string) {
      const rows = await db.delete(sources).where(eq(sources.id, id)).returning({ id: sources.id });
      return rows.length > 0;
    },
    async count() {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(sources).where(eq(sources.enabled, true));
      return row?.n ?? 0;
    },
    insertRun: async (run: typeof sourceRuns.$inferInsert) => {
      const [row] = await db.insert(sourceRuns).values(run).returning();
      return row!;
    },
    listRuns: (sourceId: string, limit: number) =>
      db.select().from(sourceRuns).where(eq(sourceRuns.sourceId, sourceId)).orderBy(desc(sourceRuns.startedAt)).limit(limit),

    /** Serialises writes of one source across instances until the transaction ends. */
    async lockSource(sourceId: string) {
      await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`source:${sourceId}`}))`);
    },
    linksOfSource: (sourceId: string) =>
      db
        .select({ eventId: eventSources.eventId, externalId: eventSources.externalId, contentHash: eventSources.contentHash })
        .from(eventSources)
        .where(eq(eventSources.sourceId, sourceId)),
    /** What a run compares with, for the events a source links: one array parameter, no text search columns. */
    linkedEvents: (ids: string[]) =>
      ids.length
        ? db
            .select({
              id: events.id,
              status: events.status,
              goneAt: events.goneAt,
              title: events.title,
              description: events.description,
              startDate: events.startDate,
              endDate: events.endDate,
              allDay: events.allDay,
              venueName: events.venueName,
              address: events.address,
              neighbourhood: events.neighbourhood,
              lat: events.lat,
              lng: events.lng,
              price: events.price,
              isFree: events.isFree,
              imageUrl: events.imageUrl,
              sourceUrl: events.sourceUrl,
            })
            .from(events)
            .where(sql`${events.id} = any(${sql.param(ids)}::uuid[])`)
        : Promise.resolve([]),
    /** Events starting in any of the given [from, to) windows (disjoint), for matching. */
    eventsInWindows: (windows: { from: Date; to: Date }[]) =>
      windows.length
        ? db
            .select({ id: events.id, title: events.title, startDate: events.startDate, venueName: events.venueName, lat: events.lat, lng: events.lng })
            .from(events)
            .innerJoin(
              sql`unnest(${sql.param(windows.map((w) => w.from.toISOString()))}::timestamptz[], ${sql.param(windows.map((w) => w.to.toISOString()))}::timestamptz[]) as w(f, t)`,
              sql`${events.startDate} >= w.f and ${events.startDate} < w.t`,
            )
        : Promise.resolve([]),
    eventsStartingBetween: (from: Date, to: Date) =>
      db
        .select({ id: events.id, title: events.title, startDate: events.startDate, venueName: events.venueName, lat: events.lat, lng: events.lng, description: events.description, imageUrl: events.imageUrl })
        .from(events)
        .where(and(gte(events.startDate, from), lte(events.startDate, to))),
    allVenues: () => db.select().from(venues),
    insertVenues: (rows: (typeof venues.$inferInsert)[]) => (rows.length ? db.insert(venues).values(rows) : Promise.resolve()),
    insertEvents: (rows: (typeof events.$inferInsert)[]) => (rows.length ? db.insert(events).values(rows) : Promise.resolve()),
    insertLinks: (rows: (typeof eventSources.$inferInsert)[]) => (rows.length ? db.insert(eventSources).values(rows).onConflictDoNothing() : Promise.resolve()),
    /**
     * Bulk inserts for a run: one statement of column arrays (unnest) per batch, instead of a
     * statement with a parameter per value, which costs far more to build, send and parse.
     */
    async insertRunEvents(rows: RunEventRow[]) {
      if (!rows.length) return;
      const c = <T>(f: (r: RunEventRow) => T) => column(rows, f);
      await db.execute(sql`insert into ${events} (id, title, description, category, category_confidence, source_type, source_url, image_url,
          start_date, end_date, time_zone, all_day, venue_id, venue_name, address, neighbourhood, lat, lng, attendee_count, price, is_free,
          is_verified, is_demo, status, created_at, updated_at)
        select * from unnest(${c((r) => r.id)}::uuid[], ${c((r) => r.title)}::text[], ${c((r) => r.description)}::text[], ${c((r) => r.category)}::text[],
          ${c((r) => r.categoryConfidence)}::real[], ${c((r) => r.sourceType)}::text[], ${c((r) => r.sourceUrl)}::text[], ${c((r) => r.imageUrl)}::text[],
          ${c((r) => iso(r.startDate))}::timestamptz[], ${c((r) => iso(r.endDate))}::timestamptz[], ${c((r) => r.timeZone)}::text[], ${c((r) => r.allDay)}::boolean[],
          ${c((r) => r.venueId)}::uuid[], ${c((r) => r.venueName)}::text[], ${c((r) => r.address)}::text[], ${c((r) => r.neighbourhood)}::text[],
          ${c((r) => r.lat)}::float8[], ${c((r) => r.lng)}::float8[], ${c((r) => r.attendeeCount)}::int[], ${c((r) => (r.price === null ? null : String(r.price)))}::numeric[],
          ${c((r) => r.isFree)}::boolean[], ${c((r) => r.isVerified)}::boolean[], ${c((r) => r.isDemo)}::boolean[], ${c((r) => r.status)}::text[],
          ${c((r) => iso(r.createdAt))}::timestamptz[], ${c((r) => iso(r.updatedAt))}::timestamptz[])`);
    },
    async insertRunLinks(rows: RunLinkRow[]) {
      if (!rows.length) return;
      const c = <T>(f: (r: RunLinkRow) => T) => column(rows, f);
      await db.execute(sql`insert into ${eventSources} (event_id, source_type, url, name, external_id, source_id, seen_at, content_hash)
        select * from unnest(${c((r) => r.eventId)}::uuid[], ${c((r) => r.sourceType)}::text[], ${c((r) => r.url)}::text[], ${c((r) => r.name)}::text[],
          ${c((r) => r.externalId)}::text[], ${c((r) => r.sourceId)}::uuid[], ${c((r) => iso(r.seenAt))}::timestamptz[],
          ${c((r) => r.contentHash)}::text[])
        on conflict do nothing`);
    },
    /** Marks a run's items as seen, with the hash of each item as now applied. */
    async touchLinks(sourceId: string, rows: { externalId: string; contentHash: string }[], at: Date) {
      if (!rows.length) return;
      await db.execute(sql`update ${eventSources} as l set seen_at = ${at.toISOString()}, content_hash = v.h
        from unnest(${column(rows, (r) => r.externalId)}::text[], ${column(rows, (r) => r.contentHash)}::text[]) as v(x, h)
        where l.source_id = ${sourceId} and l.external_id = v.x`);
    },
    /** Applies many updates in one statement: each row's id and the new values of the given columns. */
    async updateEvents(rows: EventUpdate[]) {
      if (!rows.length) return;
      const col = <T>(f: (r: EventUpdate) => T) => column(rows, f);
      await db.execute(sql`update ${events} as e set
          title = v.title, description = v.description, start_date = v.start_date, end_date = v.end_date, all_day = v.all_day,
          venue_name = v.venue_name, address = v.address, neighbourhood = v.neighbourhood, lat = v.lat, lng = v.lng,
          price = v.price, is_free = v.is_free, image_url = v.image_url, source_url = v.source_url, gone_at = v.gone_at, updated_at = v.updated_at
        from unnest(
          ${col((r) => r.id)}::uuid[], ${col((r) => r.title)}::text[], ${col((r) => r.description)}::text[],
          ${col((r) => iso(r.startDate))}::timestamptz[], ${col((r) => iso(r.endDate))}::timestamptz[], ${col((r) => r.allDay)}::boolean[],
          ${col((r) => r.venueName)}::text[], ${col((r) => r.address)}::text[], ${col((r) => r.neighbourhood)}::text[],
          ${col((r) => r.lat)}::float8[], ${col((r) => r.lng)}::float8[], ${col((r) => (r.price === null ? null : String(r.price)))}::numeric[],
          ${col((r) => r.isFree)}::boolean[], ${col((r) => r.imageUrl)}::text[], ${col((r) => r.sourceUrl)}::text[],
          ${col((r) => iso(r.goneAt))}::timestamptz[], ${col((r) => iso(r.updatedAt))}::timestamptz[]
        ) as v(id, title, description, start_date, end_date, all_day, venue_name, address, neighbourhood, lat, lng, price, is_free, image_url, source_url, gone_at, updated_at)
        where e.id = v.id`);
    },
    /** Marks events only this source listed, still to come, that its run did not see again. */
    async markGone(sourceId: string, runStart: Date, now: Date) {
      await db.execute(sql`update ${events} set gone_at = ${now.toISOString()} where gone_at is null and start_date > ${now.toISOString()} and id in (
        select ${eventSources.eventId} from ${eventSources} where ${eventSources.sourceId} = ${sourceId} and ${eventSources.seenAt} < ${runStart.toISOString()})
        and not exists (select 1 from ${eventSources} s2 where s2.event_id = ${events.id} and s2.source_id is distinct from ${sourceId})`);
    },
  };
}

export type SourcesRepository = ReturnType<typeof createSourcesRepository>;
