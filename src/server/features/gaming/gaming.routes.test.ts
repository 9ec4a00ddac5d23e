import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { zonedToUtc } from '../../../contract/time.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../../test/build-test-app.ts';
import { buildEvent, queryRows } from '../../test/factories.ts';
import { appendAward } from './ledger.repository.ts';
import { newUser } from './test-users.ts';

// No production rule is client-reportable any more (AR pays through POST /api/ar/discover), so the
// client-report path (idempotency, caps, badges, announcements) is exercised with a probe rule.
vi.mock('./rules.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('./rules.ts')>();
  const probe = { activityType: 'probe', label: 'a test activity', points: 5, dailyCap: 10, clientReportable: true, oncePerTarget: false };
  return { ...real, ruleFor: (t: string) => (t === 'probe' ? probe : real.ruleFor(t)), clientActivityTypes: () => ['probe'] };
});

let t: TestApp;
const LA = 'America/Los_Angeles';
const la = (month: number, day: number, hour = 12, minute = 0) => zonedToUtc({ year: 2026, month, day, hour, minute }, LA);
const NOW = la(11, 18, 12); // Wednesday 18 November 2026, noon in Portland

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());
beforeEach(async () => {
  t.clock.set(NOW);
  await t.database.db.execute(sql`truncate events, favorites, point_awards, user_badges, notifications cascade`);
  await t.database.db.execute(sql`update users set points = 0, leaderboard_opt_out = false`);
});

const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const send = (method: 'POST' | 'PATCH', url: string, payload: unknown, cookie?: string) =>
  t.app.inject({ method, url, payload: payload as object, headers: { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) } });
const award = (cookie: string, body: Record<string, unknown> = {}) =>
  send('POST', '/api/gaming/award-points', { points: 5, reason: 'Probe activity', activityType: 'probe', ...body }, cookie);
