import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import ICAL from 'ical.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PENDING_PAGE } from '../../../contract/events.ts';
import { zonedToUtc } from '../../../contract/time.ts';
import { buildTestApp, signupUser, TEST_ORIGIN, type TestApp } from '../../test/build-test-app.ts';
import { buildEvent, buildSource, queryRows } from '../../test/factories.ts';
import { createDuplicatesRepository } from '../ingestion/duplicates.repository.ts';
import { events } from './events.table.ts';

let t: TestApp;
const NOW = new Date('2026-11-22T20:00:00Z'); // 12:00 in Portland
const inHours = (h: number) => new Date(NOW.getTime() + h * 3600 * 1000);

beforeAll(async () => {
  t = await buildTestApp({ env: { ADMIN_EMAILS: 'events-admin@example.org' } });
});
afterAll(async () => t.close());
beforeEach(async () => {
  t.clock.set(NOW);
  await t.database.db.execute(sql`truncate events, favorites, point_awards, sources, venues cascade`);
  await t.database.db.execute(sql`update users set points = 0`);
});

const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const titles = (res: { json: () => { title: string }[] }) => res.json().map((e) => e.title);
/** A new account made an admin (the file's other admin is the ADMIN_EMAILS one). */
async function signupAdmin() {
  const admin = await signupUser(t.app);
  await t.database.db.execute(sql`update users set role = 'admin' where id = ${admin.user.id}`);
  return admin;
}

