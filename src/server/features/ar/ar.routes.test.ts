import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ArEvent, DiscoverResponse } from '../../../contract/ar.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../../test/build-test-app.ts';
import { buildEvent, queryRows } from '../../test/factories.ts';
import { haversineM } from '../../lib/geo.ts';
import { newUser } from '../gaming/test-users.ts';

const NOW = new Date('2026-11-18T20:00:00Z'); // Wednesday noon in Portland
const HOUR = 3600_000;
const CENTRE = { lat: 45.5152, lng: -122.6784 };
/** A point `m` metres north (dLat) or east (dLng) of the centre. */
const north = (m: number) => ({ lat: CENTRE.lat + m / 111_195, lng: CENTRE.lng });
const east = (m: number) => ({ lat: CENTRE.lat, lng: CENTRE.lng + m / (111_195 * Math.cos((CENTRE.lat * Math.PI) / 180)) });

let t: TestApp;
const call = (method: 'GET' | 'POST', url: string, cookie?: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) }, ...(payload !== undefined ? { payload: payload as object } : {}) });
const nearby = async (cookie: string, body: Record<string, unknown>) => {
  const res = await call('POST', '/api/ar/nearby-events', cookie, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ events: ArEvent[] }>().events;
};
const ev = (pos: { lat: number; lng: number }, o: Parameters<typeof buildEvent>[1] = {}) =>
  buildEvent(t.database.db, { ...pos, startDate: new Date(NOW.getTime() + 24 * HOUR), ...o });
const ledger = async (userId: string) =>
  (await queryRows<{ n: number; p: number }>(t.database.db, sql`select count(*)::int as n, coalesce(sum(points), 0)::int as p from point_awards where user_id = ${userId} and activity_type = 'ar'`))[0]!;

beforeAll(async () => {
  t = await buildTestApp();
  await newUser(t.app); // the first account is the admin
});
afterAll(async () => t.close());
beforeEach(async () => {
  t.clock.set(NOW);
  await t.database.db.execute(sql`truncate events, ar_discoveries, point_awards, user_badges, notifications cascade`);
});

