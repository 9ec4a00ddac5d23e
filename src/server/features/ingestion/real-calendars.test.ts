import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import type { RunSummaryResponse } from '../../../contract/ingestion.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PORTLAND } from '../../city.ts';
import { buildTestApp, signupUser, TEST_ORIGIN, type TestApp } from '../../test/build-test-app.ts';
import { queryRows } from '../../test/factories.ts';
import { serveText, startFeedServer, type Route } from '../../test/feed-server.ts';
import { CALLED_OFF_MERGED } from './ingestion.service.ts';
import { closeSharedSandbox } from './parse/sandbox.ts';
import { parseIcal } from './parse/ical.parse.ts';
import { parseJsonLd } from './parse/jsonld.parse.ts';

// Every real calendar and event page of the shared fixtures, each added as a source and run
// through the API onto one database, with the clock a day before its first event: every run
// succeeds, and every event a run takes stays listed on its own. Real calendars list distinct
// events, so nothing is merged across 44 calendars of clubs, venues, TV guides and holidays; the
// real duplicates (two snapshots of one Songkick page) are merged. The first run of this test found
// a real calendar (THFC's fixtures, one description of 2,855 characters) whose whole run failed in
// the database (migration 0021). A real Ticketmaster search goes the same way through its connector.
const ICS = resolve(process.cwd(), '../shared/fixtures/ics');
const JSONLD = resolve(process.cwd(), '../shared/fixtures/jsonld');
const TICKETMASTER = resolve(process.cwd(), '../shared/fixtures/api/ticketmaster__discovery_v2_event_all-200.response_body.json');
const has = existsSync(ICS) && existsSync(JSONLD) && existsSync(TICKETMASTER);
const files = has ? readdirSync(ICS).filter((f) => f.endsWith('.ics')).sort() : [];
const pages = has ? readdirSync(JSONLD).filter((f) => f.endsWith('.html')).sort() : [];

/** The calendar's first start, read by the parser itself (null when it holds no usable event). */
function firstStart(text: string): Date | null {
  try {
    const starts = parseIcal({ text, now: new Date('1990-01-01T00:00:00Z'), timeZone: PORTLAND.timeZone, horizonDays: 20_000, maxOccurrences: 5 }).candidates.map((c) => c.start.getTime());
    return starts.length ? new Date(Math.min(...starts)) : null;
  } catch {
    return null;
  }
}

let t: TestApp;
let admin: string;
let server: Awaited<ReturnType<typeof startFeedServer>>;
const texts = new Map([...files.map((f) => [f, readFileSync(join(ICS, f), 'utf8')] as const), ...pages.map((f) => [f, readFileSync(join(JSONLD, f), 'utf8')] as const)]);

type RunSummary = RunSummaryResponse & { file: string };
let calls = 0;
/**
 * Adds the file as a source and runs it once (the run route allows an admin 30 runs a minute: the
 * count so far is forgotten first); `again` runs it a second time a minute later, as the scheduler would.
 */
