import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, signupUser, TEST_ORIGIN, type TestApp } from '../../test/build-test-app.ts';
import { queryRows } from '../../test/factories.ts';
import { startFeedServer, type Route } from '../../test/feed-server.ts';

// A fixed "now" in Portland; the calendar below lists the following days.
const NOW = new Date('2026-11-23T18:00:00Z');

let t: TestApp;
let admin: string;
let server: Awaited<ReturnType<typeof startFeedServer>>;
let calendar = '';

/** A poster 1600 x 900, saved as PNG: the server calls it photo.jpg and sends it as image/jpeg. */
const poster = () =>
  sharp(
    Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900"><rect width="100%" height="100%" fill="#7c3aed"/>
      <circle cx="500" cy="450" r="300" fill="#fde68a"/></svg>`),
  )
    .png()
    .toBuffer();

/** An iCalendar feed of music events; each names its image as RFC 7986 allows. */
function ics(items: { uid: string; title: string; start: string; image?: string }[]) {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Townbeat tests//EN'];
  for (const e of items) {
    lines.push('BEGIN:VEVENT', `UID:${e.uid}`, 'DTSTAMP:20261101T000000Z', `DTSTART;TZID=America/Los_Angeles:${e.start}`, `SUMMARY:${e.title}`);
    lines.push('LOCATION:Doug Fir Lounge\\, 830 E Burnside St\\, Buckman', 'CATEGORIES:Music,Concert');
    if (e.image) lines.push(`IMAGE;VALUE=URI;DISPLAY=BADGE;FMTTYPE=image/jpeg:${e.image}`);
    lines.push('END:VEVENT');
  }
  return [...lines, 'END:VCALENDAR', ''].join('\r\n');
}

beforeAll(async () => {
  const png = await poster();
  const routes: Record<string, Route> = {
    '/cal.ics': (_req, res) => res.writeHead(200, { 'content-type': 'text/calendar' }).end(calendar),
    '/img/photo.jpg': (_req, res) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(png),
    '/img/missing.jpg': (_req, res) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end('<!DOCTYPE html><html><body>Page not found</body></html>'),
  };
  server = await startFeedServer(routes);
  t = await buildTestApp();
  admin = (await signupUser(t.app)).cookie;
});
afterAll(async () => {
  await t.close();
  await server.close();
});
beforeEach(async () => {
  t.clock.set(NOW);
  await t.database.db.execute(sql`truncate sources, events, venues, images cascade`);
  server.hits.length = 0;
});

const api = (method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, headers: { origin: TEST_ORIGIN, cookie: admin }, ...(payload ? { payload } : {}) });

async function ingest() {
  const created = await api('POST', '/api/admin/sources', { name: 'Doug Fir', connector: 'ical', url: server.url('/cal.ics'), sourceType: 'ical', trusted: true });
  expect(created.statusCode).toBe(201);
  expect((await api('POST', `/api/admin/sources/${created.json().id}/run`)).json()).toMatchObject({ status: 'success', created: 3 });
}

const imageHits = () => server.hits.filter((h) => h.url.startsWith('/img/')).map((h) => h.url);

describe('event images', () => {
  beforeEach(() => {
    calendar = ics([
      { uid: 'a@fir', title: 'Jazz Night with the Blue Trio', start: '20261125T190000', image: server.url('/img/photo.jpg') },
      { uid: 'b@fir', title: 'Jazz Night with the Blue Trio (late set)', start: '20261125T220000', image: server.url('/img/photo.jpg') },
      { uid: 'c@fir', title: 'Folk Concert: The Fernhill Sisters', start: '20261126T200000', image: server.url('/img/missing.jpg') },
    ]);
  });

  it('fetches nothing by itself in tests: the source address is kept and the list shows no image yet', async () => {
    await ingest();
    await new Promise((r) => setTimeout(r, 50));
    expect(imageHits()).toEqual([]);
    const list = (await api('GET', '/api/events')).json() as { imageUrl: string | null }[];
    expect(list).toHaveLength(3);
    expect(list.every((e) => e.imageUrl === null)).toBe(true);
  });

  it('keeps resized copies of an ingested event image and serves them with srcset and long cache headers', async () => {
    await ingest();
    const summary = await t.app.images.drain();
    expect(summary).toMatchObject({ queued: 2, ready: 1, failed: 1 });
    // One fetch per address, however many events show it.
    expect(imageHits().sort()).toEqual(['/img/missing.jpg', '/img/photo.jpg']);

    const [kept] = await queryRows<{ id: string; width: number; height: number; status: string; is_demo: boolean }>(
      t.database.db,
      sql`select id, width, height, status, is_demo from images where source_url = ${server.url('/img/photo.jpg')}`,
    );
    expect(kept).toMatchObject({ width: 1600, height: 900, status: 'ready', is_demo: false });
    const [refused] = await queryRows<{ status: string; error: string }>(t.database.db, sql`select status, error from images where source_url = ${server.url('/img/missing.jpg')}`);
    expect(refused).toEqual({ status: 'failed', error: 'not a JPEG, PNG, WebP, GIF or AVIF image (an HTML page)' });

    const list = (await api('GET', '/api/events')).json() as { title: string; imageUrl: string | null; imageSrcset: string | null }[];
    const id = kept!.id;
    for (const e of list.filter((x) => x.title.startsWith('Jazz'))) {
      expect(e.imageUrl).toBe(`/api/images/${id}/640.webp`);
      expect(e.imageSrcset).toBe([320, 640, 960, 1280].map((w) => `/api/images/${id}/${w}.webp ${w}w`).join(', '));
    }
    // The event whose image was refused shows the category pattern.
    expect(list.find((x) => x.title.startsWith('Folk'))).toMatchObject({ imageUrl: null, imageSrcset: null });

    const res = await t.app.inject({ method: 'GET', url: `/api/images/${id}/640.webp` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    const meta = await sharp(res.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 640, 360]);

    const again = await t.app.inject({ method: 'GET', url: `/api/images/${id}/640.webp`, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);

    // A second round finds nothing to do and fetches nothing again.
    expect(await t.app.images.drain()).toEqual({ queued: 0, linked: 0, ready: 0, failed: 0 });
    expect(imageHits()).toHaveLength(2);
  });

  it('gives an event that arrives later the image kept before, without fetching it again', async () => {
    await ingest();
    await t.app.images.drain();
    calendar = calendar.replace('END:VCALENDAR', ['BEGIN:VEVENT', 'UID:d@fir', 'DTSTAMP:20261101T000000Z', 'DTSTART;TZID=America/Los_Angeles:20261127T190000', 'SUMMARY:Jazz Brunch with the Blue Trio', 'CATEGORIES:Music,Concert', `IMAGE;VALUE=URI:${server.url('/img/photo.jpg')}`, 'END:VEVENT', 'END:VCALENDAR'].join('\r\n'));
    const [source] = await queryRows<{ id: string }>(t.database.db, sql`select id from sources`);
    t.clock.advance(60_000);
    await api('POST', `/api/admin/sources/${source!.id}/run`);
    expect(await t.app.images.drain()).toMatchObject({ linked: 1, ready: 0 });
    expect(imageHits()).toHaveLength(2);
    const list = (await api('GET', '/api/events')).json() as { title: string; imageUrl: string | null }[];
    expect(list.find((e) => e.title === 'Jazz Brunch with the Blue Trio')?.imageUrl).toMatch(/^\/api\/images\/[\w-]+\/640\.webp$/);
  });

  it("drops the kept copy when the source changes an event's image, and keeps the new one", async () => {
    await ingest();
    await t.app.images.drain();
    const before = (await api('GET', '/api/events')).json() as { title: string; imageUrl: string | null }[];
    const old = before.find((e) => e.title === 'Folk Concert: The Fernhill Sisters');
    expect(old?.imageUrl).toBeNull();
    // The source fixes the folk concert's picture and changes the jazz night's to another.
    calendar = calendar.replace(server.url('/img/missing.jpg'), server.url('/img/photo.jpg?v=2')).replace(`${server.url('/img/photo.jpg')}\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:b@fir`, `${server.url('/img/photo.jpg?v=2')}\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:b@fir`);
    const [source] = await queryRows<{ id: string }>(t.database.db, sql`select id from sources`);
    t.clock.advance(60_000);
    expect((await api('POST', `/api/admin/sources/${source!.id}/run`)).json()).toMatchObject({ status: 'success', updated: 2 });
    const [jazz] = await queryRows<{ image_id: string | null }>(t.database.db, sql`select image_id from events where title = 'Jazz Night with the Blue Trio'`);
    expect(jazz?.image_id).toBeNull();
    expect(await t.app.images.drain()).toMatchObject({ ready: 1 });
    const after = (await api('GET', '/api/events')).json() as { title: string; imageUrl: string | null }[];
    const fresh = after.find((e) => e.title === 'Folk Concert: The Fernhill Sisters')?.imageUrl;
    expect(fresh).toMatch(/^\/api\/images\/[\w-]+\/640\.webp$/);
    expect(after.find((e) => e.title === 'Jazz Night with the Blue Trio')?.imageUrl).toBe(fresh);
    expect(after.find((e) => e.title === 'Jazz Night with the Blue Trio (late set)')?.imageUrl).not.toBe(fresh);
  });

  it('answers 400 naming the field for a bad id or file name, and 404 for an unknown image or width', async () => {
    const badId = await t.app.inject({ method: 'GET', url: '/api/images/not-a-uuid/640.webp' });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().issues.map((i: { path: string }) => i.path)).toEqual(['params.id']);
    const badFile = await t.app.inject({ method: 'GET', url: '/api/images/00000000-0000-4000-8000-000000000000/640.png' });
    expect(badFile.statusCode).toBe(400);
    expect(badFile.json().issues.map((i: { path: string }) => i.path)).toEqual(['params.file']);

    const unknown = await t.app.inject({ method: 'GET', url: '/api/images/00000000-0000-4000-8000-000000000000/640.webp' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: 'not_found', message: 'Image not found' });

    await ingest();
    await t.app.images.drain();
    const [kept] = await queryRows<{ id: string }>(t.database.db, sql`select id from images where status = 'ready'`);
    expect((await t.app.inject({ method: 'GET', url: `/api/images/${kept!.id}/1280.webp` })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/images/${kept!.id}/700.webp` })).statusCode).toBe(404);
  });

  it('is public: anyone may fetch a kept copy', () => {
    const rule = t.app.accessRules.find((r) => r.url === '/api/images/:id/:file' && r.method === 'GET');
    expect(rule?.access).toBe('public');
  });
});
