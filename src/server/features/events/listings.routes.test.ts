import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_ORIGIN, TEST_QR_KEY, type TestApp } from '../../test/build-test-app.ts';
import { buildEvent } from '../../test/factories.ts';
import { newUser } from '../gaming/test-users.ts';
import { signQrPayload } from '../qr/qr.codec.ts';

// Listings that tell the truth: a recurring event is one card, and attendees are real people.

let t: TestApp;
let admin: string;
const NOW = new Date('2026-11-22T20:00:00Z'); // 12:00 in Portland
const DAY = 24 * 3600 * 1000;
const inHours = (h: number) => new Date(NOW.getTime() + h * 3600 * 1000);
const QR_KEY = TEST_QR_KEY;

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await newUser(t.app)).cookie; // the first account is the admin; the users below are members
});
afterAll(async () => t.close());
beforeEach(async () => {
  t.clock.set(NOW);
  await t.database.db.execute(sql`truncate events, favorites, point_awards cascade`);
});

const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
type Card = { id: string; title: string; startDate: string; moreDates: number; attendeeCount: number };
const cards = async (url: string) => {
  const res = await get(url);
  expect(res.statusCode).toBe(200);
  return { items: res.json() as Card[], total: Number(res.headers['x-total-count']) };
};

/** A weekly series: `n` occurrences at one venue, the first `firstInDays` from now. */
async function weekly(title: string, n: number, o: { firstInDays?: number; venueName?: string; category?: string } = {}) {
  const rows = [];
  for (let i = 0; i < n; i++) {
    const start = new Date(inHours(7).getTime() + ((o.firstInDays ?? 0) + 7 * i) * DAY);
    rows.push(await buildEvent(t.database.db, { title, venueName: o.venueName ?? 'Blue Lantern', category: o.category ?? 'Music', startDate: start }));
  }
  return rows;
}

