import ICAL from 'ical.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, signupUser, TEST_ORIGIN, type TestApp } from '../../test/build-test-app.ts';
import { buildEvent, queryRows } from '../../test/factories.ts';

// Saved events that leave the listings for reasons other than their sources: an admin's rejection, or their end.

let t: TestApp;
const NOW = new Date('2026-11-22T20:00:00Z'); // 12:00 in Portland
const inHours = (h: number) => new Date(NOW.getTime() + h * 3600 * 1000);

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());
beforeEach(async () => {
  t.clock.set(NOW);
  await t.database.db.execute(sql`truncate events, favorites, point_awards cascade`);
  await t.database.db.execute(sql`update users set points = 0`);
});

const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const post = (url: string, cookie: string) => t.app.inject({ method: 'POST', url, headers: { origin: TEST_ORIGIN, cookie } });
const titles = (res: { json: () => { title: string }[] }) => res.json().map((e) => e.title);
/** A new account made an admin. */
async function signupAdmin() {
  const admin = await signupUser(t.app);
  await t.database.db.execute(sql`update users set role = 'admin' where id = ${admin.user.id}`);
  return admin;
}

describe('a saved event an admin turns down', () => {
  const summaries = (body: string) => new ICAL.Component(ICAL.parse(body)).getAllSubcomponents('vevent').map((v) => ({ summary: v.getFirstPropertyValue('summary'), status: v.getFirstPropertyValue('status') ?? null, description: String(v.getFirstPropertyValue('description') ?? '') }));

  it('stays in the saver\'s list, page and calendar marked as removed from Townbeat, hidden from everyone else, until approved again', async () => {
    const admin = await signupAdmin();
    const saver = await signupUser(t.app);
    const other = await signupUser(t.app);
    const e = await buildEvent(t.database.db, { title: 'Harvest Supper', venueName: 'Grange Hall', startDate: inHours(48) });
    // Another date of its series (same title and place), turned down with it and never saved: not the saver's to see.
    const sibling = await buildEvent(t.database.db, { title: 'Harvest Supper', venueName: 'Grange Hall', startDate: inHours(72) });
    expect((await post(`/api/user/favorites/${e.id}`, saver.cookie)).json()).toEqual({ isFavorited: true });
    const feedPath = new URL((await get('/api/user/calendar', saver.cookie)).json().url).pathname;

    for (const id of [e.id, sibling.id]) expect((await post(`/api/admin/events/${id}/reject`, admin.cookie)).statusCode).toBe(200);

    // The saver: still in My Events with its status, its page open (no other dates), its calendar entries marked.
    expect((await get('/api/user/favorites', saver.cookie)).json()).toEqual([expect.objectContaining({ id: e.id, title: 'Harvest Supper', status: 'rejected', removedBySource: false })]);
    const page = await get(`/api/events/${e.id}`, saver.cookie);
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ id: e.id, status: 'rejected', isFavorited: true, dates: [{ id: e.id }] });
    const marked = { summary: 'Harvest Supper (removed from Townbeat)', status: 'TENTATIVE', description: expect.stringContaining('An admin removed this event from Townbeat') };
    expect(summaries((await get(feedPath)).body)).toEqual([marked]);
    expect(summaries((await get(`/api/events/${e.id}/ics`, saver.cookie)).body)).toEqual([marked]);

    // Nobody else: no page, no calendar file, not in lists or search; the sibling is not the saver's either.
    for (const cookie of [other.cookie, undefined]) {
      expect((await get(`/api/events/${e.id}`, cookie)).statusCode).toBe(404);
      expect((await get(`/api/events/${e.id}/ics`, cookie)).statusCode).toBe(404);
      expect(titles(await get('/api/events?search=Harvest', cookie))).toEqual([]);
    }
    expect((await get(`/api/events/${sibling.id}`, saver.cookie)).statusCode).toBe(404);
    expect((await post(`/api/user/favorites/${e.id}`, other.cookie)).statusCode).toBe(404);

    // Approved again: listed for everyone, and the marks are gone.
    expect((await post(`/api/admin/events/${e.id}/approve`, admin.cookie)).statusCode).toBe(200);
    expect((await get('/api/user/favorites', saver.cookie)).json()).toEqual([expect.objectContaining({ id: e.id, status: 'approved' })]);
    expect((await get(`/api/events/${e.id}`, other.cookie)).statusCode).toBe(200);
    expect(summaries((await get(feedPath)).body)).toEqual([{ summary: 'Harvest Supper', status: null, description: '' }]);

    // Turned down again, the saver can still unsave it; then it is gone for them too, and cannot be saved back.
    expect((await post(`/api/admin/events/${e.id}/reject`, admin.cookie)).statusCode).toBe(200);
    expect((await post(`/api/user/favorites/${e.id}`, saver.cookie)).json()).toEqual({ isFavorited: false });
    expect((await get('/api/user/favorites', saver.cookie)).json()).toEqual([]);
    expect((await get(`/api/events/${e.id}`, saver.cookie)).statusCode).toBe(404);
    expect((await post(`/api/user/favorites/${e.id}`, saver.cookie)).statusCode).toBe(404);
    const [row] = await queryRows<{ favorite_count: number }>(t.database.db, sql`select favorite_count from events where id = ${e.id}`);
    expect(row!.favorite_count).toBe(0);
  });
});

