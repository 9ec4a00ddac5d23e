import { crc32, deflateSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_ORIGIN, TEST_QR_KEY, type TestApp } from '../../test/build-test-app.ts';
import { buildEvent, queryRows } from '../../test/factories.ts';
import { serveText, startFeedServer } from '../../test/feed-server.ts';
import { newUser } from '../gaming/test-users.ts';
import { signQrPayload } from '../qr/qr.codec.ts';
import { OcrBusyError, type OcrResult } from './engine/ocr-pool.ts';
import type { OcrReader } from './scan.service.ts';

// A stand-in OCR pool: it answers the text each test queues, so these tests are about the API,
// the contribution and the ledger. The real pool and extractor are tested in engine/.
const queued: Partial<OcrResult>[] = [];
let reads = 0;
let busy = false;
const ocr: OcrReader = {
  async read() {
    reads += 1;
    if (busy) throw new OcrBusyError();
    return { text: '', confidence: 0.91, qr: null, ms: 12, ...queued.shift() };
  },
  async close() {},
};

let t: TestApp;
const NOW = new Date('2026-11-18T20:00:00Z'); // Wednesday noon in Portland
let image: string;
let pages: Awaited<ReturnType<typeof startFeedServer>>;

beforeAll(async () => {
  pages = await startFeedServer({
    '/event.html': serveText(
      `<html><head><script type="application/ld+json">${JSON.stringify({
        '@context': 'https://schema.org',
        '@type': 'Event',
        name: 'Neighbourhood Clean-up Day',
        startDate: '2026-11-28T10:00:00-08:00',
        location: { '@type': 'Place', name: 'Laurelhurst Park', address: 'SE Cesar E Chavez Blvd, Portland' },
        offers: { '@type': 'Offer', price: '3.00', priceCurrency: 'USD' },
      })}</script></head><body></body></html>`,
      'text/html',
    ),
    '/nothing.html': serveText('<html><body><p>No events here</p></body></html>', 'text/html'),
  });
  t = await buildTestApp({ ocr });
  await newUser(t.app); // the first account is the admin
  image = (await sharp({ create: { width: 64, height: 64, channels: 3, background: '#ffffff' } }).png().toBuffer()).toString('base64');
});
afterAll(async () => {
  await t.close();
  await pages.close();
});
beforeEach(async () => {
  t.clock.set(NOW);
  queued.length = 0;
  reads = 0;
  busy = false;
  await t.database.db.execute(sql`truncate events, venues, point_awards, user_badges, notifications, flyer_scans cascade`);
  await t.database.db.execute(sql`update users set points = 0`);
  // A venue the city knows; flyers elsewhere are of venues new to it.
  await t.database.db.execute(sql`insert into venues (name, lat, lng) values ('Mississippi Studios', 45.5537, -122.6757)`);
});

const post = (payload: unknown, cookie?: string) =>
  t.app.inject({ method: 'POST', url: '/api/scan/flyer', payload: payload as object, headers: { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) } });
const get = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
const patch = (id: string, payload: object, cookie: string) => t.app.inject({ method: 'PATCH', url: `/api/scan/${id}`, payload, headers: { origin: TEST_ORIGIN, cookie } });

/** The text of a flyer as OCR reads it. */
const flyer = (title: string, when = 'Saturday, December 5, 2026 8:00 PM', venue = 'Mississippi Studios', more = 'Tickets $15') => `${title}\n${when}\nat ${venue}\n${more}\n`;
async function scanText(cookie: string, text: string, extra: Partial<OcrResult> = {}) {
  queued.push({ text, ...extra });
  return post({ imageData: image }, cookie);
}
const ledger = (userId: string) =>
  queryRows<{ activity_type: string; points: number; idempotency_key: string }>(t.database.db, sql`select activity_type, points, idempotency_key from point_awards where user_id = ${userId} order by created_at, id`);