describe('a recurring event is one card', () => {
  it('shows a series once, at its next date, with the count of its further dates, in lists and search alike', async () => {
    const jam = await weekly('Tuesday Jazz Jam', 6);
    await buildEvent(t.database.db, { title: 'Jazz Brunch', startDate: inHours(30) });
    await buildEvent(t.database.db, { title: 'Trivia', startDate: inHours(20) });

    const all = await cards('/api/events?sortBy=date');
    expect(all.items.map((c) => c.title)).toEqual(['Tuesday Jazz Jam', 'Trivia', 'Jazz Brunch']);
    expect(all.items[0]).toMatchObject({ id: jam[0]!.id, moreDates: 5 });
    expect(all.items[1]!.moreDates).toBe(0);
    // The total counts cards, not occurrences.
    expect(all.total).toBe(3);

    const search = await cards('/api/events?search=jazz');
    expect(search.items.map((c) => c.title).sort()).toEqual(['Jazz Brunch', 'Tuesday Jazz Jam']);
    expect(search.total).toBe(2);
    const popular = await cards('/api/events?sortBy=popularity');
    expect(popular.items.filter((c) => c.title === 'Tuesday Jazz Jam')).toHaveLength(1);
    const near = await cards('/api/events?sortBy=distance&radius=5');
    expect(near.items.filter((c) => c.title === 'Tuesday Jazz Jam')).toHaveLength(1);

    const facets = (await get('/api/events/facets')).json() as { categories: { value: string; count: number }[]; total: number };
    expect(facets.total).toBe(3);
    expect(facets.categories.find((c) => c.value === 'Music')?.count).toBe(3);
  });

  it('shows, within a date window, the first date inside it and the dates left inside it', async () => {
    const jam = await weekly('Tuesday Jazz Jam', 6);
    // Weeks three and four only.
    const from = new Date(jam[2]!.startDate.getTime() - 3600 * 1000).toISOString();
    const to = new Date(jam[3]!.startDate.getTime() + 3600 * 1000).toISOString();
    const { items, total } = await cards(`/api/events?startDate=${from}&endDate=${to}`);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ id: jam[2]!.id, moreDates: 1 });
    expect(total).toBe(1);
  });

  it('shows the next date when the window opens as an occurrence ends, and counts no date that starts as it closes', async () => {
    const jam = await weekly('Tuesday Jazz Jam', 4);
    // Weeks two and three touch the window at its edges only: the third alone is in it.
    const window = `startDate=${jam[1]!.endDate.toISOString()}&endDate=${jam[3]!.startDate.toISOString()}`;
    const { items, total } = await cards(`/api/events?${window}`);
    expect(items.map((c) => [c.id, c.moreDates])).toEqual([[jam[2]!.id, 0]]);
    expect(total).toBe(1);
    expect((await get(`/api/events/facets?${window}`)).json()).toMatchObject({ categories: [{ value: 'Music', count: 1 }], total: 1 });
  });

  it('moves on to the next date once one has ended, and keeps apart same titles at different places', async () => {
    const jam = await weekly('Open Mic', 3);
    await weekly('Open Mic', 2, { venueName: 'Back Room Bar', firstInDays: 1 });
    t.clock.set(new Date(jam[0]!.endDate.getTime() + 60_000));
    const { items } = await cards('/api/events?sortBy=date');
    expect(items.map((c) => [c.id, c.moreDates])).toEqual([
      [expect.any(String), 1], // Back Room Bar, its first date (a day after the first one at Blue Lantern)
      [jam[1]!.id, 1],
    ]);
  });

  it('lists occurrences at the same moment each as its own card, and counts later dates, not rows', async () => {
    // One venue's weekly open mic, held in two rooms at once: two records of every week.
    const main = await weekly('Open Mic', 3);
    const back = await weekly('Open Mic', 3);
    const all = await cards('/api/events?sortBy=date');
    expect(all.items.map((c) => c.id).sort()).toEqual([main[0]!.id, back[0]!.id].sort());
    // Two more weeks, not four more dates.
    expect(all.items.map((c) => c.moreDates)).toEqual([2, 2]);
    expect(all.total).toBe(2);
    // Each page lists the series' dates once each, itself at its own.
    const detail = (await get(`/api/events/${back[0]!.id}`)).json() as { dates: { id: string }[] };
    expect(detail.dates.map((d) => d.id)).toEqual([back[0]!.id, main[1]!.id < back[1]!.id ? main[1]!.id : back[1]!.id, main[2]!.id < back[2]!.id ? main[2]!.id : back[2]!.id]);
    // Once the first week is over, the next week's two are the cards.
    t.clock.set(new Date(main[0]!.endDate.getTime() + 60_000));
    expect((await cards('/api/events?sortBy=date')).items.map((c) => c.id).sort()).toEqual([main[1]!.id, back[1]!.id].sort());
  });

  it("finds the occurrence whose own words match, though an earlier one of its series does not", async () => {
    const club = await weekly('Sunday Sketch Club', 3);
    await t.database.db.execute(sql`update events set description = 'Charcoal portraits with a live model.' where id = ${club[2]!.id}`);
    const charcoal = await cards('/api/events?search=charcoal');
    expect(charcoal.items.map((c) => [c.id, c.moreDates])).toEqual([[club[2]!.id, 0]]);
    expect(charcoal.total).toBe(1);
    expect((await get('/api/events/facets?search=charcoal')).json()).toMatchObject({ total: 1 });
    // Words every occurrence has: the series is one card at its next date, as before.
    const sketch = await cards('/api/events?search=sketch');
    expect(sketch.items.map((c) => [c.id, c.moreDates])).toEqual([[club[0]!.id, 2]]);
    expect(sketch.total).toBe(1);
  });

  it('pages through cards without repeating a series', async () => {
    for (let i = 0; i < 5; i++) await weekly(`Series ${i}`, 3, { firstInDays: i % 2 });
    const first = await cards('/api/events?sortBy=date&limit=3');
    const second = await cards('/api/events?sortBy=date&limit=3&offset=3');
    const ids = [...first.items, ...second.items].map((c) => c.title);
    expect(new Set(ids).size).toBe(5);
    expect(first.total).toBe(5);
  });

  it("lists a series' upcoming dates on each occurrence's page, soonest first", async () => {
    const jam = await weekly('Tuesday Jazz Jam', 4);
    const res = await get(`/api/events/${jam[2]!.id}`);
    expect(res.statusCode).toBe(200);
    const detail = res.json() as { id: string; dates: { id: string; startDate: string }[] };
    expect(detail.id).toBe(jam[2]!.id);
    expect(detail.dates.map((d) => d.id)).toEqual(jam.map((e) => e.id));
    const single = await buildEvent(t.database.db, { title: 'One-off' });
    expect(((await get(`/api/events/${single.id}`)).json() as { dates: unknown[] }).dates).toHaveLength(1);
  });
});