describe('a saved event that has ended', () => {
  const points = async (cookie: string) => (await get('/api/auth/user', cookie)).json().points as number;

  it('can be saved to remember it but earns nothing, however often the heart is toggled; upcoming and running events still pay 5', async () => {
    const { cookie, user } = await signupUser(t.app);
    const ended = await buildEvent(t.database.db, { title: 'Last Night Gig', startDate: inHours(-5), endDate: inHours(-3) });
    const running = await buildEvent(t.database.db, { title: 'Afternoon Market', startDate: inHours(-1), endDate: inHours(1) });
    const upcoming = await buildEvent(t.database.db, { title: 'Sunday Brunch', startDate: inHours(24) });

    expect((await get(`/api/events/${ended.id}`, cookie)).json()).toMatchObject({ ended: true });
    expect((await get(`/api/events/${running.id}`, cookie)).json()).toMatchObject({ ended: false });
    for (let i = 0; i < 3; i++) expect((await post(`/api/user/favorites/${ended.id}`, cookie)).json()).toEqual({ isFavorited: i % 2 === 0 });
    expect((await get(`/api/events/${ended.id}`, cookie)).json()).toMatchObject({ isFavorited: true, favoriteCount: 1 });
    expect(await points(cookie)).toBe(0);

    for (const e of [running, upcoming]) await post(`/api/user/favorites/${e.id}`, cookie);
    expect(await points(cookie)).toBe(10);
    const awards = await queryRows<{ event_id: string }>(t.database.db, sql`select event_id from point_awards where user_id = ${user.id} order by event_id`);
    expect(awards.map((a) => a.event_id).sort()).toEqual([running.id, upcoming.id].sort());

    // My Events hears which have ended; the calendar feed keeps them all (a calendar keeps its past).
    expect((await get('/api/user/favorites', cookie)).json().map((e: { title: string; ended: boolean }) => [e.title, e.ended])).toEqual([
      ['Last Night Gig', true],
      ['Afternoon Market', false],
      ['Sunday Brunch', false],
    ]);
    const feedPath = new URL((await get('/api/user/calendar', cookie)).json().url).pathname;
    expect(new ICAL.Component(ICAL.parse((await get(feedPath)).body)).getAllSubcomponents('vevent')).toHaveLength(3);

    // Once the market is over it reads as ended, and unsaving and saving it again pays nothing more.
    t.clock.set(inHours(2));
    expect((await get('/api/user/favorites', cookie)).json().map((e: { title: string; ended: boolean }) => [e.title, e.ended])).toEqual([
      ['Last Night Gig', true],
      ['Afternoon Market', true],
      ['Sunday Brunch', false],
    ]);
    for (let i = 0; i < 2; i++) await post(`/api/user/favorites/${running.id}`, cookie);
    expect(await points(cookie)).toBe(10);
  });
});