/** A PNG whose header says 14,000 x 14,000 pixels, in 93 bytes. */
function hugePngHeader(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(14_000, 0);
  ihdr.writeUInt32BE(14_000, 4);
  ihdr[8] = 8; // 8-bit grey
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(14_001))), chunk('IEND', Buffer.alloc(0))]);
}

describe('POST /api/scan/flyer: access and validation', () => {
  it('answers 401 to a signed-out caller before reading the body', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/scan/flyer', headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' }, payload: '' });
    expect(res.statusCode).toBe(401);
  });

  it('refuses what is not a JPEG, PNG or WebP of at most 8 MB and 40 megapixels, before any OCR, and stays healthy', async () => {
    const { cookie } = await newUser(t.app);
    const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.from([1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0x21, 0xf9, 4, 1, 0, 0, 0, 0, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0, 0x3b])]);
    const cases: [string, unknown, number, string][] = [
      ['a GIF named .png', { imageData: gif.toString('base64'), fileName: 'flyer.png' }, 400, 'imageData must be a JPEG, PNG or WebP image'],
      ['bytes that are not an image', { imageData: Buffer.from('%PDF-1.7 not a picture at all').toString('base64') }, 400, 'imageData must be a JPEG, PNG or WebP image'],
      ['a data URL', { imageData: `data:image/png;base64,${image}` }, 400, 'imageData must be base64 without the data-URL prefix'],
      ['text that is not base64', { imageData: 'this is not base64!' }, 400, 'imageData must be base64 without the data-URL prefix'],
      ['a PNG of 14,000 x 14,000 pixels', { imageData: hugePngHeader().toString('base64') }, 400, 'imageData is 14000×14000 pixels; at most 40 megapixels are read'],
      ['a PNG header with nothing readable behind it', { imageData: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]).toString('base64') }, 400, 'imageData is not a readable PNG image'],
    ];
    for (const [what, body, status, message] of cases) {
      const res = await post(body, cookie);
      expect([what, res.statusCode, res.json().message]).toEqual([what, status, message]);
    }
    // 20 MB of base64: refused by the body limit, unread.
    const big = await post({ imageData: 'A'.repeat(20 * 1024 * 1024) }, cookie);
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ code: 'payload_too_large' });
    // Just over 8 MB decoded, within the body limit: refused from its length before decoding.
    const over = await post({ imageData: Buffer.alloc(8 * 1024 * 1024 + 600, 0xff).toString('base64') }, cookie);
    expect(over.statusCode).toBe(413);
    expect(over.json().message).toBe('imageData must be at most 8 MB');
    expect(reads).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('answers 503 with Retry-After when the OCR queue is full', async () => {
    const { cookie } = await newUser(t.app);
    busy = true;
    const res = await post({ imageData: image }, cookie);
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe('unavailable');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('limits scans per user per minute', async () => {
    const { cookie } = await newUser(t.app);
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await scanText(cookie, 'nothing to read')).statusCode);
    expect(codes.slice(0, 10).every((c) => c === 200)).toBe(true);
    expect(codes[10]).toBe(429);
  });
});