describe('attendeeCount counts real people', () => {
  it("adds people who saved it and who checked in to the source's own RSVP count, and announces each change", async () => {
    const event = await buildEvent(t.database.db, { title: 'Alberta Art Walk', attendeeCount: 12, startDate: inHours(-0.5), endDate: inHours(2) });
    const count = async () => ((await get(`/api/events/${event.id}`)).json() as { attendeeCount: number }).attendeeCount;
    expect(await count()).toBe(12);

    const updates: string[] = [];
    const stop = t.app.bus.subscribe('event_update', (d) => updates.push(`${d.id}:${d.action}`));
    try {
      const [ana, ben] = [await newUser(t.app), await newUser(t.app)];
      const save = (cookie: string) => t.app.inject({ method: 'POST', url: `/api/user/favorites/${event.id}`, headers: { origin: TEST_ORIGIN, cookie } });
      expect((await save(ana.cookie)).statusCode).toBe(200);
      expect(await count()).toBe(13);
      expect(updates).toContain(`${event.id}:updated`);

      const qrData = signQrPayload(QR_KEY, { k: 'event', id: event.id, iat: Math.floor(NOW.getTime() / 1000) });
      const scan = (cookie: string) => t.app.inject({ method: 'POST', url: '/api/gaming/qr-scan', payload: { qrData }, headers: { origin: TEST_ORIGIN, cookie } });
      expect((await scan(ben.cookie)).statusCode).toBe(200);
      expect(await count()).toBe(14);
      // A second scan by the same person is refused and counts no one.
      expect((await scan(ben.cookie)).statusCode).toBe(409);
      expect(await count()).toBe(14);
      expect(updates.filter((u) => u === `${event.id}:updated`).length).toBeGreaterThanOrEqual(2);

      // Unsaving takes the person back off.
      expect((await save(ana.cookie)).statusCode).toBe(200);
      expect(await count()).toBe(13);
      const listed = (await cards('/api/events')).items.find((c) => c.id === event.id);
      expect(listed?.attendeeCount).toBe(13);
    } finally {
      stop();
    }
  });
});

describe('an event in review', () => {
  it('shows to the member who contributed it and to admins, to nobody else', async () => {
    const [ana, ben] = [await newUser(t.app), await newUser(t.app)];
    const event = await buildEvent(t.database.db, { title: 'Winter Lantern Walk', status: 'pending', contributedBy: ana.user.id });
    expect((await get(`/api/events/${event.id}`, ana.cookie)).statusCode).toBe(200);
    expect((await get(`/api/events/${event.id}`, ben.cookie)).statusCode).toBe(404);
    expect((await get(`/api/events/${event.id}`)).statusCode).toBe(404);
    // Rejected, it is gone for its contributor too.
    await t.database.db.execute(sql`update events set status = 'rejected' where id = ${event.id}`);
    expect((await get(`/api/events/${event.id}`, ana.cookie)).statusCode).toBe(404);
  });
});

