import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.ts';
import { eventSources, events, venues } from '../events/events.table.ts';
import type { Filled } from './pipeline/merge-fill.ts';
import type { RunNote } from './run-notes.ts';
import { sourceRuns, sources } from './sources.table.ts';

export type SourceRow = typeof sources.$inferSelect;
type EventStatus = 'pending' | 'approved' | 'rejected';
/** What a source's item sets on an event: written when the event is created and when the item changes. */
export interface EventItemFields {
  title: string;
  description: string;
  startDate: Date;
  endDate: Date;
  /** Whether the end is the source's own (false: a default duration); null on rows stored before it was known. */
  endGiven: boolean | null;
  allDay: boolean;
  venueName: string;
  address: string | null;
  neighbourhood: string | null;
  lat: number | null;
  lng: number | null;
  geoApprox: boolean;
  price: number | null;
  priceMax: number | null;
  priceNote: string | null;
  isFree: boolean;
  imageUrl: string | null;
  sourceUrl: string | null;
}
/** An event a run creates: every column it sets, for the bulk insert (see pipeline/event-row.ts). */
export interface RunEventRow extends EventItemFields {
  id: string;
  category: string;
  categoryConfidence: number;
  sourceType: string;
  timeZone: string;
  venueId: string | null;
  attendeeCount: number;
  isVerified: boolean;
  isDemo: boolean;
  status: EventStatus | 'merged';
  /** For a record merged on arrival: the event it is one with, and the status it would have had. */
  mergedInto: string | null;
  premergeStatus: EventStatus | null;
  contributedBy: string | null;
  /** Set, with the mark, for a record that arrives saying its event is cancelled or postponed (merged into the event it is one with). */
  goneAt: Date | null;
  cancelledBySource: boolean;
  postponedBySource: boolean;
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
  sourceId: string | null;
  seenAt: Date;
  contentHash: string | null;
}
/** A run's new values for one event it already links. */
export interface EventUpdate extends EventItemFields {
  id: string;
  /** The known venue of its venue name now (a source's move to another venue moves it too: dedup reads it). */
  venueId: string | null;
  goneAt: Date | null;
  /** Gone because the source said it is cancelled; false while listed or only dropped. */
  cancelledBySource: boolean;
  /** Gone because the source said it is postponed (no new date yet); false while listed, dropped or cancelled. */
  postponedBySource: boolean;
  /** What a merge filled in and the record's own values of it (events.filled, merge-fill.ts). */
  filled: Filled;
  updatedAt: Date;
}
/** An event a source links, as a run compares it with the source's item. */
export interface LinkedEvent extends EventItemFields {
  id: string;
  status: string;
  venueId: string | null;
  /** For a record merged into another event (status 'merged'): that event, whose savers hear what this source says. */
  mergedInto: string | null;
  /** The fields an admin corrected (events.edited_fields): a changed item leaves them as they are. */
  editedFields: string[];
  goneAt: Date | null;
  cancelledBySource: boolean;
  postponedBySource: boolean;
  filled: Filled;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const num = (n: number | null) => (n === null ? null : String(n));

/** A column a bulk statement writes: its name, its SQL array element type, and its value in a row. */
type ColumnSpec<R> = readonly [name: string, type: string, value: (r: R) => unknown];

/** The columns of what a source's item says, in the order both statements write them. */
const ITEM_COLUMNS: ColumnSpec<EventItemFields>[] = [
  ['title', 'text', (r) => r.title],
  ['description', 'text', (r) => r.description],
  ['start_date', 'timestamptz', (r) => iso(r.startDate)],
  ['end_date', 'timestamptz', (r) => iso(r.endDate)],
  ['end_given', 'boolean', (r) => r.endGiven],
  ['all_day', 'boolean', (r) => r.allDay],
  ['venue_name', 'text', (r) => r.venueName],
  ['address', 'text', (r) => r.address],
  ['neighbourhood', 'text', (r) => r.neighbourhood],
  ['lat', 'float8', (r) => r.lat],
  ['lng', 'float8', (r) => r.lng],
  ['geo_approx', 'boolean', (r) => r.geoApprox],
  ['price', 'numeric', (r) => num(r.price)],
  ['price_max', 'numeric', (r) => num(r.priceMax)],
  ['price_note', 'text', (r) => r.priceNote],
  ['is_free', 'boolean', (r) => r.isFree],
  ['image_url', 'text', (r) => r.imageUrl],
  ['source_url', 'text', (r) => r.sourceUrl],
];

/** The one list of what a run writes into a new event row. */
const EVENT_COLUMNS: ColumnSpec<RunEventRow>[] = [
  ['id', 'uuid', (r) => r.id],
  ...ITEM_COLUMNS,
  ['category', 'text', (r) => r.category],
  ['category_confidence', 'real', (r) => r.categoryConfidence],
  ['source_type', 'text', (r) => r.sourceType],
  ['time_zone', 'text', (r) => r.timeZone],
  ['venue_id', 'uuid', (r) => r.venueId],
  ['attendee_count', 'int', (r) => r.attendeeCount],
  ['is_verified', 'boolean', (r) => r.isVerified],
  ['is_demo', 'boolean', (r) => r.isDemo],
  ['status', 'text', (r) => r.status],
  ['merged_into', 'uuid', (r) => r.mergedInto],
  ['premerge_status', 'text', (r) => r.premergeStatus],
  ['contributed_by', 'uuid', (r) => r.contributedBy],
  ['gone_at', 'timestamptz', (r) => iso(r.goneAt)],
  ['cancelled_by_source', 'boolean', (r) => r.cancelledBySource],
  ['postponed_by_source', 'boolean', (r) => r.postponedBySource],
  ['created_at', 'timestamptz', (r) => iso(r.createdAt)],
  ['updated_at', 'timestamptz', (r) => iso(r.updatedAt)],
];

/** The columns a copy of an event takes from it (a split's copy gets its own id, source type, merge state and times). */
export const COPIED_EVENT_COLUMNS: readonly string[] = EVENT_COLUMNS.map(([name]) => name).filter(
  (name) => !['id', 'source_type', 'merged_into', 'premerge_status', 'created_at', 'updated_at'].includes(name),
);

/** What a run may change on an event it links (the id first). */
const UPDATE_COLUMNS: ColumnSpec<EventUpdate>[] = [['id', 'uuid', (r) => r.id], ...ITEM_COLUMNS, ['venue_id', 'uuid', (r) => r.venueId], ['gone_at', 'timestamptz', (r) => iso(r.goneAt)], ['cancelled_by_source', 'boolean', (r) => r.cancelledBySource], ['postponed_by_source', 'boolean', (r) => r.postponedBySource], ['filled', 'jsonb', (r) => JSON.stringify(r.filled)], ['updated_at', 'timestamptz', (r) => iso(r.updatedAt)]];

const LINK_COLUMNS: ColumnSpec<RunLinkRow>[] = [
  ['event_id', 'uuid', (r) => r.eventId],
  ['source_type', 'text', (r) => r.sourceType],
  ['url', 'text', (r) => r.url],
  ['name', 'text', (r) => r.name],
  ['external_id', 'text', (r) => r.externalId],
  ['source_id', 'uuid', (r) => r.sourceId],
  ['seen_at', 'timestamptz', (r) => iso(r.seenAt)],
  ['content_hash', 'text', (r) => r.contentHash],
];

/** `unnest($1::t1[], $2::t2[], ...) as v(c1, c2, ...)`: the rows as one set of column arrays. */
function unnestRows<R>(rows: R[], columns: ColumnSpec<R>[]): SQL {
  const arrays = columns.map(([, type, value]) => sql`${sql.param(rows.map(value))}::${sql.raw(type)}[]`);
  return sql`unnest(${sql.join(arrays, sql`, `)}) as v(${sql.raw(columns.map(([name]) => name).join(', '))})`;
}
const names = <R>(columns: ColumnSpec<R>[]) => sql.raw(columns.map(([name]) => name).join(', '));

/** The fields of a listed event a run compares an item with. */
export interface NearbyEvent {
  id: string;
  title: string;
  startDate: Date;
  venueId: string | null;
  venueName: string;
  address: string | null;
  lat: number | null;
  lng: number | null;
  geoApprox: boolean;
  /** The page of the event at the source that first listed it. */
  url: string | null;
  /** Whether it is listed (approved), waits for review, or was turned down. */
  status: 'pending' | 'approved' | 'rejected';
  /** The member who contributed it, for a contribution. */
  contributedBy: string | null;
  /** md5 of its description (descriptionKey): a copy under another id says the same. */
  descriptionKey: string;
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
    /** The source's latest run that stored what it read (a success), if any. */
    async lastStoredRun(sourceId: string) {
      const [row] = await db
        .select()
        .from(sourceRuns)
        .where(and(eq(sourceRuns.sourceId, sourceId), eq(sourceRuns.status, 'success')))
        .orderBy(desc(sourceRuns.startedAt))
        .limit(1);
      return row ?? null;
    },
    /** Rewrites a run's notes (an admin's action on what the run held is added to them). */
    async setRunNotes(runId: string, notes: RunNote[]) {
      await db.update(sourceRuns).set({ notes }).where(eq(sourceRuns.id, runId));
    },
    listRuns: (sourceId: string, limit: number) =>
      db.select().from(sourceRuns).where(eq(sourceRuns.sourceId, sourceId)).orderBy(desc(sourceRuns.startedAt)).limit(limit),
    /**
     * When the source's runs began to hold events for a reason (any of its wordings): the start of
     * the first of its latest runs that stored what they read, each with a note of that reason
     * (null when the last such run has none).
     */
    async heldSince(sourceId: string, reasons: readonly string[]): Promise<Date | null> {
      const held = sql.join(reasons.map((reason) => sql`${sourceRuns.notes} @> ${JSON.stringify([{ reason }])}::jsonb`), sql` or `);
      const stored = and(eq(sourceRuns.sourceId, sourceId), eq(sourceRuns.status, 'success'));
      const lastUnheld = db.select({ at: sql`max(${sourceRuns.startedAt})` }).from(sourceRuns).where(and(stored, sql`not (${held})`));
      const [row] = await db
        .select({ since: sql<string | null>`min(${sourceRuns.startedAt})` })
        .from(sourceRuns)
        .where(and(stored, sql`${sourceRuns.startedAt} > coalesce((${lastUnheld}), '-infinity'::timestamptz)`));
      return row?.since ? new Date(row.since) : null;
    },