describe('POST /api/scan/flyer: events and points', () => {
  it('turns a flyer of a new event into a pending contribution of the user and pays 10 points', async () => {
    const { cookie, user } = await newUser(t.app);
    const res = await scanText(cookie, flyer('Winter Jazz Night'), { confidence: 0.87 });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, result: { pointsEarned: 10, badges: [], event: { title: 'Winter Jazz Night', venue: 'Mississippi Studios', isNew: true } } });
    expect(body.extracted).toMatchObject({ title: 'Winter Jazz Night', startDate: '2026-12-06T04:00:00.000Z', venue: 'Mississippi Studios', price: 15, confidence: 0.87 });
    expect(body.scanId).toEqual(expect.any(String));
    const [e] = await queryRows<{ status: string; source_type: string; contributed_by: string; start_date: Date }>(
      t.database.db,
      sql`select status, source_type, contributed_by, start_date from events where id = ${body.result.event.id}`,
    );
    expect(e).toMatchObject({ status: 'pending', source_type: 'contribution', contributed_by: user.id });
    expect(await ledger(user.id)).toEqual(expect.arrayContaining([{ activity_type: 'flyer_scan', points: 10, idempotency_key: `flyer_scan:${user.id}:event:${body.result.event.id}` }]));
    const [scan] = await queryRows<{ event_id: string; is_new: boolean; ocr_ms: number; text: string }>(t.database.db, sql`select event_id, is_new, ocr_ms, text from flyer_scans where id = ${body.scanId}`);
    expect(scan).toMatchObject({ event_id: body.result.event.id, is_new: true, ocr_ms: 12, text: flyer('Winter Jazz Night') });
  });

  it('links a flyer of an event already listed instead of creating a second one', async () => {
    const { cookie } = await newUser(t.app);
    const listed = await buildEvent(t.database.db, { title: 'Winter Jazz Night', venueName: 'Mississippi Studios', startDate: new Date('2026-12-06T04:00:00Z') });
    const res = await scanText(cookie, flyer('Winter Jazz Night'));
    expect(res.statusCode).toBe(200);
    expect(res.json().result).toMatchObject({ pointsEarned: 10, event: { id: listed.id, isNew: false, status: 'approved' } });
    const [n] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from events`);
    expect(n!.n).toBe(1);
  });

  it('pays a flyer once per member and event: scanning it again earns nothing and counts once toward Flyer Hunter', async () => {
    const { cookie, user } = await newUser(t.app);
    const first = (await scanText(cookie, flyer('Winter Jazz Night'))).json();
    expect(first.result.pointsEarned).toBe(10);
    for (let i = 0; i < 2; i++) {
      const again = (await scanText(cookie, flyer('Winter Jazz Night'))).json();
      expect(again.result).toMatchObject({ pointsEarned: 0, challenges: [], event: { id: first.result.event.id, isNew: false, status: 'pending' } });
      expect(again.message).toBe('You scanned a flyer of this event before: it earns points once');
    }
    expect((await ledger(user.id)).map((a) => a.activity_type)).toEqual(['flyer_scan']);
    const hunter = ((await get('/api/scan/challenges', cookie)).json() as { id: string; progress: number }[]).find((c) => c.id === 'flyer_hunter');
    expect(hunter).toMatchObject({ progress: 1 });
    // The page's tiles agree: three scans, one flyer this week.
    expect((await get('/api/scan/history', cookie)).json()).toMatchObject({ scanCount: 3, stats: { thisWeek: 1 } });
    // Another member scanning the same flyer earns their own points.
    expect((await scanText((await newUser(t.app)).cookie, flyer('Winter Jazz Night'))).json().result.pointsEarned).toBe(10);
  });

  it('answers what was read, with no result and no points, when no title or date can be read', async () => {
    const { cookie, user } = await newUser(t.app);
    const res = await scanText(cookie, 'lorem ipsum\n\n');
    expect(res.statusCode).toBe(200);
    expect(res.json().result).toBeUndefined();
    expect(res.json()).toMatchObject({ success: true, extracted: { text: 'lorem ipsum\n\n' } });
    expect(await ledger(user.id)).toEqual([]);
    const [n] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from flyer_scans`);
    expect(n!.n).toBe(0);
  });

  it('counts a Townbeat QR code on the flyer as a check-in at its event', async () => {
    const { cookie } = await newUser(t.app);
    const e = await buildEvent(t.database.db, { title: 'Alberta Art Walk', startDate: new Date(NOW.getTime() - 30 * 60_000), endDate: new Date(NOW.getTime() + 90 * 60_000) });
    // The key buildApp derives from the test session secret.
    const key = TEST_QR_KEY;
    const code = signQrPayload(key, { k: 'event', id: e.id, iat: Math.floor(NOW.getTime() / 1000) });
    const res = await scanText(cookie, flyer('Alberta Art Walk'), { qr: code });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ qr: { type: 'event', targetId: e.id, points: 25 }, result: { pointsEarned: 25, event: { id: e.id, isNew: false } } });
  });

  it('imports the page a QR code on the flyer links to, and reads the text when the page has no event', async () => {
    const { cookie, user } = await newUser(t.app);
    const res = await scanText(cookie, 'CLEAN UP!\nbring gloves', { qr: pages.url('/event.html') });
    expect(res.statusCode).toBe(200);
    expect(res.json().result).toMatchObject({ pointsEarned: expect.any(Number), event: { title: 'Neighbourhood Clean-up Day', startDate: '2026-11-28T18:00:00.000Z', isNew: true } });
    // What the result shows is the event as stored from the page, not the photo's words.
    expect(res.json().extracted).toMatchObject({ title: 'Neighbourhood Clean-up Day', startDate: '2026-11-28T18:00:00.000Z', venue: 'Laurelhurst Park', price: 3, isFree: false, text: 'CLEAN UP!\nbring gloves' });
    const [e] = await queryRows<{ status: string; contributed_by: string }>(t.database.db, sql`select status, contributed_by from events where id = ${res.json().result.event.id}`);
    expect(e).toEqual({ status: 'pending', contributed_by: user.id });
    expect((await ledger(user.id)).filter((a) => a.activity_type === 'flyer_scan')).toHaveLength(1);

    const fallback = await scanText(cookie, flyer('Winter Jazz Night'), { qr: pages.url('/nothing.html') });
    expect(fallback.json().result.event).toMatchObject({ title: 'Winter Jazz Night', isNew: true });
  });

  it('pays flyer scans 5 times a local day; later scans still count, without points', async () => {
    const { cookie, user } = await newUser(t.app);
    const earned: number[] = [];
    for (let i = 1; i <= 6; i++) {
      const res = await scanText(cookie, flyer(`Open Mic Number ${i}`, `Saturday, December ${i + 5}, 2026 7:00 PM`));
      expect(res.statusCode).toBe(200);
      earned.push(res.json().result.pointsEarned - (res.json().result.challenges ?? []).reduce((s: number, c: { points: number }) => s + c.points, 0));
      if (i === 6) expect(res.json().message).toMatch(/Daily limit/);
    }
    expect(earned).toEqual([10, 10, 10, 10, 10, 0]);
    t.clock.set(new Date(NOW.getTime() + 24 * 3600_000));
    const next = await scanText(cookie, flyer('Open Mic Number 7', 'Saturday, December 12, 2026 9:00 PM'));
    expect(next.json().result.pointsEarned).toBe(10);
    expect((await ledger(user.id)).filter((a) => a.activity_type === 'flyer_scan')).toHaveLength(6);
  });
});