describe('POST /api/ar/nearby-events', () => {
  it('answers 401 signed out and 400 naming a bad field', async () => {
    expect((await call('POST', '/api/ar/nearby-events', undefined, CENTRE)).statusCode).toBe(401);
    const { cookie } = await newUser(t.app);
    for (const [body, field] of [
      [{ lat: 91, lng: 0 }, 'lat'],
      [{ lat: 45, lng: 'x' }, 'lng'],
      [{ ...CENTRE, radius: 20_001 }, 'radius'],
      [{ ...CENTRE, radius: 0 }, 'radius'],
    ] as const) {
      const res = await call('POST', '/api/ar/nearby-events', cookie, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain(field);
    }
  });

  it('lists upcoming approved events within 1000 m by default, nearest first, with distance and bearing', async () => {
    const { cookie } = await newUser(t.app);
    const far = await ev(north(900), { title: 'Far north', attendeeCount: 12, category: 'Arts' });
    const near = await ev(east(200), { title: 'Near east' });
    await ev(north(1500), { title: 'Outside the default radius' });
    await ev(north(100), { title: 'Pending', status: 'pending' });
    await ev(north(100), { title: 'Rejected', status: 'rejected' });
    await ev(north(100), { title: 'Over', startDate: new Date(NOW.getTime() - 5 * HOUR) });
    const running = await ev(north(300), { title: 'Running now', startDate: new Date(NOW.getTime() - HOUR) });
    await ev(north(100), { title: 'No position', lat: null, lng: null });
    const events = await nearby(cookie, CENTRE);
    expect(events.map((e) => e.title)).toEqual(['Near east', 'Running now', 'Far north']);
    expect(events[0]).toMatchObject({ id: near.id, category: 'Music', time: near.startDate.toISOString() });
    expect(events[0]!.distanceM).toBeCloseTo(200, -1);
    expect(events[0]!.bearing).toBeCloseTo(90, 0);
    expect(events[2]).toMatchObject({ id: far.id, attendees: 12, category: 'Arts' });
    expect(events[2]!.bearing === 0 || events[2]!.bearing === 360 || events[2]!.bearing < 0.5).toBe(true);
    expect(events[1]!.id).toBe(running.id);
  });

  it('lists a weekly series once, at its next date still to come, as Discover shows it', async () => {
    const { cookie } = await newUser(t.app);
    const WEEK = 7 * 24 * HOUR;
    const first = new Date(NOW.getTime() - 20 * HOUR); // last Thursday's is over
    // One after another, as a source's run writes a series (in one transaction): dates of one series
    // written at once by separate transactions each miss the others' until they commit (series_prev_end).
    const dates: Awaited<ReturnType<typeof ev>>[] = [];
    for (const i of [0, 1, 2, 3, 4]) dates.push(await ev(north(100), { title: 'Karaoke Thursdays at The Lantern Cellar', venueName: 'The Lantern Cellar', startDate: new Date(first.getTime() + i * WEEK) }));
    const oneOff = await ev(north(150), { title: 'The Fernhill Sisters – Album Release Show' });
    const events = await nearby(cookie, CENTRE);
    expect(events.map((e) => e.title)).toEqual(['Karaoke Thursdays at The Lantern Cellar', 'The Fernhill Sisters – Album Release Show']);
    expect(events[0]).toMatchObject({ id: dates[1]!.id, time: dates[1]!.startDate.toISOString(), allDay: false });
    expect(events[1]!.id).toBe(oneOff.id);
    // The event API's list agrees: one card for the series, the same date.
    const cards = (await call('GET', '/api/events?limit=24', cookie)).json<{ id: string }[]>();
    expect(cards.map((c) => c.id).sort()).toEqual([dates[1]!.id, oneOff.id].sort());
  });

  it('honours a larger radius up to 20 km', async () => {
    const { cookie } = await newUser(t.app);
    await ev(north(1500), { title: 'At 1.5 km' });
    await ev(north(15_000), { title: 'At 15 km' });
    await ev(north(25_000), { title: 'At 25 km' });
    expect((await nearby(cookie, { ...CENTRE, radius: 2000 })).map((e) => e.title)).toEqual(['At 1.5 km']);
    const wide = await nearby(cookie, { ...CENTRE, radius: 20_000 });
    expect(wide.map((e) => e.title)).toEqual(['At 1.5 km', 'At 15 km']);
    for (const e of wide) expect(e.distanceM).toBeCloseTo(haversineM(CENTRE.lat, CENTRE.lng, e.lat, e.lng), -1);
  });
});

describe('POST /api/ar/discover', () => {
  const discover = async (cookie: string, events: unknown[], location: Record<string, unknown> = { ...CENTRE, name: 'Pioneer Square' }) => {
    const res = await call('POST', '/api/ar/discover', cookie, { location, events });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<DiscoverResponse>();
  };

  it('keeps only real upcoming approved events near the place, records the session and pays 5 once', async () => {
    const { cookie, user } = await newUser(t.app);
    const a = await ev(north(300));
    const b = await ev(east(500));
    const pending = await ev(north(100), { status: 'pending' });
    const past = await ev(north(100), { startDate: new Date(NOW.getTime() - 10 * HOUR) });
    const faraway = await ev(north(30_000));
    const made = await discover(cookie, [a.id, { id: b.id, title: 'whatever' }, pending.id, past.id, faraway.id, '00000000-0000-4000-8000-000000000000', a.id]);
    expect(made.pointsAwarded).toBe(5);
    expect(made.message).toBe('+5 points for an AR interaction.');
    expect(made.discovery).toMatchObject({ placeName: 'Pioneer Square', eventsFound: 2, pointsEarned: 5, shared: false });
    expect(new Set(made.discovery.eventIds)).toEqual(new Set([a.id, b.id]));
    expect(await ledger(user.id)).toEqual({ n: 1, p: 5 });
    expect((await call('GET', '/api/auth/user', cookie)).json().points).toBe(5);
  });

  it('records a session without real events but pays nothing', async () => {
    const { cookie, user } = await newUser(t.app);
    const pending = await ev(north(100), { status: 'pending' });
    const made = await discover(cookie, [pending.id, '00000000-0000-4000-8000-000000000000']);
    expect(made).toMatchObject({ pointsAwarded: 0, discovery: { eventsFound: 0, pointsEarned: 0 } });
    expect(made.message).toContain('no points');
    expect(await ledger(user.id)).toEqual({ n: 0, p: 0 });
  });

  it('pays each session within the daily cap of 10 and records the rest with 0 points', async () => {
    const { cookie, user } = await newUser(t.app);
    const a = await ev(north(100));
    for (let i = 0; i < 10; i++) expect((await discover(cookie, [a.id])).pointsAwarded).toBe(5);
    const over = await discover(cookie, [a.id]);
    expect(over.pointsAwarded).toBe(0);
    expect(over.message).toContain('Daily limit reached');
    expect(await ledger(user.id)).toEqual({ n: 10, p: 50 });
    const rows = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from ar_discoveries where user_id = ${user.id}`);
    expect(rows[0]!.n).toBe(11);
  });

  it('answers 401 signed out and 400 for a bad location', async () => {
    expect((await call('POST', '/api/ar/discover', undefined, { location: CENTRE, events: [] })).statusCode).toBe(401);
    const { cookie } = await newUser(t.app);
    const res = await call('POST', '/api/ar/discover', cookie, { location: { lat: 'x', lng: 0 }, events: [] });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('location');
  });
});

describe('Reality Hunter counts events found, not rows', () => {
  it('counts a series found on several dates, in one session or many, as one event', async () => {
    const { cookie } = await newUser(t.app);
    const WEEK = 7 * 24 * HOUR;
    const karaoke = await Promise.all([0, 1, 2, 3].map((i) => ev(north(100), { title: 'Karaoke Thursdays at The Lantern Cellar', venueName: 'The Lantern Cellar', startDate: new Date(NOW.getTime() + HOUR + i * WEEK) })));
    const oneOff = await ev(north(200), { title: 'The Fernhill Sisters – Album Release Show' });
    const hunter = (r: DiscoverResponse) => r.achievements.find((a) => a.id === 'reality_hunter')!.progress;
    const first = (await call('POST', '/api/ar/discover', cookie, { location: CENTRE, events: [...karaoke.map((e) => e.id), oneOff.id] })).json<DiscoverResponse>();
    expect(first.discovery.eventsFound).toBe(2);
    expect(first.discovery.eventIds.sort()).toEqual([karaoke[0]!.id, oneOff.id].sort());
    expect(hunter(first)).toBe(2);
    // A week later the series' next date is found: the same event.
    t.clock.set(new Date(NOW.getTime() + WEEK));
    const later = (await call('POST', '/api/ar/discover', cookie, { location: CENTRE, events: [karaoke[1]!.id] })).json<DiscoverResponse>();
    expect(hunter(later)).toBe(2);
  });
});

describe('AR points through award-points', () => {
  it('no longer pays ar from the browser: 400 naming the activity type', async () => {
    const { cookie, user } = await newUser(t.app);
    const res = await call('POST', '/api/gaming/award-points', cookie, { points: 5, reason: 'AR event discovery', activityType: 'ar' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain("activityType 'ar'");
    expect(res.json().message).toContain('/api/ar/discover');
    expect(await ledger(user.id)).toEqual({ n: 0, p: 0 });
  });
});

describe('AR achievements and sharing', () => {
  it('counts sessions, distinct events found and shared discoveries', async () => {
    const { cookie } = await newUser(t.app);
    const start = await call('GET', '/api/ar/achievements', cookie);
    expect(start.json().achievements).toEqual([
      { id: 'ar_explorer', title: 'AR Explorer', description: 'Use AR 5 times', progress: 0, target: 5, earned: false },
      { id: 'reality_hunter', title: 'Reality Hunter', description: 'Find 10 AR events', progress: 0, target: 10, earned: false },
      { id: 'digital_pioneer', title: 'Digital Pioneer', description: 'Share AR discoveries', progress: 0, target: 1, earned: false },
    ]);
    const evs = await Promise.all(Array.from({ length: 12 }, (_, i) => ev(north(50 * (i + 1)))));
    let last: DiscoverResponse | null = null;
    for (let i = 0; i < 5; i++) {
      const res = await call('POST', '/api/ar/discover', cookie, { location: CENTRE, events: evs.slice(i * 2, i * 2 + 4).map((e) => e.id) });
      last = res.json<DiscoverResponse>();
    }
    const byId = (list: { id: string; progress: number; earned: boolean }[]) => Object.fromEntries(list.map((a) => [a.id, [a.progress, a.earned]]));
    expect(byId(last!.achievements)).toEqual({ ar_explorer: [5, true], reality_hunter: [10, true], digital_pioneer: [0, false] });

    const other = await newUser(t.app);
    expect((await call('POST', `/api/ar/discoveries/${last!.discovery.id}/share`, other.cookie)).statusCode).toBe(403);
    expect((await call('POST', '/api/ar/discoveries/00000000-0000-4000-8000-000000000000/share', cookie)).statusCode).toBe(404);
    expect((await call('POST', `/api/ar/discoveries/${last!.discovery.id}/share`)).statusCode).toBe(401);
    const shared = await call('POST', `/api/ar/discoveries/${last!.discovery.id}/share`, cookie);
    expect(shared.statusCode, shared.body).toBe(200);
    expect(shared.json().discovery.shared).toBe(true);
    expect(byId(shared.json().achievements).digital_pioneer).toEqual([1, true]);
    expect(byId((await call('GET', '/api/ar/achievements', other.cookie)).json().achievements)).toEqual({ ar_explorer: [0, false], reality_hunter: [0, false], digital_pioneer: [0, false] });
  });
});