const favorite = (cookie: string, id: string) => send('POST', `/api/user/favorites/${id}`, undefined, cookie);
const ledgerCount = async (userId: string) =>
  (await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from point_awards where user_id = ${userId}`))[0]!.n;

describe('POST /api/gaming/award-points', () => {
  it('pays the rule amount for a client-reportable activity and answers the points-award result', async () => {
    const { cookie } = await newUser(t.app);
    const res = await award(cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ progress: { points: 5, badges: [] }, newBadges: [], message: '+5 points for a test activity.', pointsAwarded: 5 });
    expect((await get('/api/auth/user', cookie)).json().points).toBe(5);
    const progress = (await get('/api/gaming/progress', cookie)).json();
    expect(progress).toEqual({ level: 1, points: 5, badges: [], eventsAttended: 0, merchantsVisited: 0, nextBadge: { name: 'Explorer', points: 50 }, streak: 1 });
  });

  it.each([
    [{ activityType: 'discovered' }, 'activityType'],
    [{ activityType: 'ar' }, "activityType 'ar' is awarded by the server itself"],
    [{ activityType: 'check_in', points: 25 }, 'activityType'],
    [{ activityType: 'mint_money' }, 'activityType'],
    [{ activityType: 'constructor' }, 'activityType'],
    [{ points: 500 }, 'points'],
    [{ points: 0 }, 'points'],
    [{ points: 'five' }, 'points'],
    [{ reason: '' }, 'reason'],
    [{ reason: 'x'.repeat(201) }, 'reason'],
  ])('refuses %j with 400 naming %s, paying nothing', async (body, field) => {
    const { cookie, user } = await newUser(t.app);
    const res = await award(cookie, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(field);
    expect(await ledgerCount(user.id)).toBe(0);
  });

  it('answers 401 signed out', async () => {
    expect((await send('POST', '/api/gaming/award-points', { points: 5, reason: 'x', activityType: 'ar' })).statusCode).toBe(401);
  });

  it('pays a retried request once and answers it with the same result', async () => {
    const { cookie, user } = await newUser(t.app);
    const first = await award(cookie);
    const again = await award(cookie);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await ledgerCount(user.id)).toBe(1);
  });

  it('pays 50 concurrent identical requests exactly once, all answered 200 alike', async () => {
    const { cookie, user } = await newUser(t.app);
    const results = await Promise.all(Array.from({ length: 50 }, () => award(cookie)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    expect(new Set(results.map((r) => r.body)).size).toBe(1);
    expect(results[0]!.json().progress.points).toBe(5);
    expect(await ledgerCount(user.id)).toBe(1);
    expect((await get('/api/auth/user', cookie)).json().points).toBe(5);
  });

  it('stops at the daily cap with 429, counted in the local day, and pays again after local midnight', async () => {
    const { cookie, user } = await newUser(t.app);
    t.clock.set(la(11, 18, 23, 40)); // 23:40 in Portland is 07:40 UTC the next day
    for (let i = 0; i < 10; i++) expect((await award(cookie, { reason: `AR ${i}` })).statusCode).toBe(200);
    const over = await award(cookie, { reason: 'AR 10' });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ code: 'rate_limited', message: 'Daily limit reached for probe' });
    expect(Number(over.headers['retry-after'])).toBe(20 * 60);
    // A duplicate of an already paid request is not refused by the cap: it repeats its answer.
    expect((await award(cookie, { reason: 'AR 3' })).statusCode).toBe(200);
    t.clock.set(la(11, 19, 0, 5));
    expect((await award(cookie, { reason: 'AR 10' })).statusCode).toBe(200);
    expect(await ledgerCount(user.id)).toBe(11);
    expect((await get('/api/auth/user', cookie)).json().points).toBe(55);
  });

  it('keeps the cap exact under concurrent distinct requests', async () => {
    const { cookie, user } = await newUser(t.app);
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => award(cookie, { reason: `burst ${i}` })));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(10);
    expect(codes.filter((c) => c === 429)).toHaveLength(6);
    expect(await ledgerCount(user.id)).toBe(10);
    expect((await get('/api/auth/user', cookie)).json().points).toBe(50);
  });

  it('announces the new total and new badges on the bus after commit', async () => {
    const { cookie, user } = await newUser(t.app);
    const seen: string[] = [];
    const off1 = t.app.bus.subscribe('gaming_update', (m) => seen.push(`points:${m.userId === user.id}:${m.points}`));
    const off2 = t.app.bus.subscribe('notification', (m) => seen.push(`note:${m.userId === user.id}:${m.notification.title}`));
    try {
      for (let i = 0; i < 10; i++) await award(cookie, { reason: `r${i}` });
      await award(cookie, { reason: 'r0' }); // a duplicate announces nothing
    } finally {
      off1();
      off2();
    }
    expect(seen.slice(0, 2)).toEqual(['points:true:5', 'points:true:10']);
    expect(seen.slice(-2)).toEqual(['points:true:50', 'note:true:New Badge Unlocked']);
    expect(seen).toHaveLength(11);
  });
});

describe('badges', () => {
  it('earns the Explorer tier at 50 points in the award that crosses it, once, with a notification', async () => {
    const { cookie } = await newUser(t.app);
    for (let i = 0; i < 9; i++) expect((await award(cookie, { reason: `r${i}` })).json().newBadges).toEqual([]);
    const crossing = (await award(cookie, { reason: 'r9' })).json();
    expect(crossing.progress).toEqual({ points: 50, badges: ['Explorer'] });
    expect(crossing.newBadges).toMatchObject([{ badgeType: 'tier_explorer', kind: 'tier', title: 'Explorer', rule: 'Reach 50 points' }]);
    expect(crossing.message).toBe('+5 points for a test activity. New badge: Explorer!');
    // Replaying the crossing request repeats its answer, badge included; nothing is earned twice.
    expect((await award(cookie, { reason: 'r9' })).json()).toEqual(crossing);
    const badges = (await get('/api/user/badges', cookie)).json();
    expect(badges).toHaveLength(1);
    expect(badges[0]).toMatchObject({ badgeType: 'tier_explorer', title: 'Explorer' });
    const notes = (await get('/api/notifications', cookie)).json();
    expect(notes.items).toMatchObject([{ type: 'achievement', title: 'New Badge Unlocked', message: 'Explorer: Reach 50 points', autoHide: true, duration: 8000, read: false }]);
    expect((await get('/api/gaming/progress', cookie)).json()).toMatchObject({ badges: ['Explorer'], nextBadge: { name: 'Champion', points: 150 } });
  });

  it('earns the explorer type badge on the 10th event discovered through favourites', async () => {
    const { cookie } = await newUser(t.app);
    const events = await Promise.all(Array.from({ length: 10 }, () => buildEvent(t.database.db)));
    for (const e of events.slice(0, 9)) expect((await favorite(cookie, e.id)).statusCode).toBe(200);
    expect((await get('/api/user/badges', cookie)).json()).toEqual([]);
    await favorite(cookie, events[9]!.id);
    const types = (await get('/api/user/badges', cookie)).json().map((b: { badgeType: string }) => b.badgeType);
    expect(types.sort()).toEqual(['explorer', 'tier_explorer']);
    expect((await get('/api/user/stats', cookie)).json()).toMatchObject({ points: 50, eventsDiscovered: 10 });
  });

  it('earns the regular badge on the 7th consecutive local day, and streaks follow the city calendar', async () => {
    const { cookie } = await newUser(t.app);
    for (let d = 0; d < 6; d++) {
      t.clock.set(la(11, 10 + d, 23, 50)); // late evening: already the next day in UTC
      expect((await award(cookie)).json().newBadges).toEqual([]);
    }
    t.clock.set(la(11, 16, 0, 10));
    expect((await get('/api/user/stats', cookie)).json().streak).toBe(6); // alive until the end of today
    const seventh = (await award(cookie)).json();
    expect(seventh.newBadges.map((b: { badgeType: string }) => b.badgeType)).toEqual(['regular']);
    expect((await get('/api/user/stats', cookie)).json().streak).toBe(7);
    t.clock.set(la(11, 17, 23, 59));
    expect((await get('/api/gaming/progress', cookie)).json().streak).toBe(7);
    t.clock.set(la(11, 18, 0, 1));
    expect((await get('/api/gaming/progress', cookie)).json().streak).toBe(0);
  });
});

describe('GET /api/user/stats and activities', () => {
  it('counts discoveries and contributions, and lists the ledger newest first', async () => {
    const { cookie, user } = await newUser(t.app);
    const a = await buildEvent(t.database.db, { title: 'Jazz night' });
    await buildEvent(t.database.db, { contributedBy: user.id });
    await buildEvent(t.database.db, { contributedBy: user.id });
    await favorite(cookie, a.id);
    t.clock.advance(60_000);
    await award(cookie);
    expect((await get('/api/user/stats', cookie)).json()).toEqual({ points: 10, level: 1, eventsAttended: 0, eventsDiscovered: 1, contributionsCount: 2, streak: 1 });
    const activities = (await get('/api/user/activities', cookie)).json();
    expect(activities).toMatchObject([
      { activityType: 'probe', eventId: null, pointsEarned: 5, description: 'Probe activity' },
      { activityType: 'discovered', eventId: a.id, pointsEarned: 5, description: 'Discovered Jazz night' },
    ]);
    expect(Object.keys(activities[0]).sort()).toEqual(['activityType', 'createdAt', 'description', 'eventId', 'id', 'pointsEarned']);
  });

  it('answers 401 signed out', async () => {
    for (const url of ['/api/user/stats', '/api/user/badges', '/api/user/activities', '/api/gaming/progress', '/api/gaming/leaderboard', '/api/notifications']) {
      expect((await get(url)).statusCode).toBe(401);
    }
  });
});

describe('POST /api/user/activities', () => {
  it('pays a client-reportable activity at the rule amount, once per event and day', async () => {
    const { cookie } = await newUser(t.app);
    const e = await buildEvent(t.database.db, { title: 'Mural walk' });
    const body = { activityType: 'probe', eventId: e.id, pointsEarned: 5, description: 'Found an AR event' };
    const res = await send('POST', '/api/user/activities', body, cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ progress: { points: 5 }, pointsAwarded: 5 });
    expect((await send('POST', '/api/user/activities', body, cookie)).json().progress.points).toBe(5);
    expect((await get('/api/user/activities', cookie)).json()).toMatchObject([{ activityType: 'probe', eventId: e.id, pointsEarned: 5, description: 'Found an AR event' }]);
  });

  it('refuses server-decided types, a different amount and unknown events', async () => {
    const { cookie } = await newUser(t.app);
    const e = await buildEvent(t.database.db);
    const discovered = await send('POST', '/api/user/activities', { activityType: 'discovered', eventId: e.id, pointsEarned: 5 }, cookie);
    expect(discovered.statusCode).toBe(400);
    expect(discovered.json().message).toContain('activityType');
    const greedy = await send('POST', '/api/user/activities', { activityType: 'probe', pointsEarned: 50 }, cookie);
    expect(greedy.statusCode).toBe(400);
    expect(greedy.json().message).toBe('pointsEarned must be 5 for probe');
    const unknown = await send('POST', '/api/user/activities', { activityType: 'probe', eventId: '00000000-0000-0000-0000-000000000000' }, cookie);
    expect(unknown.statusCode).toBe(404);
    expect((await get('/api/auth/user', cookie)).json().points).toBe(0);
  });
});

describe('GET /api/gaming/leaderboard', () => {
  async function pay(userId: string, points: number, at: Date, key: string) {
    await appendAward(t.database.db, { userId, activityType: 'ar', reason: key, points, idempotencyKey: `test:${key}:${userId}`, at });
  }

  it('ranks by points with standard competition ranking; ties list who reached the total first', async () => {
    const viewer = await newUser(t.app, { firstName: 'Vera', lastName: 'viewer' });
    const ann = await newUser(t.app, { firstName: 'Ann', lastName: 'Lee' });
    const bob = await newUser(t.app, { firstName: 'Bob', lastName: 'Marsh' });
    const cy = await newUser(t.app, { firstName: 'Cy', lastName: 'North' });
    const dee = await newUser(t.app, { firstName: 'Dee', lastName: 'Oak' });
    await pay(ann.user.id, 100, la(11, 1), 'a');
    await pay(cy.user.id, 60, la(11, 2), 'c'); // Cy reached 60 before Bob
    await pay(bob.user.id, 30, la(11, 1), 'b1');
    await pay(bob.user.id, 30, la(11, 3), 'b2');
    await pay(dee.user.id, 10, la(11, 1), 'd');
    const res = await get('/api/gaming/leaderboard', viewer.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { rank: 1, userId: ann.user.id, points: 100, displayName: 'Ann L.' },
      { rank: 2, userId: cy.user.id, points: 60, displayName: 'Cy N.' },
      { rank: 2, userId: bob.user.id, points: 60, displayName: 'Bob M.' },
      { rank: 4, userId: dee.user.id, points: 10, displayName: 'Dee O.' },
    ]);
  });

  it("shows 'Anonymous' for users who opt out in their profile", async () => {
    const ann = await newUser(t.app, { firstName: 'Ann', lastName: 'Lee' });
    await pay(ann.user.id, 20, la(11, 1), 'a');
    expect((await get('/api/user/profile', ann.cookie)).json()).toEqual({ leaderboardOptOut: false, buzzOptOut: false });
    const patched = await send('PATCH', '/api/user/profile', { leaderboardOptOut: true }, ann.cookie);
    expect(patched.json()).toEqual({ leaderboardOptOut: true, buzzOptOut: false });
    // Either setting changes alone; the other stays.
    expect((await send('PATCH', '/api/user/profile', { buzzOptOut: true }, ann.cookie)).json()).toEqual({ leaderboardOptOut: true, buzzOptOut: true });
    expect((await send('PATCH', '/api/user/profile', { buzzOptOut: 'no' }, ann.cookie)).json().message).toContain('buzzOptOut');
    expect((await get('/api/gaming/leaderboard', ann.cookie)).json()).toEqual([{ rank: 1, userId: ann.user.id, points: 20, displayName: 'Anonymous' }]);
    expect((await send('PATCH', '/api/user/profile', { leaderboardOptOut: 'yes' }, ann.cookie)).statusCode).toBe(400);
    expect((await send('PATCH', '/api/user/profile', { leaderboardOptOut: true })).statusCode).toBe(401);
  });

  it('ranks this week from Monday 00:00 in the city zone with ?period=week', async () => {
    const viewer = await newUser(t.app);
    const ann = await newUser(t.app, { firstName: 'Ann', lastName: 'Lee' });
    const bob = await newUser(t.app, { firstName: 'Bob', lastName: 'Marsh' });
    await pay(ann.user.id, 500, la(11, 15, 23, 59), 'old'); // Sunday night: last week
    await pay(ann.user.id, 10, la(11, 16, 0, 1), 'new');
    await pay(bob.user.id, 40, la(11, 17), 'b');
    expect((await get('/api/gaming/leaderboard?period=week', viewer.cookie)).json()).toEqual([
      { rank: 1, userId: bob.user.id, points: 40, displayName: 'Bob M.' },
      { rank: 2, userId: ann.user.id, points: 10, displayName: 'Ann L.' },
    ]);
    expect((await get('/api/gaming/leaderboard', viewer.cookie)).json().map((e: { points: number }) => e.points)).toEqual([510, 40]);
    expect((await get('/api/gaming/leaderboard?period=year', viewer.cookie)).statusCode).toBe(400);
  });
});