describe('scan challenges and history', () => {
  it('completes Flyer Hunter, Genre Explorer and New in Town once each, paid through the ledger', async () => {
    const { cookie, user } = await newUser(t.app);
    const at = (d: number) => new Date(Date.UTC(2026, 11, d, 4));
    // Three listed events in three categories at known venues: no "new venue" among them.
    const events = await Promise.all(
      (['Music', 'Sports', 'Arts'] as const).map((category, i) =>
        buildEvent(t.database.db, { title: `Known Event ${['Alpha', 'Bravo', 'Charlie'][i]}`, category, venueName: 'Mississippi Studios', startDate: at(6 + i) }),
      ),
    );
    const start = await get('/api/scan/challenges', cookie);
    expect(start.json()).toEqual([
      { id: 'flyer_hunter', title: 'Flyer Hunter', description: 'Scan 3 flyers this week', reward: { points: 50 }, progress: 0, target: 3, completed: false },
      expect.objectContaining({ id: 'genre_explorer', reward: { points: 75 }, progress: 0, target: 3, completed: false }),
      expect.objectContaining({ id: 'new_in_town', reward: { points: 100 }, progress: 0, target: 1, completed: false }),
    ]);
    const days = ['Saturday, December 5, 2026 8:00 PM', 'Sunday, December 6, 2026 8:00 PM', 'Monday, December 7, 2026 8:00 PM'];
    const results = [];
    for (const [i, e] of events.entries()) results.push((await scanText(cookie, flyer(e.title, days[i]))).json().result);
    expect(results.map((r) => r.event.isNew)).toEqual([false, false, false]);
    expect(results[2].challenges).toEqual([
      { id: 'flyer_hunter', title: 'Flyer Hunter', points: 50 },
      { id: 'genre_explorer', title: 'Genre Explorer', points: 75 },
    ]);
    expect(results[2].pointsEarned).toBe(10 + 50 + 75);

    // A fourth flyer, of a venue nobody listed: New in Town, and nothing paid twice.
    const fourth = (await scanText(cookie, flyer('Basement Noise Show', 'Wednesday, December 9, 2026 9:00 PM', 'The Hollow Owl'))).json().result;
    expect(fourth.challenges).toEqual([{ id: 'new_in_town', title: 'New in Town', points: 100 }]);
    const fifth = (await scanText(cookie, flyer('Another Noise Show', 'Thursday, December 10, 2026 9:00 PM', 'The Quiet Fox'))).json().result;
    expect(fifth.challenges).toEqual([]);
    const challengeAwards = (await ledger(user.id)).filter((a) => a.activity_type === 'scan_challenge');
    expect(challengeAwards.map((a) => a.points).sort((a, b) => a - b)).toEqual([50, 75, 100]);
    const states = (await get('/api/scan/challenges', cookie)).json() as { id: string; completed: boolean; progress: number }[];
    expect(states.map((s) => [s.id, s.progress, s.completed])).toEqual([
      ['flyer_hunter', 3, true],
      ['genre_explorer', 3, true],
      ['new_in_town', 1, true],
    ]);

    // History: 5 scans (all this week), 5 x 10 + 225 points, and the Explorer and Champion badges
    // the scans unlocked; a badge pays no points of its own (50 and 150 are thresholds).
    const history = (await get('/api/scan/history', cookie)).json();
    expect(history).toEqual({ scanCount: 5, totalPointsEarned: 275, badgesEarned: [{ title: 'Explorer', points: 0 }, { title: 'Champion', points: 0 }], stats: { thisWeek: 5 } });

    // Next week Flyer Hunter starts again.
    t.clock.set(new Date('2026-11-23T20:00:00Z'));
    expect(((await get('/api/scan/challenges', cookie)).json() as { id: string; progress: number; completed: boolean }[])[0]).toMatchObject({ progress: 0, completed: false });
    expect((await get('/api/scan/history', cookie)).json().stats.thisWeek).toBe(0);
  });
});

