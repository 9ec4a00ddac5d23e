import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../../test/build-test-app.ts';
import { buildEvent, queryRows } from '../../test/factories.ts';
import { appendAward } from '../gaming/ledger.repository.ts';
import { newUser } from '../gaming/test-users.ts';
import { flyerScans } from '../scan/scan.table.ts';
import { stories } from '../stories/stories.table.ts';

let t: TestApp;
const NOW = new Date('2026-11-18T20:00:00Z');

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());
beforeEach(async () => {
  t.clock.set(NOW);
  await t.database.db.execute(sql`truncate events, favorites, point_awards, user_badges, notifications, event_views, event_dismissals, user_interests, stories, flyer_scans cascade`);
});

const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const send = (method: 'POST' | 'PUT' | 'PATCH', url: string, payload: unknown, cookie?: string) =>
  t.app.inject({ method, url, payload: payload as object, headers: { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) } });
const later = (minutes: number) => t.clock.set(new Date(t.clock.now().getTime() + minutes * 60_000));
const count = async (table: 'event_views' | 'event_dismissals', userId: string) =>
  (await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from ${sql.identifier(table)} where user_id = ${userId}`))[0]!.n;

describe('access', () => {
  it.each([
    ['POST', '/api/events/00000000-0000-4000-8000-000000000000/dismiss', undefined],
    ['POST', '/api/events/00000000-0000-4000-8000-000000000000/view', { via: 'page' }],
    ['GET', '/api/user/interests', undefined],
    ['PUT', '/api/user/interests', { categories: [], neighbourhoods: [] }],
    ['GET', '/api/community/buzz', undefined],
  ] as const)('%s %s answers 401 signed out', async (method, url, body) => {
    const res = method === 'GET' ? await get(url) : await send(method, url, body);
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/events/:id/dismiss', () => {
  it('records the dismissal once, however often it is sent, and 404s unknown events', async () => {
    const { cookie, user } = await newUser(t.app);
    const e = await buildEvent(t.database.db);
    for (let i = 0; i < 2; i += 1) {
      const res = await send('POST', `/api/events/${e.id}/dismiss`, undefined, cookie);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ dismissed: true });
    }
    expect(await count('event_dismissals', user.id)).toBe(1);
    expect((await send('POST', '/api/events/00000000-0000-4000-8000-000000000000/dismiss', undefined, cookie)).statusCode).toBe(404);
    expect((await send('POST', '/api/events/not-an-id/dismiss', undefined, cookie)).statusCode).toBe(404);
  });
});

describe('POST /api/events/:id/view', () => {
  it('records the same user, event and route once within 10 minutes', async () => {
    const { cookie, user } = await newUser(t.app);
    const e = await buildEvent(t.database.db);
    const view = (via: string) => send('POST', `/api/events/${e.id}/view`, { via }, cookie);
    expect((await view('page')).json()).toEqual({ recorded: true });
    expect((await view('page')).json()).toEqual({ recorded: false });
    expect((await view('recommendation')).json()).toEqual({ recorded: true });
    later(9);
    expect((await view('page')).json()).toEqual({ recorded: false });
    later(2);
    expect((await view('page')).json()).toEqual({ recorded: true });
    expect(await count('event_views', user.id)).toBe(3);
    const bad = await view('email');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('via');
    expect((await send('POST', '/api/events/00000000-0000-4000-8000-000000000000/view', { via: 'page' }, cookie)).statusCode).toBe(404);
  });
});

describe('/api/user/interests', () => {
  it('is not chosen until picked or skipped', async () => {
    const { cookie } = await newUser(t.app);
    expect((await get('/api/user/interests', cookie)).json()).toEqual({ categories: [], neighbourhoods: [], chosen: false });
    const skipped = await send('PUT', '/api/user/interests', { categories: [], neighbourhoods: [] }, cookie);
    expect(skipped.json()).toEqual({ categories: [], neighbourhoods: [], chosen: true });
    expect((await get('/api/user/interests', cookie)).json().chosen).toBe(true);
  });

  it("keeps the picks under the city's own neighbourhood names", async () => {
    const { cookie } = await newUser(t.app);
    const res = await send('PUT', '/api/user/interests', { categories: ['Music', 'Arts', 'Music'], neighbourhoods: ['alberta arts', 'Downtown'] }, cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ categories: ['Music', 'Arts'], neighbourhoods: ['Alberta Arts', 'Downtown'], chosen: true });
    expect((await get('/api/user/interests', cookie)).json()).toEqual({ categories: ['Music', 'Arts'], neighbourhoods: ['Alberta Arts', 'Downtown'], chosen: true });
  });

  it.each([
    [{ categories: ['Juggling'], neighbourhoods: [] }, 'categories'],
    [{ categories: [], neighbourhoods: ['Atlantis'] }, 'neighbourhoods'],
    [{ categories: [] }, 'neighbourhoods'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const { cookie } = await newUser(t.app);
    const res = await send('PUT', '/api/user/interests', body, cookie);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(field);
    expect((await get('/api/user/interests', cookie)).json().chosen).toBe(false);
  });
});

describe('GET /api/community/buzz', () => {
  it('says every action in words and shows a repeat once, counted, without merging distinct actions', async () => {
    const me = await newUser(t.app, { firstName: 'Me', lastName: 'Again' });
    const mia = await newUser(t.app, { firstName: 'Mia', lastName: 'Tran' });
    const walk = await buildEvent(t.database.db, { title: 'Winter Lantern Walk' });
    const fair = await buildEvent(t.database.db, { title: 'Craft Fair' });
    const db = t.database.db;
    const scan = async (eventId: string) => {
      await db.insert(flyerScans).values({ userId: mia.user.id, eventId, isNew: false, extraction: {} as never, text: '', confidence: 1, ocrMs: 1, createdAt: t.clock.now() });
      later(1);
    };
    await scan(walk.id);
    await scan(walk.id);
    await scan(fair.id);
    expect((await send('POST', `/api/user/favorites/${walk.id}`, undefined, mia.cookie)).statusCode).toBe(200);
    later(1);
    await scan(walk.id);
    const items = (await get('/api/community/buzz?limit=10', me.cookie)).json().items as { id: string; actor: string; action: string; verb: string; count: number; subject: string }[];
    const mine = items.filter((i) => i.actor === 'Mia T.');
    expect(mine.map((i) => `${i.actor} ${i.verb} ${i.subject}${i.count > 1 ? ` (${i.count})` : ''}`)).toEqual([
      'Mia T. scanned a flyer of Winter Lantern Walk (3)',
      'Mia T. saved Winter Lantern Walk',
      'Mia T. scanned a flyer of Craft Fair',
    ]);
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
    for (const i of items) expect(i.verb).not.toMatch(/_/);
  });

  it("shows other people's latest public actions, newest first, three by default", async () => {
    const me = await newUser(t.app, { firstName: 'Me', lastName: 'Myself' });
    const sam = await newUser(t.app, { firstName: 'Sam', lastName: 'lee' });
    const kim = await newUser(t.app, { firstName: 'Kim', lastName: 'Ng' });
    const jazz = await buildEvent(t.database.db, { title: 'Jazz Night' });
    const market = await buildEvent(t.database.db, { title: 'Night Market' });
    const pending = await buildEvent(t.database.db, { title: 'Secret Gig', status: 'pending' });
    const db = t.database.db;

    expect((await send('POST', `/api/user/favorites/${jazz.id}`, undefined, sam.cookie)).statusCode).toBe(200);
    later(1);
    await appendAward(db, { userId: kim.user.id, activityType: 'check_in', reason: 'qr:event', targetType: 'event', targetId: market.id, eventId: market.id, points: 25, idempotencyKey: `k1`, at: t.clock.now() });
    later(1);
    const [story] = await db.insert(stories).values({ title: 'The Old Mill', content: 'x', author: 'Sam', userId: sam.user.id, createdAt: t.clock.now() }).returning();
    later(1);
    await db.insert(flyerScans).values({ userId: kim.user.id, eventId: jazz.id, isNew: false, extraction: {} as never, text: '', confidence: 1, ocrMs: 1, createdAt: t.clock.now() });
    later(1);
    // Not shown: my own save, a pending event, a hidden story, a generated story.
    await send('POST', `/api/user/favorites/${market.id}`, undefined, me.cookie);
    await db.insert(flyerScans).values({ userId: sam.user.id, eventId: pending.id, isNew: true, extraction: {} as never, text: '', confidence: 1, ocrMs: 1, createdAt: t.clock.now() });
    await db.insert(stories).values({ title: 'Hidden', content: 'x', author: 'Kim', userId: kim.user.id, hiddenAt: t.clock.now(), createdAt: t.clock.now() });
    await db.insert(stories).values({ title: 'Generated', content: 'x', author: 'Townbeat', aiGenerated: true, createdAt: t.clock.now() });

    const res = await get('/api/community/buzz', me.cookie);
    expect(res.statusCode).toBe(200);
    const items = res.json().items as { actor: string; action: string; subject: string; eventId: string | null; storyId: string | null; at: string }[];
    expect(items.map((i) => [i.actor, i.action, i.subject])).toEqual([
      ['Kim N.', 'scanned_flyer', 'Jazz Night'],
      ['Sam L.', 'shared_story', 'The Old Mill'],
      ['Kim N.', 'checked_in', 'Night Market'],
    ]);
    expect(items[0]).toMatchObject({ eventId: jazz.id, storyId: null });
    expect(items[1]).toMatchObject({ eventId: null, storyId: story!.id });
    expect(items[0]!.at).toBe(new Date(NOW.getTime() + 3 * 60_000).toISOString());

    const five = (await get('/api/community/buzz?limit=5', me.cookie)).json().items as { actor: string; action: string }[];
    expect(five.map((i) => `${i.actor} ${i.action}`)).toEqual(['Kim N. scanned_flyer', 'Sam L. shared_story', 'Kim N. checked_in', 'Sam L. saved']);
    // Sam sees Kim's actions and mine, never Sam's own.
    const forSam = (await get('/api/community/buzz?limit=10', sam.cookie)).json().items as { actor: string }[];
    expect(forSam.map((i) => i.actor)).toEqual(['Me M.', 'Kim N.', 'Kim N.']);
    expect((await get('/api/community/buzz?limit=0', me.cookie)).statusCode).toBe(400);
  });

  it('nudges the live channel when someone saves an event', async () => {
    const sam = await newUser(t.app);
    const e = await buildEvent(t.database.db);
    const seen: string[] = [];
    const off = t.app.bus.subscribe('buzz', (d) => seen.push(d.actorId));
    await send('POST', `/api/user/favorites/${e.id}`, undefined, sam.cookie);
    off();
    expect(seen).toEqual([sam.user.id]);
  });

  it('leaves out people who turned it off in their profile', async () => {
    const me = await newUser(t.app);
    const sam = await newUser(t.app, { firstName: 'Sam', lastName: 'Lee' });
    const e = await buildEvent(t.database.db, { title: 'Jazz Night' });
    await send('POST', `/api/user/favorites/${e.id}`, undefined, sam.cookie);
    expect((await get('/api/community/buzz', me.cookie)).json().items).toHaveLength(1);
    const patched = await send('PATCH', '/api/user/profile', { buzzOptOut: true }, sam.cookie);
    expect(patched.json()).toEqual({ leaderboardOptOut: false, buzzOptOut: true });
    expect((await get('/api/community/buzz', me.cookie)).json().items).toEqual([]);
    await send('PATCH', '/api/user/profile', { buzzOptOut: false }, sam.cookie);
    expect((await get('/api/community/buzz', me.cookie)).json().items).toHaveLength(1);
  });
});
