import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ArEvent } from '../../../contract/ar.ts';
import { buildTestApp, TEST_ORIGIN, TEST_QR_KEY, type TestApp } from '../../test/build-test-app.ts';
import { buildEvent } from '../../test/factories.ts';
import { newUser } from '../gaming/test-users.ts';
import { signQrPayload } from '../qr/qr.codec.ts';

const NOW = new Date('2026-11-20T20:00:00Z'); // noon in Portland
const QR_KEY = TEST_QR_KEY;
const SPOT = { lat: 45.5187, lng: -122.6801 };

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  await newUser(t.app); // the first account is the admin
});
afterAll(async () => t.close());
beforeEach(async () => {
  t.clock.set(NOW);
  await t.database.db.execute(sql`truncate events, favorites, point_awards, user_badges, notifications cascade`);
});

const post = (url: string, cookie: string, payload?: object) => t.app.inject({ method: 'POST', url, headers: { origin: TEST_ORIGIN, cookie }, ...(payload ? { payload } : {}) });
const save = async (cookie: string, id: string) => expect((await post(`/api/user/favorites/${id}`, cookie)).statusCode).toBe(200);
const checkIn = async (cookie: string, id: string) => {
  const res = await post('/api/gaming/qr-scan', cookie, { qrData: signQrPayload(QR_KEY, { k: 'event', id, iat: Math.floor(NOW.getTime() / 1000) }) });
  expect(res.statusCode, res.body).toBe(200);
};
/** Attendees as the event API, the Discover list and AR Discovery each show them. */
async function attendees(id: string, cookie: string) {
  const detail = (await t.app.inject({ method: 'GET', url: `/api/events/${id}` })).json<{ attendeeCount: number }>().attendeeCount;
  // Signed in: an anonymous list may be a shared answer up to 15 s old (answer-cache.ts).
  const card = (await t.app.inject({ method: 'GET', url: '/api/events?limit=24', headers: { cookie } })).json<{ id: string; attendeeCount: number }[]>().find((e) => e.id === id)?.attendeeCount;
  const ar = (await post('/api/ar/nearby-events', cookie, SPOT)).json<{ events: ArEvent[] }>().events.find((e) => e.id === id)?.attendees;
  return { detail, card, ar };
}

describe('attendees', () => {
  it('counts a member who saved and checked in once, each further member once, and the same on every screen', async () => {
    const e = await buildEvent(t.database.db, { title: 'The Fernhill Sisters – Album Release Show', ...SPOT, startDate: new Date(NOW.getTime() - 30 * 60_000), attendeeCount: 3 });
    const a = await newUser(t.app);
    const b = await newUser(t.app);
    expect(await attendees(e.id, a.cookie)).toEqual({ detail: 3, card: 3, ar: 3 });

    await save(a.cookie, e.id);
    await checkIn(a.cookie, e.id);
    expect(await attendees(e.id, a.cookie)).toEqual({ detail: 4, card: 4, ar: 4 });

    await save(b.cookie, e.id);
    expect(await attendees(e.id, b.cookie)).toEqual({ detail: 5, card: 5, ar: 5 });

    // Unsaving after checking in: still there, still once.
    await save(a.cookie, e.id);
    expect(await attendees(e.id, a.cookie)).toEqual({ detail: 5, card: 5, ar: 5 });
    // Saving again: still once.
    await save(a.cookie, e.id);
    expect(await attendees(e.id, a.cookie)).toEqual({ detail: 5, card: 5, ar: 5 });
    // A member who only saved leaves when they unsave.
    await save(b.cookie, e.id);
    expect(await attendees(e.id, b.cookie)).toEqual({ detail: 4, card: 4, ar: 4 });
  });

  it('counts a check-in before a save once too, and sorts by popularity on the same number', async () => {
    const quiet = await buildEvent(t.database.db, { title: 'Quiet', ...SPOT, startDate: new Date(NOW.getTime() - 30 * 60_000), attendeeCount: 1 });
    const e = await buildEvent(t.database.db, { title: 'Checked in', ...SPOT, startDate: new Date(NOW.getTime() - 20 * 60_000) });
    const a = await newUser(t.app);
    await checkIn(a.cookie, e.id);
    await save(a.cookie, e.id);
    expect(await attendees(e.id, a.cookie)).toEqual({ detail: 1, card: 1, ar: 1 });
    // Tied on 1 attendee each: the earlier start first (a double count would put "Checked in" first).
    const byPopularity = (await t.app.inject({ method: 'GET', url: '/api/events?sortBy=popularity', headers: { cookie: a.cookie } })).json<{ id: string }[]>();
    expect(byPopularity.map((x) => x.id)).toEqual([quiet.id, e.id]);
  });
});