describe('GET /api/events', () => {
  it('compresses a page as browsers ask, in one piece with its length (not a stream per answer)', async () => {
    for (let i = 0; i < 48; i++) await buildEvent(t.database.db, { title: `Lantern walk ${i}`, description: 'Paper lanterns along the river, then cocoa.', startDate: inHours(2 + i) });
    const plain = await get('/api/events?limit=48');
    // Past the 8 KiB that the plugin streams by default on two cores.
    expect(plain.rawPayload.length).toBeGreaterThan(8192);
    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url: '/api/events?limit=48', headers: { 'accept-encoding': encoding } });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['content-length']).toBe(String(res.rawPayload.length));
      expect(JSON.parse(decode(res.rawPayload).toString())).toEqual(plain.json());
    }
  });

  it('lists approved events that have not ended, soonest first, with the total in X-Total-Count', async () => {
    await buildEvent(t.database.db, { title: 'Later', startDate: inHours(48) });
    await buildEvent(t.database.db, { title: 'Sooner', startDate: inHours(2) });
    await buildEvent(t.database.db, { title: 'Running now', startDate: inHours(-1), endDate: inHours(1) });
    await buildEvent(t.database.db, { title: 'Over', startDate: inHours(-5), endDate: inHours(-3) });
    await buildEvent(t.database.db, { title: 'Pending', status: 'pending' });
    await buildEvent(t.database.db, { title: 'Rejected', status: 'rejected' });
    const res = await get('/api/events');
    expect(res.statusCode).toBe(200);
    expect(titles(res)).toEqual(['Running now', 'Sooner', 'Later']);
    expect(res.headers['x-total-count']).toBe('3');
    const first = res.json()[0];
    for (const key of ['id', 'title', 'category', 'sourceType', 'sourceUrl', 'imageUrl', 'startDate', 'venue', 'attendeeCount', 'price', 'isFree', 'isVerified']) {
      expect(first).toHaveProperty(key);
    }
  });

  it('filters by comma-joined categories and source types, exactly, with all meaning none', async () => {
    await buildEvent(t.database.db, { title: 'Jazz', category: 'Music', sourceType: 'meetup' });
    await buildEvent(t.database.db, { title: 'Tacos', category: 'Food', sourceType: 'municipal' });
    await buildEvent(t.database.db, { title: 'Pitch', category: 'Business', sourceType: 'eventbrite' });
    expect(titles(await get('/api/events?category=Music,Food')).sort()).toEqual(['Jazz', 'Tacos']);
    expect(titles(await get('/api/events?category=music'))).toEqual([]);
    expect(titles(await get('/api/events?category=all'))).toHaveLength(3);
    expect(titles(await get('/api/events?sourceType=eventbrite,meetup')).sort()).toEqual(['Jazz', 'Pitch']);
    expect(titles(await get('/api/events?category=Music&sourceType=municipal'))).toEqual([]);
  });

  it('searches title, description and venue, ranked, tolerant of word forms, and always by title substring', async () => {
    await buildEvent(t.database.db, { title: 'Community Gardening Day', description: 'Bring gloves' });
    await buildEvent(t.database.db, { title: 'Poetry night', description: 'Readings about gardens and gardeners' });
    await buildEvent(t.database.db, { title: 'Open mic', venueName: 'The Garden Bar' });
    await buildEvent(t.database.db, { title: 'Chess club' });
    const res = await get('/api/events?search=garden');
    expect(titles(res)[0]).toBe('Community Gardening Day');
    expect(titles(res).sort()).toEqual(['Community Gardening Day', 'Open mic', 'Poetry night']);
    expect(titles(await get('/api/events?search=GARDENING'))).toContain('Community Gardening Day');
    // A plain substring in the middle of a word, which full text alone would miss.
    expect(titles(await get('/api/events?search=hess'))).toEqual(['Chess club']);
    // LIKE wildcards are literal.
    expect(titles(await get('/api/events?search=%25'))).toEqual([]);
  });

  it('finds events by their category and neighbourhood, as the search box promises', async () => {
    await buildEvent(t.database.db, { title: 'Blue Trio Live', category: 'Music', neighbourhood: 'Buckman' });
    await buildEvent(t.database.db, { title: 'Mural walk', category: 'Arts', neighbourhood: 'Alberta Arts District' });
    await buildEvent(t.database.db, { title: 'Chess club', category: 'Other', neighbourhood: 'Sellwood' });
    expect(titles(await get('/api/events?search=music'))).toEqual(['Blue Trio Live']);
    expect(titles(await get('/api/events?search=Art')).sort()).toEqual(['Mural walk']);
    expect(titles(await get('/api/events?search=buckman'))).toEqual(['Blue Trio Live']);
    expect((await get('/api/events/facets?search=music')).json().total).toBe(1);
  });

  it('sorts by date, popularity and distance', async () => {
    await buildEvent(t.database.db, { title: 'Far popular', startDate: inHours(3), favoriteCount: 10, peopleCount: 10, lat: 45.59, lng: -122.75 });
    await buildEvent(t.database.db, { title: 'Near quiet', startDate: inHours(5), favoriteCount: 0, lat: 45.5155, lng: -122.679 });
    await buildEvent(t.database.db, { title: 'Mid', startDate: inHours(1), attendeeCount: 4, lat: 45.53, lng: -122.68 });
    expect(titles(await get('/api/events?sortBy=date'))).toEqual(['Mid', 'Far popular', 'Near quiet']);
    expect(titles(await get('/api/events?sortBy=popularity'))).toEqual(['Far popular', 'Mid', 'Near quiet']);
    const byDistance = await get('/api/events?sortBy=distance');
    expect(titles(byDistance)).toEqual(['Near quiet', 'Mid', 'Far popular']);
    expect(byDistance.json()[0].distance).toBeLessThan(0.1);
    // From another point, the order follows that point.
    expect(titles(await get('/api/events?sortBy=distance&lat=45.59&lng=-122.75'))[0]).toBe('Far popular');
  });

  it('filters by radius in miles around the given point, or the city centre', async () => {
    await buildEvent(t.database.db, { title: 'Downtown', lat: 45.5152, lng: -122.6784 });
    await buildEvent(t.database.db, { title: 'Eight miles out', lat: 45.5152, lng: -122.5135 });
    await buildEvent(t.database.db, { title: 'Gresham-ish', lat: 45.5, lng: -122.43 });
    await buildEvent(t.database.db, { title: 'Nowhere', lat: null, lng: null });
    expect(titles(await get('/api/events?radius=1'))).toEqual(['Downtown']);
    expect(titles(await get('/api/events?radius=10')).sort()).toEqual(['Downtown', 'Eight miles out']);
    expect(titles(await get('/api/events?radius=1&lat=45.5&lng=-122.43'))).toEqual(['Gresham-ish']);
  });

  it('filters by a date window and pages with limit and offset', async () => {
    for (let i = 0; i < 30; i++) await buildEvent(t.database.db, { title: `E${String(i).padStart(2, '0')}`, startDate: inHours(1 + i * 24) });
    const week = await get(`/api/events?startDate=${NOW.toISOString()}&endDate=${inHours(24 * 7).toISOString()}`);
    expect(week.headers['x-total-count']).toBe('7');
    // A day alone is that day's midnight UTC; a date-time may carry an offset.
    const day = (h: number) => inHours(h).toISOString().slice(0, 10);
    expect((await get(`/api/events?startDate=${day(0)}&endDate=${day(24 * 7)}`)).statusCode).toBe(200);
    const offset = await get(`/api/events?startDate=${encodeURIComponent(NOW.toISOString().replace('Z', '+00:00'))}&endDate=${inHours(24 * 7).toISOString()}`);
    expect(offset.headers['x-total-count']).toBe('7');
    const p1 = await get('/api/events?sortBy=date');
    expect(p1.json()).toHaveLength(24);
    expect(p1.headers['x-total-count']).toBe('30');
    const p2 = await get('/api/events?sortBy=date&limit=24&offset=24');
    expect(titles(p2)).toEqual(['E24', 'E25', 'E26', 'E27', 'E28', 'E29']);
    expect(titles(await get('/api/events?limit=2&offset=1'))).toEqual(['E01', 'E02']);
  });

  it.each([
    ['sortBy=loudness', 'sortBy'],
    ['startDate=yesterday', 'startDate'],
    ['endDate=2026-13-45', 'endDate'],
    // Not dates, though JavaScript's Date reads them as 2001, 2000, the year 999 and 2 March.
    ['startDate=-1', 'querystring.startDate: startDate must be an ISO date'],
    ['endDate=0', 'querystring.endDate: endDate must be an ISO date'],
    ['startDate=999', 'startDate must be an ISO date'],
    ['startDate=2026-02-30&endDate=2026-03-01', 'querystring.startDate: startDate must be an ISO date'],
    ['startDate=2026-12-01T08:00:00', 'startDate must be an ISO date'],
    ['radius=0', 'radius'],
    ['radius=51', 'radius'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
    ['offset=-1', 'offset'],
    ['lat=45.5', 'lat'],
    ['lat=91&lng=0', 'lat'],
  ])('answers 400 naming the parameter for %s', async (qs, name) => {
    const res = await get(`/api/events?${qs}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(name);
  });
});

describe('a date window [startDate, endDate)', () => {
  const MINUTE = 60_000;
  const plus = (d: Date, ms: number) => new Date(d.getTime() + ms);
  type Listed = { title: string; category: string; sourceType: string };
  const tally = (values: string[]) =>
    [...values.reduce((m, v) => m.set(v, (m.get(v) ?? 0) + 1), new Map<string, number>())].map(([value, count]) => ({ value, count })).sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
  /** The window's cards (one page holds them all) and its total; the facets must count the same cards. */
  async function windowed(query: string) {
    const res = await get(`/api/events?${query}&limit=100`);
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json() as Listed[];
    expect(res.headers['x-total-count']).toBe(String(items.length));
    const facets = (await get(`/api/events/facets?${query}`)).json();
    expect(facets).toEqual({ categories: tally(items.map((e) => e.category)), sourceTypes: tally(items.map((e) => e.sourceType)), total: items.length, estimated: false });
    return items.map((e) => e.title);
  }

  it('leaves out an event that ends as it opens or starts as it closes, and keeps one overlapping either edge by a minute', async () => {
    const from = inHours(24);
    const to = inHours(48);
    const db = t.database.db;
    await buildEvent(db, { title: 'Ends as it opens', category: 'Music', startDate: inHours(21), endDate: from });
    await buildEvent(db, { title: 'Starts as it closes', category: 'Food', sourceType: 'meetup', startDate: to, endDate: inHours(50) });
    await buildEvent(db, { title: 'Ends a minute after it opens', category: 'Music', startDate: inHours(21), endDate: plus(from, MINUTE) });
    await buildEvent(db, { title: 'Starts a minute before it closes', category: 'Food', sourceType: 'meetup', startDate: plus(to, -MINUTE), endDate: inHours(50) });
    // A moment with no length (an admin's event may end as it starts) is in the window at its opening, not at its close.
    await buildEvent(db, { title: 'Moment as it opens', category: 'Arts', startDate: from, endDate: from });
    await buildEvent(db, { title: 'Moment as it closes', category: 'Arts', startDate: to, endDate: to });
    const window = `startDate=${from.toISOString()}&endDate=${to.toISOString()}`;
    const inside = ['Ends a minute after it opens', 'Moment as it opens', 'Starts a minute before it closes'];
    // Every order reads the window alike; distance through the nearest-first index, with a radius and without.
    for (const query of [`${window}&sortBy=date`, `${window}&sortBy=relevance`, `${window}&sortBy=popularity`, `${window}&sortBy=distance`, `${window}&sortBy=distance&radius=5`]) {
      expect((await windowed(query)).sort(), query).toEqual(inside);
    }
    expect(await windowed(`${window}&sortBy=date&search=minute`)).toEqual(['Ends a minute after it opens', 'Starts a minute before it closes']);
  });

  it("lists a custom day of the city's zone without the night before that ends at its midnight or the next day's all-day event", async () => {
    const local = (day: number, hour = 0) => zonedToUtc({ year: 2026, month: 12, day, hour }, 'America/Los_Angeles');
    const db = t.database.db;
    await buildEvent(db, { title: 'Karaoke Thursdays', startDate: local(3, 21), endDate: local(4) });
    await buildEvent(db, { title: 'Cookie Swap', allDay: true, startDate: local(3), endDate: local(4) });
    await buildEvent(db, { title: 'Wreath Workshop', category: 'Arts', allDay: true, startDate: local(4), endDate: local(5) });
    await buildEvent(db, { title: 'Late Show', startDate: local(4, 23), endDate: local(5, 1) });
    await buildEvent(db, { title: 'Holiday Market', category: 'Food', allDay: true, startDate: local(5), endDate: local(6) });
    // Discover's ?dateRange=custom&startDate=2026-12-04&endDate=2026-12-04: Portland's midnight to the next.
    expect(local(4).toISOString()).toBe('2026-12-04T08:00:00.000Z');
    expect(await windowed(`startDate=${local(4).toISOString()}&endDate=${local(5).toISOString()}&sortBy=date`)).toEqual(['Wreath Workshop', 'Late Show']);
  });
});

describe('GET /api/events/:id', () => {
  it('gives the description and sources; 404 for unknown, malformed or unapproved ids, except to admins', async () => {
    const admin = await signupUser(t.app); // first account in this file: admin
    const user = await signupUser(t.app);
    const e = await buildEvent(t.database.db, { title: 'Detail', description: 'All about it' });
    const res = await get(`/api/events/${e.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ title: 'Detail', description: 'All about it', sources: [{ sourceType: 'municipal', name: 'municipal feed' }] });
    expect((await get('/api/events/00000000-0000-0000-0000-000000000000')).statusCode).toBe(404);
    expect((await get('/api/events/not-an-id')).statusCode).toBe(404);
    const pending = await buildEvent(t.database.db, { status: 'pending' });
    expect((await get(`/api/events/${pending.id}`, user.cookie)).statusCode).toBe(404);
    expect((await get(`/api/events/${pending.id}`, admin.cookie)).statusCode).toBe(200);
  });
});

