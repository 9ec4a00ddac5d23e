import type { SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { eventSources, events } from '../features/events/events.table.ts';
import { sources } from '../features/ingestion/sources.table.ts';

let seq = 0;
export type EventOverrides = Partial<typeof events.$inferInsert>;

/** Inserts an enabled source, as an admin adds one, and returns its row. */
export async function buildSource(db: Db, o: Partial<typeof sources.$inferInsert> = {}) {
  seq += 1;
  const [row] = await db.insert(sources).values({ name: `Source ${seq}`, connector: 'ical', sourceType: 'ical', ...o }).returning();
  if (!row) throw new Error('no row');
  return row;
}

/** Inserts an approved event (with one source link: to `source` when given) and returns its row. */
export async function buildEvent(db: Db, o: EventOverrides = {}, source?: { id: string; name: string }) {
  seq += 1;
  const start = o.startDate ?? new Date(Date.now() + (24 + seq) * 3600 * 1000);
  const [row] = await db
    .insert(events)
    .values({
      title: `Event ${seq}`,
      description: '',
      category: 'Music',
      sourceType: 'municipal',
      timeZone: 'America/Los_Angeles',
      venueName: `Venue ${seq}`,
      neighbourhood: 'Downtown',
      lat: 45.5152,
      lng: -122.6784,
      status: 'approved',
      ...o,
      startDate: start,
      endDate: o.endDate ?? new Date(start.getTime() + 2 * 3600 * 1000),
    })
    .returning();
  if (!row) throw new Error('no row');
  await db.insert(eventSources).values({ eventId: row.id, sourceType: row.sourceType, url: `https://example.org/e/${row.id}`, name: source?.name ?? `${row.sourceType} feed`, sourceId: source?.id ?? null });
  return row;
}

/** Rows of a raw query, typed by the caller (both drivers answer `{ rows }`). */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
