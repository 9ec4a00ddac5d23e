import { createHmac } from 'node:crypto';
import QRCode from 'qrcode';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_ORIGIN, TEST_QR_KEY, type TestApp } from '../../test/build-test-app.ts';
import { buildEvent, queryRows } from '../../test/factories.ts';
import { newUser } from '../gaming/test-users.ts';
import { signQrPayload } from './qr.codec.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof newUser>>;
const NOW = new Date('2026-11-20T20:00:00Z'); // noon in Portland
const QR_KEY = TEST_QR_KEY;
const inMinutes = (m: number) => new Date(NOW.getTime() + m * 60_000);

beforeAll(async () => {
  t = await buildTestApp();
  admin = await newUser(t.app); // the first account is admin
});
afterAll(async () => t.close());
beforeEach(async () => {
  t.clock.set(NOW);
  await t.database.db.execute(sql`truncate events, favorites, point_awards, user_badges, notifications cascade`);
  await t.database.db.execute(sql`update users set points = 0`);
});

const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const scan = (cookie: string, qrData: string) =>
  t.app.inject({ method: 'POST', url: '/api/gaming/qr-scan', payload: { qrData }, headers: { origin: TEST_ORIGIN, cookie } });
/** An admin's code for an event, as its JSON form gives it. */
async function eventCode(eventId: string, query = '') {
  const res = await get(`/api/admin/qr/event/${eventId}?format=json${query}`, admin.cookie);
  expect(res.statusCode).toBe(200);
  return res.json() as { qrData: string; kind: string; targetId: string; name: string; points: number; expiresAt: string | null };
}
const runningEvent = (o: Parameters<typeof buildEvent>[1] = {}) => buildEvent(t.database.db, { title: 'Alberta Art Walk', startDate: inMinutes(-30), endDate: inMinutes(90), ...o });

describe('GET /api/admin/qr/:kind/:id', () => {
  it('issues a printable PNG, an SVG with the event title under the code, or the signed payload', async () => {
    const e = await runningEvent();
    const png = await get(`/api/admin/qr/event/${e.id}`, admin.cookie);
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.headers['cache-control']).toBe('no-store');

    const code = await eventCode(e.id);
    expect(code).toMatchObject({ kind: 'event', targetId: e.id, name: 'Alberta Art Walk', points: 25, expiresAt: null });
    expect(code.qrData).toMatch(/^tb1\.[\w-]+\.[\w-]{43}$/);

    const svg = await get(`/api/admin/qr/event/${e.id}?format=svg`, admin.cookie);
    expect(svg.headers['content-type']).toContain('image/svg+xml');
    expect(svg.body).toContain('Alberta Art Walk');
    expect(svg.body).toContain('Check in · 25 points');
    // The modules drawn are those of the signed payload.
    const plain = await QRCode.toString(code.qrData, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 });
    const modules = /<path stroke="#000000" d="([^"]+)"/.exec(plain)![1]!;
    expect(svg.body).toContain(modules);
  });

  it('escapes the title in the SVG', async () => {
    const e = await runningEvent({ title: 'Tacos <script>alert(1)</script> & more' });
    const svg = await get(`/api/admin/qr/event/${e.id}?format=svg`, admin.cookie);
    expect(svg.body).not.toContain('<script>');
    expect(svg.body).toContain('Tacos &#60;script&#62;');
  });

  it('is for admins only', async () => {
    const e = await runningEvent();
    const user = await newUser(t.app);
    expect((await get(`/api/admin/qr/event/${e.id}`)).statusCode).toBe(401);
    expect((await get(`/api/admin/qr/event/${e.id}`, user.cookie)).statusCode).toBe(403);
  });

  it.each([
    ['event/00000000-0000-0000-0000-000000000000', 'Unknown event'],
    ['event/not-an-id', 'Unknown event'],
    ['vendor/vendor_1', 'Unknown vendor'],
    ['node/1', 'Unknown quest node'],
    ['demo/community-demo-day', 'Unknown QR code kind'],
    ['coupon/1', 'Unknown QR code kind'],
  ])('answers 404 for %s until the target exists', async (path, message) => {
    const res = await get(`/api/admin/qr/${path}`, admin.cookie);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(message);
  });

  it('refuses an unapproved event, a bad format and a past expiry', async () => {
    const pending = await runningEvent({ status: 'pending' });
    expect((await get(`/api/admin/qr/event/${pending.id}`, admin.cookie)).statusCode).toBe(404);
    const e = await runningEvent();
    expect((await get(`/api/admin/qr/event/${e.id}?format=gif`, admin.cookie)).statusCode).toBe(400);
    const past = await get(`/api/admin/qr/event/${e.id}?expiresAt=${inMinutes(-1).toISOString()}`, admin.cookie);
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toContain('expiresAt');
  });
});