describe('a search sorted by date', () => {
  // A rare word's matches are read and sorted; a broad word's are found walking the cards in start
  // order (see readsMatchesSooner). Either way the pages are the window's matches, soonest first.
  it('pages through the same matches, in start order, however they are found', async () => {
    const made = [];
    for (let i = 0; i < 120; i++) {
      const title = i % 12 === 0 ? `Theremin evening ${i}` : `Night market ${i}`;
      // An hour apart, in an order unlike their creation; every fifth lasts a day.
      const start = inHours(3 + ((i * 7) % 120));
      made.push(await buildEvent(t.database.db, { title, startDate: start, endDate: new Date(start.getTime() + (i % 5 === 0 ? 24 : 1) * 3600 * 1000) }));
    }
    // The planner's estimates of each word's matches, on which the way depends.
    await t.database.db.execute(sql`analyze events`);
    const from = inHours(30);
    const to = inHours(90);
    // The window is [from, to): a market that ends as it opens and one that starts as it closes only touch it.
    expect(made.filter((e) => e.endDate.getTime() === from.getTime() || e.startDate.getTime() === to.getTime()).map((e) => e.title)).toEqual(['Night market 38', 'Night market 81']);
    for (const word of ['theremin', 'market']) {
      const expected = made
        .filter((e) => e.title.toLowerCase().includes(word) && e.endDate > from && e.startDate < to)
        .sort((a, b) => a.startDate.getTime() - b.startDate.getTime() || (a.id < b.id ? -1 : 1))
        .map((e) => e.title);
      expect(expected.length, word).toBeGreaterThan(2);
      const window = `startDate=${from.toISOString()}&endDate=${to.toISOString()}`;
      const seen: string[] = [];
      for (let offset = 0; offset < expected.length; offset += 2) {
        const page = await cards(`/api/events?search=${word}&sortBy=date&${window}&limit=2&offset=${offset}`);
        expect(page.total, `${word} at ${offset}`).toBe(expected.length);
        seen.push(...page.items.map((c) => c.title));
      }
      expect(seen, word).toEqual(expected);
    }
  });
});