describe('GET /api/scan/history: badges', () => {
  it('leaves out a badge the member earned by check-ins, not by scanning', async () => {
    const { cookie } = await newUser(t.app);
    const key = TEST_QR_KEY;
    // Two check-ins (25 points each) during their events: the Explorer badge, at 50 points.
    for (const title of ['Alberta Art Walk', 'Hawthorne Night Market']) {
      const e = await buildEvent(t.database.db, { title, startDate: new Date(NOW.getTime() - 30 * 60_000), endDate: new Date(NOW.getTime() + 90 * 60_000) });
      const qrData = signQrPayload(key, { k: 'event', id: e.id, iat: Math.floor(NOW.getTime() / 1000) });
      const res = await t.app.inject({ method: 'POST', url: '/api/gaming/qr-scan', payload: { qrData }, headers: { origin: TEST_ORIGIN, cookie } });
      expect(res.statusCode).toBe(200);
    }
    expect((await get('/api/gaming/progress', cookie)).json()).toMatchObject({ points: 50, badges: ['Explorer'] });

    expect((await get('/api/scan/history', cookie)).json()).toEqual({ scanCount: 0, totalPointsEarned: 0, badgesEarned: [], stats: { thisWeek: 0 } });

    // A flyer scan then earns points, but no badge: the history still lists none.
    await scanText(cookie, flyer('Winter Jazz Night'));
    expect((await get('/api/scan/history', cookie)).json()).toEqual({ scanCount: 1, totalPointsEarned: 10, badgesEarned: [], stats: { thisWeek: 1 } });
  });
});