describe('POST /api/gaming/qr-scan: event check-in', () => {
  it('checks in once per user and code, answering the QR scan result', async () => {
    const e = await runningEvent();
    const { cookie, user } = await newUser(t.app);
    const code = await eventCode(e.id);
    const res = await scan(cookie, code.qrData);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      type: 'event',
      targetId: e.id,
      name: 'Alberta Art Walk',
      points: 25,
      bonus: 0,
      isDemo: false,
      totalPoints: 25,
      newBadges: [],
      message: 'You checked in at Alberta Art Walk. +25 points.',
    });
    const again = await scan(cookie, code.qrData);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('You already scanned this QR code');
    // A reprint of the same target (a new issue time) pays no more.
    t.clock.advance(5_000);
    expect((await scan(cookie, (await eventCode(e.id)).qrData)).statusCode).toBe(409);
    // Another user may check in with the same code.
    const other = await newUser(t.app);
    expect((await scan(other.cookie, code.qrData)).statusCode).toBe(200);

    const awards = await queryRows<{ activity_type: string; points: number; idempotency_key: string }>(
      t.database.db,
      sql`select activity_type, points, idempotency_key from point_awards where user_id = ${user.id}`,
    );
    expect(awards).toEqual([{ activity_type: 'check_in', points: 25, idempotency_key: `qr:event:${e.id}:${user.id}` }]);
    expect((await get('/api/gaming/progress', cookie)).json()).toMatchObject({ points: 25, eventsAttended: 1, merchantsVisited: 0 });
    expect((await get('/api/user/stats', cookie)).json()).toMatchObject({ eventsAttended: 1 });
    expect((await get('/api/user/activities', cookie)).json()).toMatchObject([{ activityType: 'attended', eventId: e.id, pointsEarned: 25, description: 'Checked in at Alberta Art Walk' }]);
    const notes = (await get('/api/notifications', cookie)).json();
    expect(notes.items).toMatchObject([{ type: 'success', title: 'Checked In', message: 'You checked in at Alberta Art Walk. +25 points', autoHide: true, duration: 5000 }]);
  });

  it('pays concurrent scans of one code once', async () => {
    const e = await runningEvent();
    const { cookie } = await newUser(t.app);
    const code = await eventCode(e.id);
    const codes = (await Promise.all(Array.from({ length: 8 }, () => scan(cookie, code.qrData)))).map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    expect((await get('/api/auth/user', cookie)).json().points).toBe(25);
  });

  it('opens check-in 1 hour before the start and closes it at the end', async () => {
    const e = await buildEvent(t.database.db, { title: 'Later', startDate: inMinutes(120), endDate: inMinutes(240) });
    const { cookie } = await newUser(t.app);
    const code = await eventCode(e.id);
    const early = await scan(cookie, code.qrData);
    expect(early.statusCode).toBe(400);
    expect(early.json().message).toBe('Check-in opens 1 hour before the event starts');
    t.clock.set(inMinutes(241));
    const late = await scan(cookie, code.qrData);
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toContain('ended');
    t.clock.set(inMinutes(60));
    expect((await scan(cookie, code.qrData)).statusCode).toBe(200);
  });

  it('earns the cultural badge on the third check-in at an Arts event', async () => {
    const { cookie } = await newUser(t.app);
    const arts = await Promise.all([0, 1, 2].map(() => runningEvent({ category: 'Arts' })));
    const music = await runningEvent({ category: 'Music' });
    await scan(cookie, (await eventCode(music.id)).qrData);
    await scan(cookie, (await eventCode(arts[0]!.id)).qrData);
    expect((await scan(cookie, (await eventCode(arts[1]!.id)).qrData)).json().newBadges).toEqual([]);
    const third = (await scan(cookie, (await eventCode(arts[2]!.id)).qrData)).json();
    // (The Explorer tier came with the second check-in, at 50 points.)
    expect(third.newBadges.map((b: { badgeType: string }) => b.badgeType)).toEqual(['cultural']);
  });
});

