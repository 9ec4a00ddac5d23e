import { and, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { eventSources, events, venues } from '../events/events.table.ts';
import { sourceRuns, sources } from './sources.table.ts';

export type SourceRow = typeof sources.$inferSelect;
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
        .select({ eventId: eventSources.eventId, externalId: eventSources.externalId })
        .from(eventSources)
        .where(eq(eventSources.sourceId, sourceId)),
    eventsById: (ids: string[]) => (ids.length ? db.select().from(events).where(inArray(events.id, ids)) : Promise.resolve([])),
    eventsStartingBetween: (from: Date, to: Date) =>
      db
        .select({ id: events.id, title: events.title, startDate: events.startDate, venueName: events.venueName, lat: events.lat, lng: events.lng, description: events.description, imageUrl: events.imageUrl })
        .from(events)
        .where(and(gte(events.startDate, from), lte(events.startDate, to))),
    allVenues: () => db.select().from(venues),
    insertVenues: (rows: (typeof venues.$inferInsert)[]) => (rows.length ? db.insert(venues).values(rows) : Promise.resolve()),
    insertEvents: (rows: (typeof events.$inferInsert)[]) => (rows.length ? db.insert(events).values(rows) : Promise.resolve()),
    insertLinks: (rows: (typeof eventSources.$inferInsert)[]) => (rows.length ? db.insert(eventSources).values(rows).onConflictDoNothing() : Promise.resolve()),
    updateEvent: (id: string, patch: Partial<typeof events.$inferInsert>) => db.update(events).set(patch).where(eq(events.id, id)),
    touchLinks: (sourceId: string, externalIds: string[], at: Date) =>
      externalIds.length
        ? db.update(eventSources).set({ seenAt: at }).where(and(eq(eventSources.sourceId, sourceId), inArray(eventSources.externalId, externalIds)))
        : Promise.resolve(),
    /** Marks events only this source listed, still to come, that its run did not see again. */
    async markGone(sourceId: string, runStart: Date, now: Date) {
      await db.execute(sql`update ${events} set gone_at = ${now.toISOString()} where gone_at is null and start_date > ${now.toISOString()} and id in (
        select ${eventSources.eventId} from ${eventSources} where ${eventSources.sourceId} = ${sourceId} and ${eventSources.seenAt} < ${runStart.toISOString()})
        and not exists (select 1 from ${eventSources} s2 where s2.event_id = ${events.id} and s2.source_id is distinct from ${sourceId})`);
    },
  };
}

export type SourcesRepository = ReturnType<typeof createSourcesRepository>;
