import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../../test/build-test-app.ts';
import { buildEvent, type EventOverrides } from '../../test/factories.ts';
import { pointAwards } from '../gaming/ledger.table.ts';
import { newUser } from '../gaming/test-users.ts';
import { eventDismissals, userInterests } from './recommendations.table.ts';

let t: TestApp;
const NOW = new Date('2026-11-18T20:00:00Z'); // Wednesday noon in Portland
const HOUR = 3600_000;
const at = (hours: number) => new Date(NOW.getTime() + hours * HOUR);

beforeAll(async () => {
  t = await buildTestApp();
  t.clock.set(NOW);
});
afterAll(async () => t?.close());

type Item = { id: string; title: string; category: string; venue: string; reason: string };
async function recommended(cookie?: string, limit = 10) {
  const res = await t.app.inject({ method: 'GET', url: `/api/events/recommended?limit=${limit}`, headers: cookie ? { cookie } : {} });
  return res;
}
const items = async (cookie: string, limit = 10) => (await recommended(cookie, limit)).json() as Item[];
const favourite = (cookie: string, id: string) => t.app.inject({ method: 'POST', url: `/api/user/favorites/${id}`, headers: { cookie, origin: TEST_ORIGIN } });
/** New events reach the candidate pool once the bus says events changed and a few seconds pass. */
async function newEvents(list: EventOverrides[]) {
  const rows = [];
  for (const o of list) rows.push(await buildEvent(t.database.db, { startDate: at(24), ...o }));
  t.app.bus.publish('event_update', { id: rows[0]!.id, action: 'created' });
  t.clock.advance(6000);
  return rows;
}
async function checkIn(userId: string, eventId: string) {
  await t.database.db.insert(pointAwards).values({ userId, activityType: 'check_in', reason: 'qr', targetType: 'event', targetId: eventId, eventId, points: 25, idempotencyKey: `qr:event:${eventId}:${userId}`, createdAt: t.clock.now() });
}
/** Polls until `ok` holds (background recompute), as a client refreshing would. */
async function eventually(cookie: string, ok: (xs: Item[]) => boolean) {
  for (let i = 0; i < 50; i++) {
    const xs = await items(cookie, 50);
    if (ok(xs)) return xs;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('recommendations never caught up');
}

describe('GET /api/events/recommended', () => {
  it('answers 401 to anonymous callers and 400 to a bad limit', async () => {
    expect((await recommended()).statusCode).toBe(401);
    const { cookie } = await newUser(t.app);
    expect((await t.app.inject({ method: 'GET', url: '/api/events/recommended?limit=0', headers: { cookie } })).statusCode).toBe(400);
  });

  it('never recommends what the user saved, checked into or dismissed, nor an ended event', async () => {
    const { cookie, user } = await newUser(t.app);
    const [saved, checked, dismissed, ended, open, other] = await newEvents([
      { title: 'Saved Gig', venueName: 'Never Hall', category: 'Music' },
      { title: 'Checked Gig', venueName: 'Never Hall', category: 'Music', startDate: at(-1), endDate: at(1) },
      { title: 'Dismissed Gig', venueName: 'Never Hall', category: 'Music' },
      { title: 'Ended Gig', venueName: 'Never Hall', category: 'Music', startDate: at(-5), endDate: at(-1) },
      { title: 'Open Gig', venueName: 'Never Hall', category: 'Music', startDate: at(48) },
      { title: 'Other Gig', venueName: 'Never Hall', category: 'Music', startDate: at(30) },
    ]);
    await favourite(cookie, saved!.id);
    await checkIn(user.id, checked!.id);
    await t.database.db.insert(eventDismissals).values({ userId: user.id, eventId: dismissed!.id, createdAt: t.clock.now() });
    const ids = (await items(cookie, 50)).map((x) => x.id);
    expect(ids).toContain(open!.id);
    for (const e of [saved, checked, dismissed, ended]) expect(ids).not.toContain(e!.id);
    // Dismissing one more hides it on the very next read, before any recompute.
    await t.database.db.insert(eventDismissals).values({ userId: user.id, eventId: other!.id, createdAt: t.clock.now() });
    expect((await items(cookie, 50)).map((x) => x.id)).not.toContain(other!.id);
    // Ending: an hour past its end it is gone from the stored list too.
    t.clock.advance(51 * HOUR);
    expect((await items(cookie, 50)).map((x) => x.id)).not.toContain(open!.id);
    t.clock.set(NOW);
  });

  it('a new favourite is excluded at once with its other dates, and shapes the list within a minute, with a specific reason', async () => {
    const { cookie } = await newUser(t.app);
    const [jazz, jazzNext, blues] = await newEvents([
      { title: 'Jazz Night', venueName: 'Blue Room', category: 'Music', startDate: at(26) },
      { title: 'Jazz Night', venueName: 'Blue Room', category: 'Music', startDate: at(26 + 7 * 24) },
      { title: 'Blues Jam', venueName: 'Blue Room', category: 'Music', startDate: at(50) },
      { title: 'Tech Talk', venueName: 'Code Hub', category: 'Tech', attendeeCount: 400 },
      { title: 'Yoga', venueName: 'Mat Place', category: 'Wellness', attendeeCount: 300 },
    ]);
    const before = await items(cookie, 50);
    expect(before.map((x) => x.id)).toContain(jazz!.id);
    t.clock.advance(1000);
    expect((await favourite(cookie, jazz!.id)).json()).toEqual({ isFavorited: true });
    // Excluded on the very next read, the series' other date too.
    const next = (await items(cookie, 50)).map((x) => x.id);
    expect(next).not.toContain(jazz!.id);
    expect(next).not.toContain(jazzNext!.id);
    // Recomputed in the background: another event at the same venue comes first, because of the save.
    const after = await eventually(cookie, (xs) => xs[0]?.id === blues!.id);
    expect(['Because you like Music events', 'At Blue Room, like Jazz Night']).toContain(after[0]!.reason);
    expect(after.map((x) => x.id)).not.toContain(jazzNext!.id);
    for (const x of after) expect(x.reason).not.toContain(x.title);
  });

  it('after a look at an event, recommends neither it nor its other dates, at once and after the recompute', async () => {
    const { cookie } = await newUser(t.app);
    const [market, marketNext, other] = await newEvents([
      { title: 'Hawthorne Saturday Farmers Market', venueName: 'Hawthorne Lot', category: 'Food', neighbourhood: 'Hawthorne', startDate: at(60), attendeeCount: 900 },
      { title: 'Hawthorne Saturday Farmers Market', venueName: 'Hawthorne Lot', category: 'Food', neighbourhood: 'Hawthorne', startDate: at(60 + 7 * 24), attendeeCount: 900 },
      { title: 'Pie Contest', venueName: 'Hawthorne Hall', category: 'Food', neighbourhood: 'Hawthorne', startDate: at(70) },
    ]);
    // One card per series: the first date.
    expect((await items(cookie, 50)).map((x) => x.id)).toContain(market!.id);
    t.clock.advance(1000);
    const viewed = await t.app.inject({ method: 'POST', url: `/api/events/${market!.id}/view`, headers: { cookie, origin: TEST_ORIGIN }, payload: { via: 'page' } });
    expect(viewed.statusCode).toBe(200);
    const ids = (await items(cookie, 50)).map((x) => x.id);
    expect(ids).not.toContain(market!.id);
    expect(ids).not.toContain(marketNext!.id);
    // Recomputed from the look: the market's neighbour comes because of it.
    const after = await eventually(cookie, (xs) => xs.some((x) => x.id === other!.id && /Food events|Farmers Market/.test(x.reason)));
    expect(after.map((x) => x.id)).not.toContain(marketNext!.id);
    for (const x of after) expect(x.reason).not.toContain(x.title);
  });

  it('cold start: popular near the city centre this week, then the interests picked after sign-up', async () => {
    const [star] = await newEvents([
      { title: 'Centre Festival', category: 'Other', neighbourhood: 'Downtown', attendeeCount: 5000, startDate: at(30) },
      { title: 'Far Festival', category: 'Other', neighbourhood: 'Gresham', lat: 45.498, lng: -122.431, attendeeCount: 5000, startDate: at(30) },
      { title: 'Pottery Class', category: 'Arts', neighbourhood: 'Alberta Arts', attendeeCount: 1, startDate: at(40) },
    ]);
    const { cookie } = await newUser(t.app);
    const popular = await items(cookie);
    expect(popular[0]).toMatchObject({ id: star!.id, reason: 'Popular in Downtown this week' });

    const second = await newUser(t.app);
    await t.database.db.insert(userInterests).values({ userId: second.user.id, categories: ['Arts'], neighbourhoods: [], updatedAt: t.clock.now() });
    const chosen = await items(second.cookie);
    expect(chosen[0]).toMatchObject({ title: 'Pottery Class', reason: 'Matches your interest in Arts' });
    // Every item says why, in a short line.
    for (const x of [...popular, ...chosen]) expect(x.reason.length).toBeGreaterThan(5);
    for (const x of [...popular, ...chosen]) expect(x.reason.length).toBeLessThan(80);
  });

  it('keeps variety: at most 5 of the first 10 from one category, one card per series', async () => {
    const rows = await newEvents([
      ...Array.from({ length: 9 }, (_, i) => ({ title: `Rave ${i}`, venueName: 'Bass Hall', category: 'Music', attendeeCount: 900 })),
      ...Array.from({ length: 3 }, (_, i) => ({ title: 'Weekly Rave', venueName: 'Bass Hall', category: 'Music', attendeeCount: 950, startDate: at(20 + i * 24) })),
      ...['Food', 'Arts', 'Tech', 'Sports', 'Wellness'].map((category) => ({ title: `A ${category} thing`, category, attendeeCount: 2 })),
    ]);
    const { cookie } = await newUser(t.app);
    await favourite(cookie, rows[0]!.id);
    t.clock.advance(1000);
    const list = await items(cookie, 10);
    expect(list).toHaveLength(10);
    expect(list.filter((x) => x.category === 'Music').length).toBeLessThanOrEqual(5);
    expect(list.filter((x) => x.title === 'Weekly Rave').length).toBeLessThanOrEqual(1);
    expect(new Set((await items(cookie, 50)).filter((x) => x.title === 'Weekly Rave').map((x) => x.title)).size).toBeLessThanOrEqual(1);
    expect((await items(cookie, 50)).filter((x) => x.title === 'Weekly Rave')).toHaveLength(1);
  });
});