describe('POST /api/gaming/qr-scan: refused codes', () => {
  const bodyOf = (qr: string) => JSON.parse(Buffer.from(qr.split('.')[1]!, 'base64url').toString('utf8'));

  it("refuses forged and altered codes with 400 'Invalid QR code'", async () => {
    const e = await runningEvent();
    const other = await runningEvent();
    const { cookie } = await newUser(t.app);
    const genuine = (await eventCode(e.id)).qrData;
    const [prefix, body, sig] = genuine.split('.') as [string, string, string];
    const payload = bodyOf(genuine);
    const alteredBody = Buffer.from(JSON.stringify({ ...payload, id: other.id })).toString('base64url');
    const junk = Buffer.from('not json').toString('base64url');
    const signedJunk = `tb1.${junk}.${createHmac('sha256', QR_KEY).update(`tb1.${junk}`).digest('base64url')}`;
    const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
    const forgeries = [
      signQrPayload(Buffer.from('not the server secret'), payload), // signed with another key
      `${prefix}.${alteredBody}.${sig}`, // another event, same signature
      `${prefix}.${body}.${flip(sig)}`, // signature altered
      `${prefix}.${body}.${sig.slice(0, -1)}${sig.at(-1) === 'A' ? 'B' : 'A'}`, // last character altered
      `${prefix}.${body}`, // no signature
      `tb2.${body}.${sig}`, // another version
      'https://example.org/event/123', // not ours at all
      `${prefix}.${body}.${sig}.extra`,
      signedJunk, // a correct signature over a payload that is not ours
    ];
    for (const qr of forgeries) {
      const res = await scan(cookie, qr);
      expect(res.statusCode, qr).toBe(400);
      expect(res.json().message).toBe('Invalid QR code');
    }
    expect((await get('/api/auth/user', cookie)).json().points).toBe(0);
    // The test's copy of the key signs codes the server accepts: the derivation is the documented one.
    expect((await scan(cookie, signQrPayload(QR_KEY, { k: 'event', id: e.id, iat: 1 }))).statusCode).toBe(200);
  });

  it("refuses an expired code with 400 'This QR code has expired'", async () => {
    const e = await runningEvent();
    const { cookie } = await newUser(t.app);
    const code = await eventCode(e.id, `&expiresAt=${encodeURIComponent(inMinutes(10).toISOString())}`);
    expect(code.expiresAt).toBe(inMinutes(10).toISOString());
    t.clock.set(inMinutes(10));
    const res = await scan(cookie, code.qrData);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('This QR code has expired');
  });

  it('refuses a signed code for a target that no longer exists with 404', async () => {
    const { cookie } = await newUser(t.app);
    const res = await scan(cookie, signQrPayload(QR_KEY, { k: 'vendor', id: 'vendor_1', iat: 1 }));
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Unknown vendor');
  });

  it('rate limits scanning per user', async () => {
    const { cookie } = await newUser(t.app);
    const codes: number[] = [];
    for (let i = 0; i < 21; i++) codes.push((await scan(cookie, 'garbage')).statusCode);
    expect(codes.slice(0, 20)).toEqual(Array(20).fill(400));
    expect(codes[20]).toBe(429);
    // Someone else is not slowed down.
    const other = await newUser(t.app);
    expect((await scan(other.cookie, 'garbage')).statusCode).toBe(400);
  });
});

describe('the demo code', () => {
  it("issues each user a personal demo code worth 15 points once, labelled as a demo; others' are refused", async () => {
    const ann = await newUser(t.app);
    const bob = await newUser(t.app);
    const demo = await get('/api/gaming/qr-demo', ann.cookie);
    expect(demo.statusCode).toBe(200);
    expect(demo.json()).toMatchObject({ kind: 'demo', targetId: 'community-demo-day', points: 15, isDemo: true, alreadyScanned: false });
    expect(demo.json().name).toContain('demo');
    const qrData = demo.json().qrData as string;

    const stolen = await scan(bob.cookie, qrData);
    expect(stolen.statusCode).toBe(403);
    expect(stolen.json().message).toBe('This QR code was issued to another user');

    const res = await scan(ann.cookie, qrData);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ type: 'demo', targetId: 'community-demo-day', points: 15, bonus: 0, isDemo: true, totalPoints: 15 });
    expect(res.json().name).toBe('Sample Event: Community Demo Day (demo)');
    expect((await scan(ann.cookie, qrData)).statusCode).toBe(409);
    const reissued = (await get('/api/gaming/qr-demo', ann.cookie)).json();
    expect(reissued.alreadyScanned).toBe(true);
    expect((await scan(ann.cookie, reissued.qrData)).statusCode).toBe(409);
    // Bob's own code still pays Bob.
    expect((await scan(bob.cookie, (await get('/api/gaming/qr-demo', bob.cookie)).json().qrData)).statusCode).toBe(200);
  });

  it('refuses an unbound demo code and answers 401 signed out', async () => {
    const { cookie } = await newUser(t.app);
    expect((await scan(cookie, signQrPayload(QR_KEY, { k: 'demo', id: 'community-demo-day', iat: 1 }))).statusCode).toBe(400);
    expect((await get('/api/gaming/qr-demo')).statusCode).toBe(401);
    const anon = await t.app.inject({ method: 'POST', url: '/api/gaming/qr-scan', payload: { qrData: 'x' }, headers: { origin: TEST_ORIGIN } });
    expect(anon.statusCode).toBe(401);
  });
});