describe('GET /api/events/stats', () => {
  it('counts today in the city time zone, active sources and neighbourhood coverage', async () => {
    const db = t.database.db;
    const [city, meetup, tickets] = [await buildSource(db, { sourceType: 'municipal' }), await buildSource(db, { sourceType: 'meetup' }), await buildSource(db, { sourceType: 'eventbrite' })];
    // 12:00 in Portland; 23:30 tonight is today, 00:30 tomorrow is not.
    await buildEvent(db, { startDate: zonedToUtc({ year: 2026, month: 11, day: 22, hour: 23, minute: 30 }, 'America/Los_Angeles'), neighbourhood: 'Downtown' }, city);
    await buildEvent(db, { startDate: zonedToUtc({ year: 2026, month: 11, day: 23, hour: 0, minute: 30 }, 'America/Los_Angeles'), neighbourhood: 'Pearl District', sourceType: 'meetup' }, meetup);
    await buildEvent(db, { startDate: inHours(24 * 10), neighbourhood: 'Sellwood' }, city);
    // Tonight too, but every feed has dropped it: no longer listed, so not one of today's events,
    // and neither its source nor its neighbourhood is active or covered by it.
    await buildEvent(db, { startDate: zonedToUtc({ year: 2026, month: 11, day: 22, hour: 21 }, 'America/Los_Angeles'), neighbourhood: 'Lents', sourceType: 'eventbrite', goneAt: inHours(-1) }, tickets);
    // This morning's, over by noon: not one of today's events any more.
    await buildEvent(db, { startDate: zonedToUtc({ year: 2026, month: 11, day: 22, hour: 9 }, 'America/Los_Angeles'), neighbourhood: 'Downtown' }, city);
    const res = await get('/api/events/stats');
    expect(res.json()).toEqual({ totalEvents: 3, todayEvents: 1, activeSources: 2, coverage: 10 });
    // The health report's figures are the same listed events ("Total events" on every screen).
    expect((await get('/api/health')).json().health.metrics.storage).toEqual({ totalEvents: 3, todayEvents: 1, totalUsers: expect.any(Number) });
  });
});

