import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../../test/build-test-app.ts';
import { buildEvent } from '../../test/factories.ts';
import { newUser } from '../gaming/test-users.ts';
import { createNotification } from './notifications.service.ts';

let t: TestApp;
const NOW = new Date('2026-11-20T20:00:00Z');

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());
beforeEach(async () => {
  t.clock.set(NOW);
  await t.database.db.execute(sql`truncate notifications`);
});

const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const markRead = (cookie: string | undefined, payload?: object) =>
  t.app.inject({ method: 'POST', url: '/api/notifications/read', payload, headers: { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) } });
/** Persists one notification per type, a minute apart, oldest first. */
async function seed(userId: string) {
  const ids: string[] = [];
  for (const [i, type] of (['info', 'success', 'achievement', 'error'] as const).entries()) {
    const n = await createNotification(t.database.db, userId, { type, title: `${type} title`, message: `${type} message` }, new Date(NOW.getTime() + i * 60_000));
    ids.push(n.id);
  }
  return ids;
}

describe('GET /api/notifications', () => {
  it('lists the newest first with display rules per type, and the unread count', async () => {
    const { cookie, user } = await newUser(t.app);
    expect((await get('/api/notifications', cookie)).json()).toEqual({ items: [], unread: 0 });
    const ids = await seed(user.id);
    const res = (await get('/api/notifications', cookie)).json();
    expect(res.unread).toBe(4);
    expect(res.items.map((n: { id: string }) => n.id)).toEqual([...ids].reverse());
    expect(res.items).toEqual([
      { id: ids[3], type: 'error', title: 'error title', message: 'error message', timestamp: '2026-11-20T20:03:00.000Z', read: false, autoHide: false, duration: 0 },
      { id: ids[2], type: 'achievement', title: 'achievement title', message: 'achievement message', timestamp: '2026-11-20T20:02:00.000Z', read: false, autoHide: true, duration: 8000 },
      { id: ids[1], type: 'success', title: 'success title', message: 'success message', timestamp: '2026-11-20T20:01:00.000Z', read: false, autoHide: true, duration: 5000 },
      { id: ids[0], type: 'info', title: 'info title', message: 'info message', timestamp: '2026-11-20T20:00:00.000Z', read: false, autoHide: true, duration: 5000 },
    ]);
  });

  it("shows only the user's own notifications, at most 50", async () => {
    const ann = await newUser(t.app);
    const bob = await newUser(t.app);
    for (let i = 0; i < 55; i++) await createNotification(t.database.db, ann.user.id, { type: 'info', title: `n${i}`, message: '' }, new Date(NOW.getTime() + i * 1000));
    const list = (await get('/api/notifications', ann.cookie)).json();
    expect(list.items).toHaveLength(50);
    expect(list.items[0].title).toBe('n54');
    expect(list.unread).toBe(55);
    expect((await get('/api/notifications', bob.cookie)).json()).toEqual({ items: [], unread: 0 });
  });

  it('answers 401 signed out', async () => {
    expect((await get('/api/notifications')).statusCode).toBe(401);
    expect((await markRead(undefined, {})).statusCode).toBe(401);
  });
});

describe('POST /api/notifications/read', () => {
  it('marks the listed ids read, ignores other users’ ids, and keeps read state', async () => {
    const ann = await newUser(t.app);
    const bob = await newUser(t.app);
    const annIds = await seed(ann.user.id);
    const bobIds = await seed(bob.user.id);
    const res = await markRead(ann.cookie, { ids: [annIds[0], annIds[1], bobIds[0]] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ unread: 2 });
    const list = (await get('/api/notifications', ann.cookie)).json();
    expect(list.items.map((n: { read: boolean }) => n.read)).toEqual([false, false, true, true]);
    expect((await get('/api/notifications', bob.cookie)).json().unread).toBe(4);
    // Marking again changes nothing; an empty list marks nothing.
    expect((await markRead(ann.cookie, { ids: [annIds[0]] })).json()).toEqual({ unread: 2 });
    expect((await markRead(ann.cookie, { ids: [] })).json()).toEqual({ unread: 2 });
  });

  it('marks everything read when no ids are given, with or without a body', async () => {
    const ann = await newUser(t.app);
    await seed(ann.user.id);
    expect((await markRead(ann.cookie, {})).json()).toEqual({ unread: 0 });
    await seed(ann.user.id);
    expect((await markRead(ann.cookie)).json()).toEqual({ unread: 0 });
    expect((await get('/api/notifications', ann.cookie)).json().items.every((n: { read: boolean }) => n.read)).toBe(true);
  });

  it('answers 400 for ids that are not notification ids', async () => {
    const ann = await newUser(t.app);
    const res = await markRead(ann.cookie, { ids: ['nope'] });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('ids');
  });
});

describe('notifications of awards', () => {
  it('persists and announces a badge notification when an award unlocks a badge', async () => {
    const { cookie, user } = await newUser(t.app);
    const announced: string[] = [];
    const off = t.app.bus.subscribe('notification', (m) => {
      if (m.userId === user.id) announced.push(`${m.notification.type}:${m.notification.title}:${m.notification.message}`);
    });
    try {
      // Ten AR sessions that each found a real upcoming event pay 5 points each (the daily cap).
      const event = await buildEvent(t.database.db, { startDate: new Date(NOW.getTime() + 24 * 3600_000) });
      for (let i = 0; i < 10; i++) {
        await t.app.inject({ method: 'POST', url: '/api/ar/discover', payload: { location: { lat: 45.5152, lng: -122.6784 }, events: [event.id] }, headers: { origin: TEST_ORIGIN, cookie } });
      }
    } finally {
      off();
    }
    expect(announced).toEqual(['achievement:New Badge Unlocked:Explorer: Reach 50 points']);
    const list = (await get('/api/notifications', cookie)).json();
    expect(list.unread).toBe(1);
    expect(list.items[0]).toMatchObject({ type: 'achievement', title: 'New Badge Unlocked', read: false, duration: 8000 });
  });
});