    /** Serialises writes of one source across instances until the transaction ends. */
    /** How the source is read now (its URL and config), its row locked until the transaction ends. */
    async readingForUpdate(sourceId: string) {
      const [row] = await db.select({ url: sources.url, config: sources.config }).from(sources).where(eq(sources.id, sourceId)).for('update');
      return row;
    },
    /**
     * Locks the events that the source's records are merged into, in one order, as a split or an
     * admin's merge locks an event before its records: a run then reads them (and fills them) after
     * a split under way commits, never before, and the two never wait on each other in a circle.
     */
    async lockMergedTargets(sourceId: string) {
      await db.execute(sql`select id from ${events} where id in (
          select m.merged_into from ${events} m where m.merged_into is not null
            and exists (select 1 from ${eventSources} l where l.event_id = m.id and l.source_id = ${sourceId}))
        order by id for update`);
    },
    async lockSource(sourceId: string) {
      await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`source:${sourceId}`}))`);
    },
    /** The source's links, each with the listed event it belongs to (its own, or the one its record is merged into). */
    linksOfSource: (sourceId: string) =>
      db
        .select({
          eventId: eventSources.eventId,
          listedId: sql<string>`coalesce(${events.mergedInto}, ${eventSources.eventId})`,
          externalId: eventSources.externalId,
          contentHash: eventSources.contentHash,
          url: eventSources.url,
        })
        .from(eventSources)
        .innerJoin(events, eq(events.id, eventSources.eventId))
        .where(eq(eventSources.sourceId, sourceId)),
    /** What a run compares with, for the events a source links: one array parameter, no text search columns. */
    linkedEvents: (ids: string[]): Promise<LinkedEvent[]> =>
      ids.length
        ? db
            .select({
              id: events.id,
              status: events.status,
              venueId: events.venueId,
              mergedInto: events.mergedInto,
              goneAt: events.goneAt,
              cancelledBySource: events.cancelledBySource,
              postponedBySource: events.postponedBySource,
              filled: events.filled,
              editedFields: events.editedFields,
              title: events.title,
              description: events.description,
              startDate: events.startDate,
              endDate: events.endDate,
              endGiven: events.endGiven,
              allDay: events.allDay,
              venueName: events.venueName,
              address: events.address,
              neighbourhood: events.neighbourhood,
              lat: events.lat,
              lng: events.lng,
              geoApprox: events.geoApprox,
              price: events.price,
              priceMax: events.priceMax,
              priceNote: events.priceNote,
              isFree: events.isFree,
              imageUrl: events.imageUrl,
              sourceUrl: events.sourceUrl,
            })
            .from(events)
            .where(sql`${events.id} = any(${sql.param(ids)}::uuid[])`)
        : Promise.resolve([]),
    /**
     * Events a new item may be one with: starting in any of the given [from, to) windows
     * (disjoint), listed (not merged into another, not gone).
     */
    async eventsInWindows(windows: { from: Date; to: Date }[]): Promise<NearbyEvent[]> {
      if (!windows.length) return [];
      const rows = await queryRows<{
        id: string;
        title: string;
        start_date: string | Date;
        venue_id: string | null;
        venue_name: string;
        address: string | null;
        lat: number | null;
        lng: number | null;
        geo_approx: boolean;
        source_url: string | null;
        status: 'pending' | 'approved' | 'rejected' | 'merged';
        contributed_by: string | null;
        description_key: string;
        listed: boolean;
      }>(
        db,
        // Listed is answered per row, not filtered in SQL: a filter on gone_at lets the planner
        // prefer the partial indexes of lists over the start-date ranges (seen: 30x slower).
        sql`select e.id, e.title, e.start_date, e.venue_id, e.venue_name, e.address, e.lat, e.lng, e.geo_approx, e.source_url, e.status, e.contributed_by, md5(e.description) as description_key,
          (e.status <> 'merged' and e.gone_at is null) as listed
        from ${events} e
        join unnest(${sql.param(windows.map((w) => w.from.toISOString()))}::timestamptz[], ${sql.param(windows.map((w) => w.to.toISOString()))}::timestamptz[]) as w(f, t)
          on e.start_date >= w.f and e.start_date < w.t`,
      );
      return rows.filter((r): r is typeof r & { status: NearbyEvent['status'] } => r.listed && r.status !== 'merged').map((r) => ({
        id: r.id,
        title: r.title,
        startDate: new Date(r.start_date),
        venueId: r.venue_id,
        venueName: r.venue_name,
        address: r.address,
        lat: r.lat === null ? null : Number(r.lat),
        lng: r.lng === null ? null : Number(r.lng),
        geoApprox: r.geo_approx,
        url: r.source_url,
        status: r.status,
        contributedBy: r.contributed_by,
        descriptionKey: r.description_key,
      }));
    },
    allVenues: () => db.select().from(venues),
    insertVenues: (rows: (typeof venues.$inferInsert)[]) => (rows.length ? db.insert(venues).values(rows) : Promise.resolve()),
    /**
     * Bulk inserts for a run: one statement of column arrays (unnest) per batch, instead of a
     * statement with a parameter per value, which costs far more to build, send and parse.
     */
    async insertRunEvents(rows: RunEventRow[]) {
      if (!rows.length) return;
      await db.execute(sql`insert into ${events} (${names(EVENT_COLUMNS)}) select * from ${unnestRows(rows, EVENT_COLUMNS)}`);
    },
    async insertRunLinks(rows: RunLinkRow[]) {
      if (!rows.length) return;
      await db.execute(sql`insert into ${eventSources} (${names(LINK_COLUMNS)}) select * from ${unnestRows(rows, LINK_COLUMNS)} on conflict do nothing`);
    },
    /** Marks a run's items as seen, with the hash of each item as now applied. */
    /** The listed events among `ids` this source links, with the ids of its items they were. */
    linkedItemsOf: (sourceId: string, ids: readonly string[]) =>
      ids.length
        ? db
            .select({ id: events.id, title: events.title, start: events.startDate, allDay: events.allDay, externalId: eventSources.externalId })
            .from(eventSources)
            .innerJoin(events, eq(events.id, eventSources.eventId))
            .where(and(eq(eventSources.sourceId, sourceId), eq(events.status, 'approved'), sql`${events.id} = any(${sql.param([...ids])}::uuid[])`))
        : Promise.resolve([]),
    /** Moves links to the ids their items have now (reidentify), each [old id, new id]. */
    async relinkItems(sourceId: string, moves: readonly (readonly [string, string])[]) {
      if (!moves.length) return;
      await db.execute(sql`update ${eventSources} as l set external_id = v.t
        from unnest(${sql.param(moves.map((m) => m[0]))}::text[], ${sql.param(moves.map((m) => m[1]))}::text[]) as v(f, t)
        where l.source_id = ${sourceId} and l.external_id = v.f`);
    },
    async touchLinks(sourceId: string, rows: { externalId: string; contentHash: string }[], at: Date) {
      if (!rows.length) return;
      await db.execute(sql`update ${eventSources} as l set seen_at = ${at.toISOString()}, content_hash = v.h
        from unnest(${sql.param(rows.map((r) => r.externalId))}::text[], ${sql.param(rows.map((r) => r.contentHash))}::text[]) as v(x, h)
        where l.source_id = ${sourceId} and l.external_id = v.x`);
    },
    /** Forgets how the source's items were last read: its next run applies each item again (eventPatch keeps an admin's corrections). */
    async forgetItemHashes(sourceId: string) {
      await db.update(eventSources).set({ contentHash: null }).where(eq(eventSources.sourceId, sourceId));
    },
    /** Applies many updates in one statement: each row's id and the new values of its columns. */
    async updateEvents(rows: EventUpdate[]) {
      if (!rows.length) return;
      // A new image address drops the kept copy of the old one; the image job fetches the new one.
      const set = sql.raw(
        [
          'image_id = case when e.image_url is distinct from v.image_url then null else e.image_id end',
          ...UPDATE_COLUMNS.slice(1).map(([name]) => `${name} = v.${name}`),
        ].join(', '),
      );
      await db.execute(sql`update ${events} as e set ${set} from ${unnestRows(rows, UPDATE_COLUMNS)} where e.id = v.id`);
    },
    /**
     * Marks events only this source listed, still to come, that its run did not see again. An
     * event another source still lists (directly, or through a record merged into it) stays.
     */
    async markGone(sourceId: string, runStart: Date, now: Date): Promise<{ id: string; status: string; title: string }[]> {
      // Soonest first, whatever order the update met them in: the first are the run note's examples.
      return queryRows<{ id: string; status: string; title: string }>(
        db,
        sql`with gone as (update ${events} set gone_at = ${now.toISOString()} where ${unseenBy(sourceId, runStart, now)} returning id, status, title, start_date)
          select id, status, title from gone order by start_date, title`,
      );
    },
    /**
     * Listed events whose own record is this source's, that its run did not see again (with no
     * run: all of them), while another source's record merged into them, approved before its
     * merge, is still listed: each with that record (the oldest), which can take the event over
     * (duplicates' handOver). Not an event an admin turned down or corrected: that stays as it is.
     */
    async handOverCandidates(sourceId: string, runStart: Date | null, now: Date): Promise<{ eventId: string; recordId: string }[]> {
      const unseen = runStart ? sql` and l.seen_at < ${runStart.toISOString()}` : sql``;
      const listedRecord = listedRecordOf(sourceId);
      return queryRows<{ eventId: string; recordId: string }>(
        db,
        sql`select e.id as "eventId", (select c.id from ${events} c where ${listedRecord} order by c.created_at, c.id limit 1) as "recordId"
          from ${events} e
          where e.gone_at is null and e.status = 'approved' and cardinality(e.edited_fields) = 0 and e.start_date > ${now.toISOString()}
            and e.id in (select l.event_id from ${eventSources} l where l.source_id = ${sourceId}${unseen})
            and not exists (select 1 from ${eventSources} s2 where s2.event_id = e.id and s2.source_id is distinct from ${sourceId})
            and exists (select 1 from ${events} c where ${listedRecord})
          order by e.id`,
      );
    },
    /**
     * Of `ids`, the listed events to come that this source's run has just said are cancelled or
     * postponed, while another source's record merged into them still lists them: each with that
     * record, which takes it over (as handOverCandidates, for an event the source dropped).
     */
    async calledOffCandidates(sourceId: string, ids: readonly string[], now: Date): Promise<{ eventId: string; recordId: string }[]> {
      if (!ids.length) return [];
      const listedRecord = listedRecordOf(sourceId);
      return queryRows<{ eventId: string; recordId: string }>(
        db,
        sql`select e.id as "eventId", (select c.id from ${events} c where ${listedRecord} order by c.created_at, c.id limit 1) as "recordId"
          from ${events} e
          where e.id = any(${sql.param([...ids])}::uuid[]) and e.gone_at is not null and (e.cancelled_by_source or e.postponed_by_source)
            and e.status = 'approved' and cardinality(e.edited_fields) = 0 and e.start_date > ${now.toISOString()}
            and exists (select 1 from ${events} c where ${listedRecord})
          order by e.id`,
      );
    },
    /**
     * Of `ids` (records the run lists again), those merged into an event that took over from them
     * (a record of another source, listed after them: handOver), that can take it back: listed
     * before their merge, the event listed, to come, and not corrected by an admin.
     */
    async handBackCandidates(ids: readonly string[], now: Date): Promise<{ eventId: string; recordId: string }[]> {
      if (!ids.length) return [];
      return queryRows<{ eventId: string; recordId: string }>(
        db,
        sql`select e.id as "eventId", c.id as "recordId"
          from ${events} c join ${events} e on e.id = c.merged_into
          where c.id = any(${sql.param([...ids])}::uuid[]) and c.status = 'merged' and c.premerge_status = 'approved' and c.gone_at is null
            and c.created_at < e.created_at
            and e.status = 'approved' and e.gone_at is null and cardinality(e.edited_fields) = 0 and e.start_date > ${now.toISOString()}
          order by e.id`,
      );
    },
    /** How many events markGone would mark (a run that did not read the whole source keeps them listed). */
    async countUnseen(sourceId: string, runStart: Date, now: Date): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(events).where(unseenBy(sourceId, runStart, now));
      return row?.n ?? 0;
    },
    /** How many listed events to come only this source lists, whether its run met them or not. */
    async countListedOnlyBy(sourceId: string, now: Date): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(events).where(unseenBy(sourceId, null, now));
      return row?.n ?? 0;
    },
  };
}

/** A record of another source merged into `e`, which that source still lists, listed before its merge. */
const listedRecordOf = (sourceId: string) => sql`c.merged_into = e.id and c.status = 'merged' and c.premerge_status = 'approved' and c.gone_at is null
        and exists (select 1 from ${eventSources} s3 where s3.event_id = c.id and s3.source_id is distinct from ${sourceId})`;

/** Listed events only this source lists, still to come, that its run did not see again (with no run: all of them). */
function unseenBy(sourceId: string, runStart: Date | null, now: Date) {
  const unseen = runStart ? sql` and ${eventSources.seenAt} < ${runStart.toISOString()}` : sql``;
  return sql`${events.goneAt} is null and ${events.startDate} > ${now.toISOString()} and ${events.id} in (
        select ${eventSources.eventId} from ${eventSources} where ${eventSources.sourceId} = ${sourceId}${unseen})
        and not exists (select 1 from ${eventSources} s2 where s2.event_id = ${events.id} and s2.source_id is distinct from ${sourceId})
        and not exists (select 1 from ${events} c join ${eventSources} s3 on s3.event_id = c.id
          where c.merged_into = ${events.id} and c.gone_at is null and s3.source_id is distinct from ${sourceId})`;
}

export type SourcesRepository = ReturnType<typeof createSourcesRepository>;