describe('GET /api/events/facets', () => {
  /** Three jazz events: Music at a meetup and at a municipal source, Food at a municipal one. */
  const jazzEvents = async () => {
    await buildEvent(t.database.db, { category: 'Music', sourceType: 'meetup', title: 'Jazz brunch' });
    await buildEvent(t.database.db, { category: 'Music', sourceType: 'municipal', title: 'Jazz in the park' });
    await buildEvent(t.database.db, { category: 'Food', sourceType: 'municipal', title: 'Jazz and tacos' });
  };

  it('counts categories and source types for the other filters', async () => {
    await jazzEvents();
    await buildEvent(t.database.db, { category: 'Arts', sourceType: 'meetup', title: 'Pottery' });
    const res = await get('/api/events/facets?search=jazz&category=Music');
    expect(res.json()).toEqual({
      categories: [
        { value: 'Music', count: 2 },
        { value: 'Food', count: 1 },
      ],
      sourceTypes: [
        { value: 'meetup', count: 1 },
        { value: 'municipal', count: 1 },
      ],
      total: 2,
      estimated: false,
    });
  });

  it('leaves each facet its own filter out when both are set, and lists no value with nothing left', async () => {
    await jazzEvents();
    await buildEvent(t.database.db, { category: 'Arts', sourceType: 'rss', title: 'Jazz posters' });
    const res = await get('/api/events/facets?search=jazz&category=Music&sourceType=municipal');
    expect(res.json()).toEqual({
      // Categories among the municipal jazz events; sources among the Music ones (no rss: no Music there).
      categories: [
        { value: 'Food', count: 1 },
        { value: 'Music', count: 1 },
      ],
      sourceTypes: [
        { value: 'meetup', count: 1 },
        { value: 'municipal', count: 1 },
      ],
      total: 1,
      estimated: false,
    });
  });
});

describe('favourites', () => {
  const toggle = (id: string, cookie?: string) =>
    t.app.inject({ method: 'POST', url: `/api/user/favorites/${id}`, headers: { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) } });

  it('toggles, pays 5 points once however often the heart is toggled, and lists favourites', async () => {
    const { cookie } = await signupUser(t.app);
    const e = await buildEvent(t.database.db, { title: 'Loved' });
    expect((await toggle(e.id, cookie)).json()).toEqual({ isFavorited: true });
    expect((await get('/api/auth/user', cookie)).json().points).toBe(5);
    expect(titles(await get('/api/user/favorites', cookie))).toEqual(['Loved']);
    expect((await get(`/api/events/${e.id}`, cookie)).json()).toMatchObject({ isFavorited: true, favoriteCount: 1 });
    expect((await toggle(e.id, cookie)).json()).toEqual({ isFavorited: false });
    expect((await toggle(e.id, cookie)).json()).toEqual({ isFavorited: true });
    expect((await get('/api/auth/user', cookie)).json().points).toBe(5);
    const awards = await queryRows(t.database.db, sql`select activity_type, points from point_awards`);
    expect(awards).toEqual([{ activity_type: 'discovered', points: 5 }]);
  });

  it('keeps a consistent state under 20 concurrent toggles, with at most one award', async () => {
    const { cookie, user } = await signupUser(t.app);
    const e = await buildEvent(t.database.db);
    const results = await Promise.all(Array.from({ length: 20 }, () => toggle(e.id, cookie)));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    const [favs] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from favorites where user_id = ${user.id}`);
    const [row] = await queryRows<{ favorite_count: number }>(t.database.db, sql`select favorite_count from events where id = ${e.id}`);
    const n = favs!.n;
    expect(row!.favorite_count).toBe(n);
    expect(n).toBe(0); // an even number of toggles
    const [awards] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from point_awards where user_id = ${user.id}`);
    expect(awards!.n).toBe(1);
    expect((await get('/api/auth/user', cookie)).json().points).toBe(5);
  });

  it('answers 401 signed out and 404 for an unknown event', async () => {
    const e = await buildEvent(t.database.db);
    expect((await toggle(e.id)).statusCode).toBe(401);
    const { cookie } = await signupUser(t.app);
    expect((await toggle('00000000-0000-0000-0000-000000000000', cookie)).statusCode).toBe(404);
    expect((await get('/api/user/favorites')).statusCode).toBe(401);
  });
});