async function runAsSource(file: string, connector: 'ical' | 'jsonld' | 'ticketmaster', again = false, config: Record<string, unknown> = {}): Promise<RunSummary & { second?: RunSummary }> {
  calls += 1;
  await t.database.db.execute(sql`delete from rate_limits`);
  const call = (url: string, payload?: object) => t.app.inject({ method: 'POST', url, headers: { origin: TEST_ORIGIN, cookie: admin }, ...(payload ? { payload } : {}) });
  const created = await call('/api/admin/sources', { name: `Real ${calls}`, connector, url: server.url(`/${file}`), sourceType: connector, trusted: true, config });
  expect(created.statusCode, file).toBe(201);
  const id = (created.json() as { id: string }).id;
  const first = { file, ...((await call(`/api/admin/sources/${id}/run`)).json() as Omit<RunSummary, 'file'>) };
  if (!again) return first;
  t.clock.advance(60_000);
  return { ...first, second: { file, ...((await call(`/api/admin/sources/${id}/run`)).json() as Omit<RunSummary, 'file'>) } };
}
const listedCount = async () =>
  (await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from events where status <> 'merged' and gone_at is null`))[0]!.n;

beforeAll(async () => {
  if (!has) return;
  const routes: Record<string, Route> = {};
  for (const [f, text] of texts) routes[`/${f}`] = serveText(text, f.endsWith('.html') ? 'text/html; charset=utf-8' : 'text/calendar; charset=utf-8');
  // A real Discovery API answer (20 events across the US), served as the search's only page.
  const search = JSON.parse(readFileSync(TICKETMASTER, 'utf8')) as Record<string, unknown>;
  routes['/discovery/v2/events.json'] = serveText(JSON.stringify({ ...search, page: { size: 20, totalElements: 20, totalPages: 1, number: 0 } }), 'application/json');
  server = await startFeedServer(routes);
  t = await buildTestApp();
  // Signed in now: the runs below happen years earlier on the clock, within the session's life.
  admin = (await signupUser(t.app)).cookie;
});
afterAll(async () => {
  if (!has) return;
  await t.close();
  await server.close();
  await closeSharedSandbox();
});

describe.skipIf(!has)('real calendars and event pages (needs ../shared/fixtures)', () => {
  it('lists every event each real calendar gives, merges none, fails no run, and a second run changes nothing', { timeout: 120_000 }, async () => {
    const runs: (RunSummary & { second?: RunSummary })[] = [];
    const withStart = files.map((f) => ({ f, start: firstStart(texts.get(f)!) })).filter((x) => x.start !== null);
    expect(withStart.length).toBeGreaterThanOrEqual(40);
    for (const { f, start } of withStart) {
      t.clock.set(new Date(start!.getTime() - 86_400_000));
      runs.push(await runAsSource(f, 'ical', true));
    }
    expect(runs.filter((r) => r.status !== 'success')).toEqual([]);
    // What a run leaves out is told to the admin: every rejected item has its reason, and the
    // entries skipped as unusable are only those the files truly leave without a title or a date.
    expect(runs.filter((r) => r.notes.reduce((n, note) => n + (note.kind === 'rejected' ? note.count : 0), 0) !== r.rejected)).toEqual([]);
    expect(runs.filter((r) => r.skipped > 0).map((r) => [r.file, r.notes.filter((n) => n.kind === 'skipped').map((n) => `${n.count} ${n.reason}: ${n.examples.join(', ')}`)])).toEqual([
      ['ical4j__EstoniaHolidays.ics', ['1 had no title: 6d6d35c2-7bec-47d7-8dcb-28280b7ea7fd']],
      ['ical4j__google_aus_holidays.ics', ['2 had no title: ou0bm7s8e08qepmh6dkm3na4t0@google.com, l1th84lgaos3tabvcec3prkgn8@google.com']],
      // DTSTART;VALUE=DATE:Next Year
      ['nodeical__multi-event-basic.ics', ['1 could not be read: Foobar']],
    ]);
    expect(runs.filter((r) => r.merged > 0)).toEqual([]);
    // What a run takes is listed: each created event is there on its own, linked to its source.
    const created = runs.reduce((n, r) => n + r.created, 0);
    expect(await listedCount()).toBe(created);
    expect(created).toBeGreaterThan(1500);
    // Only one-off events over two years ahead of the clock are left out (the listing horizon).
    expect(runs.reduce((n, r) => n + r.rejected, 0)).toBeLessThan(created / 10);
    // Run again, unchanged: nothing new, nothing rewritten, nothing gone.
    const changed = runs.filter((r) => r.second!.status !== 'success' || r.second!.created + r.second!.updated + r.second!.merged > 0);
    expect(changed.map((r) => ({ file: r.file, ...r.second }))).toEqual([]);
    expect(await listedCount()).toBe(created);
  });

  it('lists the events of real pages once each: two snapshots of one Songkick page are the same four concerts', async () => {
    await t.database.db.execute(sql`truncate sources, events, venues, duplicate_pairs cascade`);
    const runs: RunSummary[] = [];
    for (const f of pages) {
      const events = parseJsonLd({ text: texts.get(f)!, baseUrl: server.url(`/${f}`), now: new Date('1990-01-01T00:00:00Z'), timeZone: PORTLAND.timeZone, horizonDays: 20_000, maxOccurrences: 5 }).candidates;
      if (!events.length) continue;
      t.clock.set(new Date(Math.min(...events.map((c) => c.start.getTime())) - 86_400_000));
      runs.push(await runAsSource(f, 'jsonld'));
    }
    expect(runs.filter((r) => r.status !== 'success')).toEqual([]);
    const byFile = new Map(runs.map((r) => [r.file, r]));
    expect(byFile.get('extruct__songkick_elysianfields.html')).toMatchObject({ created: 4, merged: 0 });
    expect(byFile.get('extruct__songkick_elysianfields_1.html')).toMatchObject({ created: 0, merged: 4 });
    // A page announcing a concert as cancelled that another page lists: kept as that event's record,
    // saying so (nothing rejected), and the event's page says the sources disagree.
    expect(runs.filter((r) => r.rejected > 0)).toEqual([]);
    expect(byFile.get('extruct__schema.org_Event.004.html')).toMatchObject({
      created: 0,
      merged: 1,
      notes: [{ kind: 'kept', reason: CALLED_OFF_MERGED, count: 1, examples: ['CANCELLED - Typhoon with Radiation City'] }],
    });
    const [disputed] = await queryRows<{ id: string; title: string }>(t.database.db, sql`select e.id, e.title from events e join events r on r.merged_into = e.id where r.cancelled_by_source`);
    const page = (await t.app.inject({ method: 'GET', url: `/api/events/${disputed!.id}`, headers: { cookie: admin } })).json() as { title: string; removedBySource: boolean; calledOffBy: { kind: string }[]; stillListedBy: string[] };
    expect(page).toMatchObject({ title: 'Typhoon with Radiation City', removedBySource: false, calledOffBy: [{ kind: 'cancelled' }] });
    expect(page.stillListedBy).toHaveLength(1);
    expect(await listedCount()).toBe(runs.reduce((n, r) => n + r.created, 0));
  });

  it('lists every event of a real Ticketmaster search on its own, and a second run changes nothing', async () => {
    await t.database.db.execute(sql`truncate sources, events, venues, duplicate_pairs cascade`);
    t.clock.set(new Date('2016-05-20T00:00:00Z'));
    const run = await runAsSource('discovery/v2', 'ticketmaster', true, { apiKey: 'test-key', city: 'Houston' });
    // 19 of the 20 have not ended by then (one tour ended the evening before).
    expect(run).toMatchObject({ status: 'success', fetched: 19, created: 19, merged: 0, rejected: 0, skipped: 0, notes: [] });
    expect(run.second).toMatchObject({ status: 'success', created: 0, updated: 0, merged: 0 });
    expect(await listedCount()).toBe(19);
    const listed = await queryRows<{ title: string; venue: string | null; price: number | null }>(
      t.database.db,
      sql`select e.title, v.name as venue, e.price from events e left join venues v on v.id = e.venue_id where e.title like '%Beer%' or e.title like 'Blue Man%' order by e.title, v.name`,
    );
    // One show at two theatres, and a festival beside its parking pass: four events.
    expect(listed.map((r) => [r.title, r.venue, r.price === null ? null : Number(r.price)])).toEqual([
      ['8th Annual Craft & Import Beer Festival', 'Jacksonville Veterans Memorial Arena', 45],
      ['Blue Man Group At Briar Street Theatre', 'Briar Street Theatre', 49],
      ['Blue Man Group At the Charles Playhouse', 'Charles Playhouse', 50],
      ['Parking: 8th Annual Beerfest', 'Jacksonville Veterans Memorial Arena', 10],
    ]);
  });
});