describe('an event is listed under every source that lists it', () => {
  type Facets = { categories: { value: string; count: number }[]; sourceTypes: { value: string; count: number }[]; total: number; estimated: boolean };
  const facets = async (query = '') => {
    const res = await get(`/api/events/facets${query}`);
    expect(res.statusCode).toBe(200);
    return res.json() as Facets;
  };
  const ids = async (url: string) => {
    const { items, total } = await cards(url);
    return { ids: items.map((c) => c.id).sort(), total };
  };
  const sorted = (...xs: string[]) => [...xs].sort();

  /** One walk an rss feed lists (its own record) and a meetup group lists too (merged into it), as ingestion merges a duplicate. */
  async function listedTwice() {
    const start = inHours(26);
    const walk = await buildEvent(t.database.db, { title: 'Harbor Lantern Walk', sourceType: 'rss', category: 'Arts', startDate: start });
    const record = await buildEvent(t.database.db, { title: 'Harbor Lantern Walk', sourceType: 'meetup', category: 'Arts', startDate: start });
    await t.database.db.execute(sql`update events set premerge_status = status, status = 'merged', merged_into = ${walk.id} where id = ${record.id}`);
    const games = await buildEvent(t.database.db, { title: 'Board Game Night', sourceType: 'meetup', category: 'Other', startDate: inHours(30) });
    const market = await buildEvent(t.database.db, { title: 'Night Market', sourceType: 'ical', category: 'Food', startDate: inHours(40) });
    return { walk, record, games, market };
  }

  it('finds an event merged from an rss and a meetup record under either source, once under both', async () => {
    const { walk, games } = await listedTwice();
    expect(await ids('/api/events?sourceType=meetup')).toEqual({ ids: sorted(walk.id, games.id), total: 2 });
    expect(await ids('/api/events?sourceType=rss')).toEqual({ ids: [walk.id], total: 1 });
    expect(await ids('/api/events?sourceType=meetup,rss&sortBy=popularity')).toEqual({ ids: sorted(walk.id, games.id), total: 2 });
    expect(await ids('/api/events?sourceType=meetup&category=Arts&search=lantern')).toEqual({ ids: [walk.id], total: 1 });
    expect(await ids(`/api/events?sourceType=meetup&lat=${walk.lat}&lng=${walk.lng}&radius=2&sortBy=distance`)).toEqual({ ids: sorted(walk.id, games.id), total: 2 });
    // The card still shows the event's own source.
    expect((await get('/api/events?sourceType=meetup&category=Arts')).json()).toMatchObject([{ id: walk.id, sourceType: 'rss' }]);
  });

  it('counts an event once under each of its sources in the source facet', async () => {
    await listedTwice();
    expect(await facets()).toEqual({
      categories: [{ value: 'Arts', count: 1 }, { value: 'Food', count: 1 }, { value: 'Other', count: 1 }],
      sourceTypes: [{ value: 'meetup', count: 2 }, { value: 'ical', count: 1 }, { value: 'rss', count: 1 }],
      total: 3,
      estimated: false,
    });
    // Each facet leaves its own filter out and applies the other's: the walk is the Arts event of meetup and of rss.
    expect(await facets('?sourceType=meetup,rss')).toMatchObject({ categories: [{ value: 'Arts', count: 1 }, { value: 'Other', count: 1 }], total: 2 });
    expect((await facets('?category=Arts')).sourceTypes).toEqual([{ value: 'meetup', count: 1 }, { value: 'rss', count: 1 }]);
  });

  it('keeps both sources when the event is merged into a third listing of it, whose records they become', async () => {
    const { walk, games } = await listedTwice();
    const calendar = await buildEvent(t.database.db, { title: 'Harbor Lantern Walk', sourceType: 'ical', category: 'Arts', startDate: inHours(26) });
    // As a merge does (duplicates.repository mergeInto): the event first, then the records merged into it follow.
    await t.database.db.execute(sql`update events set premerge_status = status, status = 'merged', merged_into = ${calendar.id} where id = ${walk.id}`);
    await t.database.db.execute(sql`update events set merged_into = ${calendar.id} where merged_into = ${walk.id}`);
    expect(await ids('/api/events?sourceType=meetup')).toEqual({ ids: sorted(calendar.id, games.id), total: 2 });
    expect(await ids('/api/events?sourceType=rss')).toEqual({ ids: [calendar.id], total: 1 });
    expect((await facets('?category=Arts')).sourceTypes).toEqual([{ value: 'ical', count: 1 }, { value: 'meetup', count: 1 }, { value: 'rss', count: 1 }]);
  });

  it('stops listing it under meetup once the meetup record is gone', async () => {
    const { walk, record, games } = await listedTwice();
    expect((await ids('/api/events?sourceType=meetup')).ids).toEqual(sorted(walk.id, games.id));
    // The meetup group no longer lists it (a run marks its record gone); the rss feed still does.
    await t.database.db.execute(sql`update events set gone_at = ${NOW.toISOString()}::timestamptz where id = ${record.id}`);
    expect(await ids('/api/events?sourceType=meetup')).toEqual({ ids: [games.id], total: 1 });
    expect(await ids('/api/events?sourceType=rss')).toEqual({ ids: [walk.id], total: 1 });
    expect((await facets()).sourceTypes).toEqual([{ value: 'ical', count: 1 }, { value: 'meetup', count: 1 }, { value: 'rss', count: 1 }]);
  });

  it('stops listing it under meetup once an admin splits the meetup record out, which is listed under meetup itself', async () => {
    const { walk, record, games } = await listedTwice();
    expect((await ids('/api/events?sourceType=meetup')).ids).toEqual(sorted(walk.id, games.id));
    const split = await t.app.inject({ method: 'POST', url: `/api/admin/events/${walk.id}/split`, headers: { origin: TEST_ORIGIN, cookie: admin } });
    expect(split.statusCode).toBe(200);
    expect(await ids('/api/events?sourceType=meetup')).toEqual({ ids: sorted(record.id, games.id), total: 2 });
    expect(await ids('/api/events?sourceType=rss')).toEqual({ ids: [walk.id], total: 1 });
    expect((await facets('?category=Arts')).sourceTypes).toEqual([{ value: 'meetup', count: 1 }, { value: 'rss', count: 1 }]);
    expect((await facets('?category=Arts')).total).toBe(2);
  });
});