describe('calendars', () => {
  it('downloads one event as valid iCalendar that parses back', async () => {
    const e = await buildEvent(t.database.db, {
      title: 'Café concert; strings, brass & more',
      description: 'Line one\nLine two with a long text '.repeat(5),
      venueName: 'Crystal Ballroom',
      startDate: new Date('2026-12-05T03:00:00Z'),
      endDate: new Date('2026-12-05T05:00:00Z'),
    });
    const res = await get(`/api/events/${e.id}/ics`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/calendar/);
    expect(res.body.split('\r\n').every((l) => Buffer.byteLength(l) <= 75)).toBe(true);
    const cal = new ICAL.Component(ICAL.parse(res.body));
    const vevent = new ICAL.Event(cal.getFirstSubcomponent('vevent')!);
    expect(vevent.summary).toBe('Café concert; strings, brass & more');
    expect(vevent.description).toContain('Line one\nLine two');
    expect(vevent.location).toBe('Crystal Ballroom');
    expect(vevent.startDate.toJSDate().toISOString()).toBe('2026-12-05T03:00:00.000Z');
    expect(vevent.uid).toBe(`${e.id}@townbeat`);
  });

  it('writes no end a source never gave, in the subscription and in the event\'s own file', async () => {
    const { cookie } = await signupUser(t.app);
    const pdx = (day: number, hour = 0) => zonedToUtc({ year: 2026, month: 12, day, hour }, 'America/Los_Angeles');
    const open = await buildEvent(t.database.db, { title: 'Open end', startDate: pdx(5, 19), endGiven: false });
    const set = await buildEvent(t.database.db, { title: 'Set end', startDate: pdx(6, 19), endDate: pdx(6, 22), endGiven: true });
    // Stored before the flag existed: read as given, as the event's page reads it.
    const older = await buildEvent(t.database.db, { title: 'Older row', startDate: pdx(7, 19), endGiven: null });
    const day = await buildEvent(t.database.db, { title: 'Fair day', startDate: pdx(8), endDate: pdx(9), allDay: true, endGiven: false });
    for (const e of [open, set, older, day]) await t.app.inject({ method: 'POST', url: `/api/user/favorites/${e.id}`, headers: { origin: TEST_ORIGIN, cookie } });
    const vevents = (body: string) =>
      Object.fromEntries(
        new ICAL.Component(ICAL.parse(body)).getAllSubcomponents('vevent').map((v) => [v.getFirstPropertyValue('summary'), { start: String(v.getFirstPropertyValue('dtstart')), end: v.hasProperty('dtend') ? String(v.getFirstPropertyValue('dtend')) : null }]),
      );
    const feed = vevents((await get(new URL((await get('/api/user/calendar', cookie)).json().url).pathname)).body);
    expect(feed).toEqual({
      'Open end': { start: '2026-12-06T03:00:00Z', end: null },
      'Set end': { start: '2026-12-07T03:00:00Z', end: '2026-12-07T06:00:00Z' },
      'Older row': { start: '2026-12-08T03:00:00Z', end: '2026-12-08T05:00:00Z' },
      // A date's event lasts its day, which its one-day DTEND says.
      'Fair day': { start: '2026-12-08', end: '2026-12-09' },
    });
    expect((await get('/api/user/favorites', cookie)).json().map((e: { title: string; endGiven: boolean }) => [e.title, e.endGiven])).toEqual([['Open end', false], ['Set end', true], ['Older row', true], ['Fair day', false]]);
    for (const e of [open, set]) expect(vevents((await get(`/api/events/${e.id}/ics`)).body)[e.title]).toEqual(feed[e.title]);
  });

  it('serves a private subscription of the user favourites, whose secret can be reset', async () => {
    const { cookie } = await signupUser(t.app);
    const e = await buildEvent(t.database.db, { title: 'Subscribed' });
    await t.app.inject({ method: 'POST', url: `/api/user/favorites/${e.id}`, headers: { origin: TEST_ORIGIN, cookie } });
    const { url } = (await get('/api/user/calendar', cookie)).json();
    expect(url).toMatch(/\/api\/calendar\/[\w-]{20,}\.ics$/);
    const path = new URL(url).pathname;
    const feed = await get(path);
    expect(feed.statusCode).toBe(200);
    const events = new ICAL.Component(ICAL.parse(feed.body)).getAllSubcomponents('vevent');
    expect(events.map((v) => v.getFirstPropertyValue('summary'))).toEqual(['Subscribed']);
    const reset = await t.app.inject({ method: 'POST', url: '/api/user/calendar/reset', headers: { origin: TEST_ORIGIN, cookie } });
    expect(reset.json().url).not.toBe(url);
    expect((await get(path)).statusCode).toBe(404);
    expect((await get(new URL(reset.json().url).pathname)).statusCode).toBe(200);
  });
});

