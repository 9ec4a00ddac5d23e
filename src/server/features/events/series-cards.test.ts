import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { seededRandom } from '../../lib/random.ts';
import { openTestDatabase } from '../../test/test-db.ts';
import { filterConditions, type EventFilter } from './events.repository.ts';
import { events } from './events.table.ts';

// A series is one card in lists: its first occurrence that the filter lets through. The test
// reads `series_prev_end`, which triggers keep (migration 0014); these tests check that column
// against the rule itself, computed here from the rows, after every kind of write.
const NOW = new Date('2026-11-22T20:00:00Z');
const H = 3600_000;
const at = (h: number) => new Date(NOW.getTime() + h * H);

type Row = { id: string; seriesKey: string; status: string; goneAt: Date | null; startDate: Date; endDate: Date };

/** The cards a filter lists, by the rule: no occurrence of the series that starts earlier passes the filter too. */
function expectedCards(rows: Row[], f: EventFilter): string[] {
  const passes = (r: Row) =>
    r.status === 'approved' &&
    r.goneAt === null &&
    (f.includeEnded || r.endDate > f.now) &&
    // The window [from, to): ending after it opens (or an instant at its opening), starting before it closes.
    (!f.from || r.endDate > f.from || r.startDate >= f.from) &&
    (!f.to || r.startDate < f.to);
  // Strictly earlier: occurrences at the same moment are each their own card.
  const earlier = (o: Row, r: Row) => o.startDate < r.startDate;
  return rows
    .filter((r) => passes(r) && !rows.some((o) => o.seriesKey === r.seriesKey && passes(o) && earlier(o, r)))
    .map((r) => r.id)
    .sort();
}

describe('series cards (series_prev_end kept by triggers)', () => {
  let database: Database;
  const all = async (): Promise<Row[]> =>
    database.db.select({ id: events.id, seriesKey: sql<string>`${events.seriesKey}`, status: events.status, goneAt: events.goneAt, startDate: events.startDate, endDate: events.endDate }).from(events);
  const listed = async (f: EventFilter) =>
    (await database.db.select({ id: events.id }).from(events).where(and(...filterConditions(f)))).map((r) => r.id).sort();
  const filters = (): EventFilter[] => [
    { now: NOW },
    { now: NOW, from: at(30), to: at(60) },
    { now: NOW, from: at(-10), to: at(200) },
    { now: NOW, to: at(24) },
    { now: NOW, includeEnded: true },
    { now: at(50) },
    { now: at(50), from: at(70) },
  ];
  const check = async () => {
    const rows = await all();
    for (const f of filters()) expect(await listed(f), JSON.stringify(f)).toEqual(expectedCards(rows, f));
  };

  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('lists one card per series after inserts, status and date changes, removals, renames and deletes', async () => {
    // Seeded, so a failure repeats.
    const rnd = seededRandom(42);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
    const titles = Array.from({ length: 12 }, (_, i) => `Series ${i}`);
    const venues = ['Doug Fir', 'Holocene', ''];
    // Inserted in two statements, as ingestion writes in chunks.
    for (const chunk of [0, 1]) {
      await database.db.insert(events).values(
        Array.from({ length: 60 }, () => {
          // Starts on a 10-hour grid: occurrences of one series often share a moment.
          const start = Math.floor(rnd() * 24) * 10 - 40;
          return {
            title: pick(titles),
            venueName: pick(venues),
            sourceType: 'ical' as const,
            timeZone: 'America/Los_Angeles',
            category: 'Music' as const,
            status: pick(['approved', 'approved', 'approved', 'pending', 'rejected'] as const),
            startDate: at(start),
            endDate: at(start + 1 + Math.floor(rnd() * 30)),
            goneAt: rnd() < 0.1 ? NOW : null,
            isDemo: chunk === 0,
          };
        }),
      );
    }
    await check();
    const ids = () => all().then((rows) => rows.map((r) => r.id));
    // Status changes (an approval, a rejection, a merge), one row and many at once.
    let some = (await ids()).slice(0, 15);
    await database.db.update(events).set({ status: 'rejected' }).where(inArray(events.id, some.slice(0, 5)));
    await database.db.update(events).set({ status: 'approved' }).where(inArray(events.id, some.slice(5, 15)));
    await check();
    // Dates moved (a rescheduled occurrence), the source dropping some, and taking them back.
    some = (await ids()).slice(20, 40);
    for (const id of some.slice(0, 6)) await database.db.update(events).set({ startDate: at(Math.floor(rnd() * 100)), endDate: at(120) }).where(eq(events.id, id));
    await database.db.update(events).set({ goneAt: NOW }).where(inArray(events.id, some.slice(6, 14)));
    await check();
    await database.db.update(events).set({ goneAt: null }).where(inArray(events.id, some.slice(6, 10)));
    await check();
    // A rename moves a row to another series; a delete leaves its series.
    some = (await ids()).slice(50, 70);
    await database.db.update(events).set({ title: 'Series 0' }).where(inArray(events.id, some.slice(0, 8)));
    await check();
    await database.db.delete(events).where(inArray(events.id, some.slice(8, 20)));
    await check();
    // A write that changes nothing of a series (a favourite counted) leaves the cards alone.
    await database.db.update(events).set({ favoriteCount: sql`${events.favoriteCount} + 1` });
    await check();
  });
});