describe('PATCH /api/scan/:id', () => {
  it('lets the owner correct the pending event the scan created, and no one else', async () => {
    const owner = await newUser(t.app);
    const other = await newUser(t.app);
    const body = (await scanText(owner.cookie, flyer('Winter Jaz Nigth'))).json();
    const id = body.scanId as string;

    expect((await patch(id, { title: 'Winter Jazz Night' }, other.cookie)).statusCode).toBe(403);
    expect((await patch('00000000-0000-4000-8000-000000000000', { title: 'x' }, owner.cookie)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'PATCH', url: `/api/scan/${id}`, payload: {}, headers: { origin: TEST_ORIGIN } })).statusCode).toBe(401);
    expect((await patch(id, { startDate: 'next friday' }, owner.cookie)).statusCode).toBe(400);

    const res = await patch(id, { title: 'Winter Jazz Night', startDate: '2026-12-05T19:30:00-08:00', venue: 'Doug Fir Lounge', price: 0 }, owner.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, event: { id: body.result.event.id, title: 'Winter Jazz Night', startDate: '2026-12-06T03:30:00.000Z', venue: 'Doug Fir Lounge', category: expect.any(String), isNew: true, status: 'pending' } });
    const [e] = await queryRows<{ title: string; is_free: boolean; price: string | null; end_date: Date; start_date: Date }>(
      t.database.db,
      sql`select title, is_free, price, start_date, end_date from events where id = ${body.result.event.id}`,
    );
    expect(e).toMatchObject({ title: 'Winter Jazz Night', is_free: true });
    expect(new Date(e!.end_date).getTime()).toBeGreaterThan(new Date(e!.start_date).getTime());

    await t.database.db.execute(sql`update events set status = 'approved' where id = ${body.result.event.id}`);
    expect((await patch(id, { title: 'Too late' }, owner.cookie)).statusCode).toBe(409);
  });

  it('places the event at the corrected venue, as the scan placed it at the one it read', async () => {
    const owner = await newUser(t.app);
    await t.database.db.execute(sql`insert into venues (name, address, neighbourhood, lat, lng) values ('Doug Fir Lounge', '830 E Burnside St', 'Buckman', 45.5225, -122.6574)`);
    const body = (await scanText(owner.cookie, flyer('Winter Jazz Night'))).json();
    const place = async () =>
      (await queryRows<{ venue_name: string; address: string | null; neighbourhood: string | null; lat: number | null; lng: number | null }>(
        t.database.db,
        sql`select venue_name, address, neighbourhood, lat, lng from events where id = ${body.result.event.id}`,
      ))[0];
    expect(await place()).toEqual({ venue_name: 'Mississippi Studios', address: null, neighbourhood: 'Mississippi', lat: 45.5537, lng: -122.6757 });
    expect((await patch(body.scanId, { venue: 'Doug Fir Lounge' }, owner.cookie)).statusCode).toBe(200);
    // The flyer gave no position: the one it had was the venue's, and moves with it.
    expect(await place()).toEqual({ venue_name: 'Doug Fir Lounge', address: '830 E Burnside St', neighbourhood: 'Buckman', lat: 45.5225, lng: -122.6574 });
  });

  it('refuses to correct a scan that matched an event already listed', async () => {
    const { cookie } = await newUser(t.app);
    await buildEvent(t.database.db, { title: 'Winter Jazz Night', venueName: 'Mississippi Studios', startDate: new Date('2026-12-06T04:00:00Z') });
    const body = (await scanText(cookie, flyer('Winter Jazz Night'))).json();
    expect(body.result.event.isNew).toBe(false);
    expect((await patch(body.scanId, { title: 'Mine now' }, cookie)).statusCode).toBe(409);
  });
});