describe('admin events', () => {
  it('lets only admins add an event, validating each field', async () => {
    const admin = await signupUser(t.app, { email: 'events-admin@example.org' });
    const user = await signupUser(t.app);
    const body = { title: 'Hand made', startDate: '2026-12-01T18:00:00-08:00', category: 'Arts', price: 12 };
    const post = (cookie?: string, payload: object = body) =>
      t.app.inject({ method: 'POST', url: '/api/admin/events', headers: { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) }, payload });
    expect((await post()).statusCode).toBe(401);
    expect((await post(user.cookie)).statusCode).toBe(403);
    const created = await post(admin.cookie);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ title: 'Hand made', category: 'Arts', price: 12, isFree: false, startDate: '2026-12-02T02:00:00.000Z', endDate: '2026-12-02T04:00:00.000Z' });
    const bad = await post(admin.cookie, { title: '', startDate: 'soon', category: 'Juggling' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues.map((i: { path: string }) => i.path)).toEqual(expect.arrayContaining(['body.title', 'body.startDate', 'body.category']));
    const [count] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from events`);
    expect(count!.n).toBe(1);
  });

  const post = (cookie: string, payload: object) => t.app.inject({ method: 'POST', url: '/api/admin/events', headers: { origin: TEST_ORIGIN, cookie }, payload });
  const patch = (cookie: string, id: string, payload: object) => t.app.inject({ method: 'PATCH', url: `/api/admin/events/${id}`, headers: { origin: TEST_ORIGIN, cookie }, payload });
  const inNeighbourhood = async (name: string) => titles(await get(`/api/events?neighbourhood=${encodeURIComponent(name)}`)).sort();
  const startDate = '2026-12-01T18:00:00-08:00';
  // One admin for the tests below: each signup counts against the limit of signups a minute.
  let placer: Awaited<ReturnType<typeof signupAdmin>> | undefined;
  const anAdmin = async () => (placer ??= await signupAdmin());

  it("places an admin's event in its neighbourhood as ingestion places a source's, so the neighbourhood filter and coverage count it", async () => {
    const admin = await anAdmin();
    // Pioneer Courthouse Square, by its coordinates alone: the street says nothing.
    const square = await post(admin.cookie, { title: 'Tree Lighting', startDate, venue: 'Pioneer Courthouse Square', address: '701 SW 6th Ave, Portland', lat: 45.5189, lng: -122.6793 });
    expect(square.statusCode).toBe(201);
    expect(square.json()).toMatchObject({ neighbourhood: 'Downtown', lat: 45.5189, lng: -122.6793 });
    // No coordinates, an address naming the neighbourhood: there, at its centre, as a source's item would be.
    const named = await post(admin.cookie, { title: 'Book Swap', startDate, venue: 'Lobby', address: 'SW Broadway, Downtown, Portland' });
    expect(named.json()).toMatchObject({ neighbourhood: 'Downtown', lat: 45.5152, lng: -122.6784 });
    // No coordinates, only a street named like a neighbourhood: long streets cross several, so none.
    const street = await post(admin.cookie, { title: 'Bike Fix', startDate, venue: 'Corner Lot', address: '3702 SE Hawthorne Blvd' });
    expect(street.json()).toMatchObject({ neighbourhood: null, lat: null, lng: null });

    expect(await inNeighbourhood('Downtown')).toEqual(['Book Swap', 'Tree Lighting']);
    // Downtown is 1 of Portland's 20 neighbourhoods with an event this week.
    t.clock.set(new Date('2026-11-28T20:00:00Z'));
    expect((await get('/api/events/stats')).json().coverage).toBe(5);
  });

  it('keeps the neighbourhood an admin names, through a venue edit and a merge that would place the event elsewhere', async () => {
    const admin = await anAdmin();
    // In Downtown by its coordinates, but the admin knows better (and is answered in the city's spelling).
    const made = await post(admin.cookie, { title: 'Winter Market', startDate, lat: 45.5158, lng: -122.679, neighbourhood: 'pearl district' });
    expect(made.json()).toMatchObject({ neighbourhood: 'Pearl District' });
    const id = made.json().id as string;
    expect((await patch(admin.cookie, id, { venue: 'Old Town Hall' })).json()).toMatchObject({ venue: 'Old Town Hall', neighbourhood: 'Pearl District' });
    expect(await inNeighbourhood('Pearl District')).toEqual(['Winter Market']);

    // Another source's record of it, with a venue in Buckman, merged into it: it fills in what the
    // admin's record lacks, not the neighbourhood the admin named.
    const unplaced = (await post(admin.cookie, { title: 'Craft Fair', startDate, neighbourhood: 'Sellwood' })).json() as { id: string };
    const record = await buildEvent(t.database.db, { title: 'Craft Fair', startDate: new Date(startDate), venueName: 'Doug Fir Lounge', neighbourhood: 'Buckman', lat: 45.5225, lng: -122.6574 });
    const [a, b] = [unplaced.id, record.id].sort() as [string, string];
    await createDuplicatesRepository(t.database.db).insertPairs([{ eventA: a, eventB: b, kind: 'cross_source', score: 0.8, reason: 'same title and start' }], NOW);
    const [pair] = await queryRows<{ id: string }>(t.database.db, sql`select id from duplicate_pairs`);
    expect((await t.app.inject({ method: 'POST', url: `/api/admin/duplicates/${pair!.id}/merge`, headers: { origin: TEST_ORIGIN, cookie: admin.cookie }, payload: { keepId: unplaced.id } })).statusCode).toBe(200);
    expect((await get(`/api/events/${unplaced.id}`)).json()).toMatchObject({ venue: 'Doug Fir Lounge', lat: 45.5225, neighbourhood: 'Sellwood' });
    expect(await inNeighbourhood('Sellwood')).toEqual(['Craft Fair']);
  });

  it('places an event again when an admin corrects its venue to one Townbeat knows', async () => {
    const admin = await anAdmin();
    await t.database.db.execute(sql`insert into venues (name, address, neighbourhood, lat, lng) values ('Doug Fir Lounge', '830 E Burnside St', 'Buckman', 45.5225, -122.6574)`);
    const made = (await post(admin.cookie, { title: 'Late Show', startDate, venue: 'TBA' })).json() as { id: string; neighbourhood: string | null };
    expect(made.neighbourhood).toBeNull();
    const fixed = await patch(admin.cookie, made.id, { venue: 'Doug Fir Lounge' });
    expect(fixed.json()).toMatchObject({ venue: 'Doug Fir Lounge', address: '830 E Burnside St', neighbourhood: 'Buckman', lat: 45.5225, lng: -122.6574 });
    expect(await inNeighbourhood('Buckman')).toEqual(['Late Show']);
    // At that venue for deduplication too (its known venue), and at none once the venue is one Townbeat does not know.
    const venueOf = async () => (await queryRows<{ name: string | null }>(t.database.db, sql`select v.name from events e left join venues v on v.id = e.venue_id where e.id = ${made.id}`))[0]?.name;
    expect(await venueOf()).toBe('Doug Fir Lounge');
    await patch(admin.cookie, made.id, { venue: 'The Back Room' });
    expect(await venueOf()).toBeNull();
    // Added at a known venue, it is placed there at once.
    expect((await post(admin.cookie, { title: 'Early Show', startDate, venue: 'Doug Fir Lounge' })).json()).toMatchObject({ neighbourhood: 'Buckman', lat: 45.5225 });
  });
});

describe('the review queue', () => {
  it('pages through every pending event, newest first, and says how many wait', async () => {
    const admin = await signupAdmin();
    const member = await signupUser(t.app);
    const waiting = PENDING_PAGE + 30;
    for (let i = 0; i < waiting; i += 100) {
      await t.database.db.insert(events).values(
        Array.from({ length: Math.min(100, waiting - i) }, (_, j) => ({ title: `Contribution ${i + j + 1}`, category: 'Music', sourceType: 'community', timeZone: 'America/Los_Angeles', status: 'pending' as const, startDate: inHours(24), endDate: inHours(26), createdAt: new Date(NOW.getTime() - (i + j) * 60_000) })),
      );
    }
    await buildEvent(t.database.db, { title: 'Listed already' });
    // One run's three, arrived together just now: the soonest first.
    for (const [title, h] of [['Late show', 50], ['Morning swim', 20], ['Noon talk', 30]] as const) await buildEvent(t.database.db, { title, status: 'pending', startDate: inHours(h), createdAt: new Date(NOW.getTime() + 60_000) });
    const pending = (query = '', cookie = admin.cookie) => get(`/api/admin/events/pending${query}`, cookie);
    expect(titles(await pending()).slice(0, 4)).toEqual(['Morning swim', 'Noon talk', 'Late show', 'Contribution 1']);

    const first = await pending();
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-total-count']).toBe(String(waiting + 3));
    expect(titles(first)).toHaveLength(PENDING_PAGE);
    const rest = await pending(`?offset=${PENDING_PAGE}`);
    expect(rest.headers['x-total-count']).toBe(String(waiting + 3));
    expect(titles(rest)).toEqual(Array.from({ length: 33 }, (_, i) => `Contribution ${PENDING_PAGE - 3 + i + 1}`));
    // Who may ask comes first, then the query.
    expect((await pending('?offset=-1', '')).statusCode).toBe(401);
    expect((await pending('?offset=-1', member.cookie)).statusCode).toBe(403);
    const bad = await pending('?offset=-1');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('offset must be 0 or more');
    // Not a number at all: said in words, as every query number is.
    expect((await pending('?offset=x')).json().message).toContain('offset must be a whole number');
    expect((await get('/api/events?lat=north&lng=-122.6')).json().message).toContain('lat must be a number');
  });
});

describe('a review decision on a member\'s event', () => {
  it('tells the member who contributed it, once, in the bell and live; not the admin who added one', async () => {
    const admin = await signupAdmin();
    const member = await signupUser(t.app);
    const bystander = await signupUser(t.app);
    const theirs = await buildEvent(t.database.db, { title: 'Porch Concert', status: 'pending', contributedBy: member.user.id });
    const declined = await buildEvent(t.database.db, { title: 'Garage Sale', status: 'pending', contributedBy: member.user.id });
    const adminsOwn = await buildEvent(t.database.db, { title: 'Admin Picnic', status: 'pending', contributedBy: admin.user.id });
    const decide = (id: string, action: 'approve' | 'reject') => t.app.inject({ method: 'POST', url: `/api/admin/events/${id}/${action}`, headers: { origin: TEST_ORIGIN, cookie: admin.cookie } });
    const bell = async (cookie: string) => ((await get('/api/notifications', cookie)).json() as { items: { title: string; message: string; link?: string }[] }).items;
    const live: { userId: string; title: string }[] = [];
    const stop = t.app.bus.subscribe('notification', (m) => void live.push({ userId: m.userId, title: m.notification.title }));

    expect((await decide(theirs.id, 'approve')).statusCode).toBe(200);
    t.clock.advance(60_000);
    expect((await decide(declined.id, 'reject')).statusCode).toBe(200);
    expect((await decide(adminsOwn.id, 'approve')).statusCode).toBe(200);
    // Deciding again is not news.
    expect((await decide(theirs.id, 'approve')).statusCode).toBe(200);
    stop();

    expect(await bell(member.cookie)).toEqual([
      expect.objectContaining({ title: 'Your event was not listed', message: '“Garage Sale” was reviewed and will not be listed.' }),
      expect.objectContaining({ title: 'Your event is listed', message: '“Porch Concert” was approved and is now listed for everyone.', link: `/events/${theirs.id}` }),
    ]);
    expect(live).toEqual([
      { userId: member.user.id, title: 'Your event is listed' },
      { userId: member.user.id, title: 'Your event was not listed' },
    ]);
    expect(await bell(admin.cookie)).toEqual([]);
    expect(await bell(bystander.cookie)).toEqual([]);

    // Two decisions at once on one event: the member hears the one that took it out of the queue.
    const contested = await buildEvent(t.database.db, { title: 'Block Party', status: 'pending', contributedBy: bystander.user.id });
    const answers = await Promise.all([decide(contested.id, 'approve'), decide(contested.id, 'reject')]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    expect(await bell(bystander.cookie)).toHaveLength(1);
  });
});

describe('an admin moves an event', () => {
  it('tells whoever saved it, live and in the bell, in one step with the edit; other edits are not news', async () => {
    const admin = await signupAdmin();
    const saver = await signupUser(t.app);
    const other = await signupUser(t.app);
    const e = await buildEvent(t.database.db, { title: 'Lantern Walk', startDate: inHours(30), endDate: inHours(32) });
    const req = (method: 'PATCH' | 'POST' | 'GET', url: string, cookie: string, payload?: object) =>
      t.app.inject({ method, url, headers: { origin: TEST_ORIGIN, cookie }, ...(payload ? { payload } : {}) });
    expect((await req('POST', `/api/user/favorites/${e.id}`, saver.cookie)).statusCode).toBe(200);
    const live: { userId: string; title: string }[] = [];
    const stop = t.app.bus.subscribe('notification', (m) => void live.push({ userId: m.userId, title: m.notification.title }));
    const bell = async (cookie: string) => ((await req('GET', '/api/notifications', cookie)).json() as { items: { title: string; message: string }[] }).items.filter((n) => n.title.startsWith('Saved event'));

    expect((await req('PATCH', `/api/admin/events/${e.id}`, admin.cookie, { title: 'Lantern Walk (bring a lantern)' })).statusCode).toBe(200);
    expect(await bell(saver.cookie)).toEqual([]);
    // 30 h after 12:00 on Sun Nov 22 in Portland is 18:00 on Mon Nov 23; moved an hour later.
    expect((await req('PATCH', `/api/admin/events/${e.id}`, admin.cookie, { startDate: inHours(31).toISOString() })).statusCode).toBe(200);
    stop();
    expect(await bell(saver.cookie)).toEqual([
      expect.objectContaining({ title: 'Saved event moved', message: '“Lantern Walk (bring a lantern)” now starts Mon, Nov 23 · 7:00 PM (it was Mon, Nov 23 · 6:00 PM).' }),
    ]);
    expect(live).toEqual([{ userId: saver.user.id, title: 'Saved event moved' }]);
    expect(await bell(other.cookie)).toEqual([]);
  });
});

describe('cached totals', () => {
  const total = async (url = '/api/events?category=Music') => Number((await get(url)).headers['x-total-count']);

  it('answers totals, facets and stats from the cache until a write or the clock moves them', async () => {
    const a = await buildEvent(t.database.db, { title: 'A', category: 'Music', startDate: inHours(2), endDate: inHours(3) });
    await buildEvent(t.database.db, { title: 'B', category: 'Music', startDate: inHours(30) });
    expect(await total()).toBe(2);
    const facets = (await get('/api/events/facets')).json();
    expect(facets.total).toBe(2);
    expect((await get('/api/events/stats')).json().totalEvents).toBe(2);

    // A change the version trigger does not see (switched off here) is not seen by the cache:
    // proof that the totals come from it.
    await t.database.db.execute(sql`alter table events disable trigger events_version_update`);
    try {
      await t.database.db.execute(sql`update events set category = 'Food' where id = ${a.id}`);
    } finally {
      await t.database.db.execute(sql`alter table events enable trigger events_version_update`);
    }
    expect(await total()).toBe(2);
    expect((await get('/api/events/facets')).json().categories).toEqual([{ value: 'Music', count: 2 }]);

    // Any write that can change a count moves the version: an insert, here.
    await buildEvent(t.database.db, { title: 'C', category: 'Music', startDate: inHours(40) });
    expect(await total()).toBe(2); // B and C; A is Food now
    expect((await get('/api/events/stats')).json().totalEvents).toBe(3);

    // A favourite changes no count and keeps the cache; time passing does move it.
    const user = await signupUser(t.app);
    await t.app.inject({ method: 'POST', url: `/api/user/favorites/${a.id}`, headers: { cookie: user.cookie, origin: TEST_ORIGIN } });
    expect(await total('/api/events')).toBe(3);
    t.clock.set(inHours(4)); // A has ended
    expect(await total('/api/events')).toBe(2);
  });
});

describe('answers shared by anonymous readers', () => {
  it('sends a kept answer compressed once for everyone asking in the same encoding, and as text to the rest', async () => {
    for (let i = 0; i < 12; i++) await buildEvent(t.database.db, { title: `Harbour swim ${i}`, description: 'A cold dip at dawn, then tea by the boathouse.', startDate: inHours(2 + i) });
    const url = '/api/events?limit=12';
    const plain = await get(url);
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    for (const [accept, encoding, decode] of [
      ['br', 'br', brotliDecompressSync],
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['gzip;q=1, br;q=0', 'gzip', gunzipSync],
      ['*', 'gzip', gunzipSync],
    ] as const) {
      const a = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': accept } });
      const b = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': accept } });
      expect(b.headers['x-cache']).toBe('hit');
      for (const res of [a, b]) {
        expect(res.headers['content-encoding'], accept).toBe(encoding);
        expect(res.headers.vary).toMatch(/accept-encoding/i);
        expect(res.headers['content-length']).toBe(String(res.rawPayload.length));
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(JSON.parse(decode(res.rawPayload).toString())).toEqual(plain.json());
      }
      // Compressed once: the same bytes for the next reader.
      expect(b.rawPayload.equals(a.rawPayload)).toBe(true);
    }
    // No encoding asked for, or one we keep no form of: the text, as the plugin sends it.
    const text = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    expect([text.headers['x-cache'], text.headers['content-encoding']]).toEqual(['hit', undefined]);
    expect(text.body).toBe(plain.body);
    const deflated = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'deflate' } });
    expect(deflated.headers['content-encoding']).toBe('deflate');
    // A small answer stays text, as the plugin leaves it.
    const small = await t.app.inject({ method: 'GET', url: '/api/events/stats', headers: { 'accept-encoding': 'gzip' } });
    const again = await t.app.inject({ method: 'GET', url: '/api/events/stats', headers: { 'accept-encoding': 'gzip' } });
    expect(again.headers['x-cache']).toBe('hit');
    expect([small.headers['content-encoding'], again.headers['content-encoding']]).toEqual([undefined, undefined]);
    expect(again.json()).toEqual(small.json());
  });

  it('sends a list, facets and stats again as they were until the events change, and keeps none for signed-in readers', async () => {
    await buildEvent(t.database.db, { title: 'First', startDate: inHours(2) });
    for (const url of ['/api/events?limit=5', '/api/events/facets', '/api/events/stats']) {
      const a = await get(url);
      const b = await get(url);
      expect([a.headers['x-cache'], b.headers['x-cache']]).toEqual(['miss', 'hit']);
      expect(b.body).toBe(a.body);
      expect(b.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(b.headers.etag).toBe(a.headers.etag);
    }
    expect((await get('/api/events?limit=5')).headers['x-total-count']).toBe('1');
    // Another URL is another answer.
    expect((await get('/api/events?limit=6')).headers['x-cache']).toBe('miss');
    // A change to the events moves the version: the next answer is read afresh.
    await buildEvent(t.database.db, { title: 'Second', startDate: inHours(3) });
    const after = await get('/api/events?limit=5');
    expect(after.headers['x-cache']).toBe('miss');
    expect(titles(after)).toEqual(['First', 'Second']);
    expect(after.headers['x-total-count']).toBe('2');
    // An answer lasts 15 s from its making, into the next clock bucket, with its own tag.
    t.clock.set(new Date(NOW.getTime() + 10_000));
    const made = await get('/api/events?limit=7');
    t.clock.set(new Date(NOW.getTime() + 16_000));
    const kept = await get('/api/events?limit=7');
    expect([made.headers['x-cache'], kept.headers['x-cache']]).toEqual(['miss', 'hit']);
    expect(kept.headers.etag).toBe(made.headers.etag);
    t.clock.set(new Date(NOW.getTime() + 25_000));
    const renewed = await get('/api/events?limit=7');
    expect(renewed.headers['x-cache']).toBe('miss');
    expect(renewed.headers.etag).not.toBe(made.headers.etag);
    // Signed in, hearts differ per person: read every time.
    const { cookie } = await signupUser(t.app);
    const mine = await get('/api/events?limit=5', cookie);
    expect(mine.headers['x-cache']).toBeUndefined();
    expect(titles(mine)).toEqual(['First', 'Second']);
  });
});
