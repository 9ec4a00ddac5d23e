import { and, asc, desc, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.ts';
import { createEventsRepository, peopleOf } from '../events/events.repository.ts';
import { fillFromMerged } from '../events/events.mapper.ts';
import { eventSources, events, favorites } from '../events/events.table.ts';
import { duplicatePairs } from './duplicates.table.ts';
import { sources } from './sources.table.ts';
import type { ProposedPair } from './pipeline/plan-run.ts';
import { COPIED_EVENT_COLUMNS } from './sources.repository.ts';
import { editedColumns } from './pipeline/event-row.ts';
import { fillChanges, ownValues, sameFilled } from './pipeline/merge-fill.ts';

export type DuplicatePairRow = typeof duplicatePairs.$inferSelect;

/** One side of an event and a record merged into it, as dedup compares them again. */
export interface MergedPairSide {
  id: string;
  title: string;
  start: Date;
  allDay: boolean;
  venueName: string;
  venueId: string | null;
  address: string | null;
  lat: number | null;
  lng: number | null;
  geoApprox: boolean;
  url: string | null;
}

/**
 * An open proposal whose two events are both still on their own (not merged since), one of them
 * at least still listed by its source: once both are gone there is nothing left to decide (while
 * one is, a merge still gives whoever saved it the listing that remains).
 */
const stillOpen = and(
  eq(duplicatePairs.status, 'open'),
  sql`not exists (select 1 from ${events} e where e.id in (${duplicatePairs.eventA}, ${duplicatePairs.eventB}) and e.status = 'merged')`,
  sql`exists (select 1 from ${events} e where e.id in (${duplicatePairs.eventA}, ${duplicatePairs.eventB}) and e.gone_at is null)`,
);

/** Queries on proposed duplicate pairs, and the event writes a merge or a split makes. */
export function createDuplicatesRepository(db: Db) {
  /** Locks events until the transaction ends, in one order (id) whoever locks them. */
  const lockEvents = async (ids: readonly string[]) => {
    await db.execute(sql`select id from ${events} where id = any(${sql.param([...ids])}::uuid[]) order by id for update`);
  };
  /**
   * Merges `childId` into `targetId`: the child is kept whole (status 'merged', its own status
   * remembered), records merged into it follow, and people who saved it have the target saved too
   * (a copy that remembers the record it came from, so a split gives it back).
   */
  async function mergeInto(childId: string, targetId: string, at: Date) {
    await db.execute(sql`update ${events} set premerge_status = status, status = 'merged', merged_into = ${targetId}, updated_at = ${at.toISOString()}
      where id = ${childId} and status <> 'merged'`);
    await db.execute(sql`update ${events} set merged_into = ${targetId} where merged_into = ${childId}`);
    await db.execute(sql`insert into ${favorites} (user_id, event_id, created_at, copied_from)
      select user_id, ${targetId}, created_at, coalesce(copied_from, ${childId}) from ${favorites} where event_id = ${childId} on conflict do nothing`);
    await db.execute(sql`update ${events} e set favorite_count = (select count(*) from ${favorites} where event_id = ${targetId}), people_count = ${peopleOf(sql`e.id`)} where e.id = ${targetId}`);
  }
  /**
   * Fills what each event's own record leaves blank from the records merged into it (see
   * fillFromMerged: a description, a price, a place, an end), from the record's own values, so
   * that a field no record fills any more (after a split, or a record its source changed or
   * dropped) gets its own value back; the own values are kept in `filled` (merge-fill.ts). Lists,
   * filters and calendars show what is filled. Returns the events it changed.
   */
  async function fillFromMergedRecords(eventIds: readonly string[]): Promise<string[]> {
    const reads = createEventsRepository(db);
    // In id order across chunks too, as every locker of events takes them.
    const ids = [...new Set(eventIds)].sort();
    const changed: string[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      // Read what a split or merge under way has committed, not what it is changing.
      await lockEvents(chunk);
      const [rows, records] = [await reads.findByIds(chunk), await reads.findMergedRecords(chunk)];
      for (const row of rows) {
        if (row.event.status === 'merged') continue;
        const mine = records.filter((m) => m.event.mergedInto === row.event.id);
        if (!mine.length && Object.keys(row.event.filled).length === 0) continue;
        const own = ownValues(row.event);
        const withFill = fillFromMerged({ ...row, event: own }, mine).event;
        // What an admin corrected is the event's own: never filled over.
        for (const c of editedColumns(row.event.editedFields)) Object.assign(withFill, { [c]: own[c] });
        const { set, filled } = fillChanges(row.event, withFill);
        if (!Object.keys(set).length && sameFilled(filled, row.event.filled)) continue;
        await db.update(events).set({ ...set, filled }).where(eq(events.id, row.event.id));
        changed.push(row.event.id);
      }
    }
    return changed;
  }
  return {
    /** Proposes pairs; a pair already proposed (or decided) stays as it is. */
    async insertPairs(rows: ProposedPair[], at: Date) {
      if (!rows.length) return;
      const col = <T>(f: (r: ProposedPair) => T) => sql.param(rows.map(f));
      await db.execute(sql`insert into ${duplicatePairs} (event_a, event_b, kind, score, reason, created_at)
        select * from unnest(${col((r) => r.eventA)}::uuid[], ${col((r) => r.eventB)}::uuid[], ${col((r) => r.kind)}::text[],
          ${col((r) => r.score)}::real[], ${col((r) => r.reason)}::text[], array_fill(${at.toISOString()}::timestamptz, array[${rows.length}::int]))
        on conflict (event_a, event_b) do nothing`);
    },
    /** Admins' decisions on cross-source proposals: what trains the merge threshold (not the app's own, decided by no one). */
    decisions: () =>
      db
        .select({ score: duplicatePairs.score, status: duplicatePairs.status })
        .from(duplicatePairs)
        .where(and(ne(duplicatePairs.status, 'open'), eq(duplicatePairs.kind, 'cross_source'), isNotNull(duplicatePairs.decidedBy))),
    /** Open proposals of two sources' records with `eventId` on one side. */
    openCrossSourceOf: (eventId: string) =>
      db
        .select()
        .from(duplicatePairs)
        .where(and(stillOpen, eq(duplicatePairs.kind, 'cross_source'), sql`${eventId} in (${duplicatePairs.eventA}, ${duplicatePairs.eventB})`))
        .orderBy(desc(duplicatePairs.score), asc(duplicatePairs.createdAt)),
    /** Open proposals whose two events are both still listed on their own (not merged since), most likely first. */
    listOpen: (limit: number) => db.select().from(duplicatePairs).where(stillOpen).orderBy(desc(duplicatePairs.score), asc(duplicatePairs.createdAt)).limit(limit),
    /**
     * The names of the sources listing each event, by event id: its own links and those of the
     * records merged into it (a member's contribution has none).
     */
    async sourceNames(eventIds: string[]): Promise<Map<string, string[]>> {
      if (!eventIds.length) return new Map();
      const rows = await queryRows<{ eventId: string; names: string[] }>(
        db,
        sql`select coalesce(e.merged_into, e.id) as "eventId", array_agg(distinct s.name order by s.name) as names
          from ${events} e join ${eventSources} l on l.event_id = e.id join ${sources} s on s.id = l.source_id
          where e.id = any(${sql.param(eventIds)}::uuid[]) or e.merged_into = any(${sql.param(eventIds)}::uuid[])
          group by coalesce(e.merged_into, e.id)`,
      );
      return new Map(rows.map((r) => [r.eventId, r.names]));
    },
    /** The names of the sources of each record's own links, by record id. */
    async ownSourceNames(ids: string[]): Promise<Map<string, string[]>> {
      if (!ids.length) return new Map();
      const rows = await queryRows<{ id: string; names: string[] }>(
        db,
        sql`select l.event_id as id, array_agg(distinct coalesce(s.name, l.name) order by coalesce(s.name, l.name)) as names
          from ${eventSources} l left join ${sources} s on s.id = l.source_id where l.event_id = any(${sql.param(ids)}::uuid[]) group by l.event_id`,
      );
      return new Map(rows.map((r) => [r.id, r.names]));
    },
    /** How many proposals listOpen would give without its limit. */
    async countOpen(): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(duplicatePairs).where(stillOpen);
      return row?.n ?? 0;
    },
    async findById(id: string) {
      const [row] = await db.select().from(duplicatePairs).where(eq(duplicatePairs.id, id));
      return row;
    },
    /** `by` null: decided by the app (a merge an approval let happen), no admin's judgement. */
    async decide(id: string, status: 'merged' | 'kept_apart', by: string | null, at: Date) {
      await db.update(duplicatePairs).set({ status, decidedBy: by, decidedAt: at }).where(eq(duplicatePairs.id, id));
    },
    /** The proposal of two events, if any, and what became of it. */
    async decisionOn(x: string, y: string): Promise<{ id: string; status: DuplicatePairRow['status'] } | undefined> {
      const [a, b] = x < y ? [x, y] : [y, x];
      const [row] = await db.select({ id: duplicatePairs.id, status: duplicatePairs.status }).from(duplicatePairs).where(and(eq(duplicatePairs.eventA, a), eq(duplicatePairs.eventB, b)));
      return row;
    },
    /** Records a decision on a pair that may not have been proposed (a split is a "keep apart"). */
    async upsertDecision(pair: ProposedPair, status: 'merged' | 'kept_apart', by: string, at: Date) {
      await db
        .insert(duplicatePairs)
        .values({ ...pair, status, decidedBy: by, decidedAt: at, createdAt: at })
        .onConflictDoUpdate({ target: [duplicatePairs.eventA, duplicatePairs.eventB], set: { status, decidedBy: by, decidedAt: at } });
    },
    lockEvents,
    /**
     * Each listed-again-able record merged into an event (not gone), with the event, where one of
     * the two is among `ids`: what a run compares again once it has written what its source says now.
     */
    async liveMergedPairs(ids: readonly string[]): Promise<{ event: MergedPairSide; record: MergedPairSide & { premergeStatus: string | null; sourceName: string } }[]> {
      if (!ids.length) return [];
      const side = (t: string) =>
        sql.raw(
          `json_build_object('id', ${t}.id, 'title', ${t}.title, 'start', ${t}.start_date, 'allDay', ${t}.all_day, 'venueName', ${t}.venue_name, 'venueId', ${t}.venue_id, 'address', ${t}.address, 'lat', ${t}.lat, 'lng', ${t}.lng, 'geoApprox', ${t}.geo_approx, 'url', ${t}.source_url)`,
        );
      const rows = await queryRows<{ event: Omit<MergedPairSide, 'start'> & { start: string }; record: Omit<MergedPairSide, 'start'> & { start: string }; premergeStatus: string | null; sourceName: string | null }>(
        db,
        sql`select ${side('e')} as event, ${side('r')} as record, r.premerge_status as "premergeStatus",
            (select l.name from ${eventSources} l where l.event_id = r.id order by l.seen_at limit 1) as "sourceName"
          from ${events} r join ${events} e on e.id = r.merged_into
          where r.status = 'merged' and r.gone_at is null and (r.id = any(${sql.param([...ids])}::uuid[]) or e.id = any(${sql.param([...ids])}::uuid[]))
          order by e.id, r.id`,
      );
      return rows.map((r) => ({
        event: { ...r.event, start: new Date(r.event.start) },
        record: { ...r.record, start: new Date(r.record.start), premergeStatus: r.premergeStatus, sourceName: r.sourceName ?? 'Another source' },
      }));
    },
    async findEvent(id: string) {
      const [row] = await db.select({ id: events.id, status: events.status, mergedInto: events.mergedInto, createdAt: events.createdAt, goneAt: events.goneAt }).from(events).where(eq(events.id, id));
      return row;
    },
    mergeInto,
    /**
     * Gives every record merged into the event its own listing back, with the status it had; the
     * saves the merges copied go back to the records they came from, and each count is made again.
     */
    async restoreMerged(eventId: string, at: Date, onlyId?: string): Promise<string[]> {
      const only = onlyId ? sql` and id = ${onlyId}` : sql``;
      const rows = await queryRows<{ id: string }>(db, sql`update ${events} set status = coalesce(premerge_status, 'pending'), premerge_status = null, merged_into = null, updated_at = ${at.toISOString()}
        where merged_into = ${eventId}${only} returning id`);
      const ids = rows.map((r) => r.id);
      if (ids.length) {
        const restored = sql`${sql.param(ids)}::uuid[]`;
        await db.execute(sql`delete from ${favorites} where copied_from = any(${restored})`);
        await db.execute(sql`update ${events} e set favorite_count = (select count(*) from ${favorites} f where f.event_id = e.id), people_count = ${peopleOf(sql`e.id`)}
          where e.id = ${eventId} or e.id = any(${restored})`);
      }
      return ids;
    },
    fillFromMergedRecords,
    /**
     * A record merged into an event takes it over, the event's own record now gone from its
     * source: the record is listed again (as it was before its merge), the event's other records
     * are merged into it, and the event becomes its record, gone (a saved link answers with the
     * record, whose saves it copies). Both show their own values, the new event filled from its
     * records. Nothing is deleted: a split of the record gives the event back as it was, gone.
     */
    async handOver(eventId: string, recordId: string, at: Date, eventGone = true) {
      // The event before its record, as a split or a run of the record's source locks them.
      await lockEvents([eventId]);
      await lockEvents([recordId]);
      const stamp = at.toISOString();
      const [taken] = await queryRows<{ id: string }>(
        db,
        sql`update ${events} r set status = 'approved', premerge_status = null, merged_into = null, updated_at = ${stamp}
          where r.id = ${recordId} and r.merged_into = ${eventId} and r.status = 'merged' and r.premerge_status = 'approved' and r.gone_at is null
            and exists (select 1 from ${events} e where e.id = ${eventId} and e.status = 'approved' and cardinality(e.edited_fields) = 0)
          returning r.id`,
      );
      if (!taken) return false;
      await db.execute(sql`update ${events} set merged_into = ${recordId} where merged_into = ${eventId}`);
      // No record merged into it now: what they filled goes back to its own values.
      await fillFromMergedRecords([eventId]);
      await mergeInto(eventId, recordId, at);
      // Its own source dropped it (or called it off): gone. A record handed back to stays listed by its source.
      if (eventGone) await db.execute(sql`update ${events} set gone_at = ${stamp} where id = ${eventId}`);
      await fillFromMergedRecords([recordId]);
      return true;
    },
    /**
     * Events merged before merges filled the kept row (migration 0037): nothing filled yet, while
     * a record merged into them that may fill (see fillFromMerged: one its source still lists, and
     * for a listed event one that was listed before its merge) gives what their own leaves blank.
     * Once filled they are no longer among these; only a blank an admin's correction keeps is
     * found again at the next start. In id order, as events are locked.
     */
    async unfilledMergeTargets(): Promise<string[]> {
      const rows = await queryRows<{ id: string }>(
        db,
        sql`select distinct t.id from ${events} m join ${events} t on t.id = m.merged_into
          where m.merged_into is not null and m.status = 'merged' and m.gone_at is null and t.status <> 'merged' and t.filled = '{}'::jsonb
            and (t.status <> 'approved' or m.premerge_status = 'approved')
            and ((btrim(t.description) = '' and btrim(m.description) <> '')
              or ((t.lat is null or t.lng is null or t.geo_approx) and m.lat is not null and m.lng is not null and not m.geo_approx)
              or (t.price is null and not t.is_free and (m.price is not null or m.is_free))
              or (btrim(t.venue_name) = '' and btrim(m.venue_name) <> '')
              or (t.address is null and m.address is not null)
              or (t.neighbourhood is null and m.neighbourhood is not null)
              or (not t.end_given and m.end_given and m.start_date = t.start_date))
          order by t.id`,
      );
      return rows.map((r) => r.id);
    },
    /** The events that records among `ids` are merged into (whose fill a change of those records may change). */
    async mergedTargets(ids: readonly string[]): Promise<string[]> {
      if (!ids.length) return [];
      const rows = await db.selectDistinct({ id: events.mergedInto }).from(events).where(and(inArray(events.id, [...ids]), eq(events.status, 'merged')));
      return rows.flatMap((r) => (r.id ? [r.id] : []));
    },
    /** The event's own links, oldest first: more than one source among them is a merge from before records were kept. */
    ownLinks: (eventId: string) =>
      db
        .select({ sourceId: eventSources.sourceId, sourceType: eventSources.sourceType, externalId: eventSources.externalId, url: eventSources.url })
        .from(eventSources)
        .where(eq(eventSources.eventId, eventId))
        .orderBy(asc(eventSources.seenAt)),
    /**
     * A copy of the event as its own listing, for a source linked to it directly: the link moves
     * to the copy and forgets its hash, so the source's next run writes its own version.
     */
    async splitLinkToCopy(eventId: string, link: { sourceId: string | null; sourceType: string; url: string }, at: Date): Promise<string> {
      const copied = sql.raw(COPIED_EVENT_COLUMNS.join(', '));
      const copy = await queryRows<{ id: string }>(
        db,
        sql`insert into ${events} (${copied}, source_type, created_at, updated_at)
          select ${copied}, ${link.sourceType}, ${at.toISOString()}, ${at.toISOString()} from ${events} where id = ${eventId} returning id`,
      );
      const id = copy[0]!.id;
      await db.execute(sql`update ${eventSources} set event_id = ${id}, content_hash = null
        where event_id = ${eventId} and ${link.sourceId === null ? sql`source_id is null and source_type = ${link.sourceType} and url = ${link.url}` : sql`source_id = ${link.sourceId}`}`);
      return id;
    },
    /** Fields a split compares to score the pair it records as kept apart. */
    comparables: (ids: string[]) =>
      db
        .select({ id: events.id, title: events.title, startDate: events.startDate, venueName: events.venueName, venueId: events.venueId, address: events.address, lat: events.lat, lng: events.lng, geoApprox: events.geoApprox, url: events.sourceUrl, status: events.status, goneAt: events.goneAt })
        .from(events)
        .where(sql`${events.id} = any(${sql.param(ids)}::uuid[])`),
  };
}

export type DuplicatesRepository = ReturnType<typeof createDuplicatesRepository>;
