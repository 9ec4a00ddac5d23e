import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../clock.ts';
import type { Database } from '../../db/client.ts';
import { buildEvent, queryRows } from '../../test/factories.ts';
import { startFeedServer, type Route } from '../../test/feed-server.ts';
import { openTestDatabase } from '../../test/test-db.ts';
import { createSafeFetch } from '../ingestion/fetch/safe-fetch.ts';
import type { SafeFetch } from '../ingestion/ingestion.types.ts';
import { createImagesService, MAX_ATTEMPTS } from './images.service.ts';

let database: Database;
let server: Awaited<ReturnType<typeof startFeedServer>>;
let jpeg: Buffer;
let status503 = 0;
const clock = createManualClock(new Date());
const allowLocal = createSafeFetch({ allowPrivate: true });

beforeAll(async () => {
  jpeg = await sharp({ create: { width: 800, height: 450, channels: 3, background: '#ea580c' } })
    .jpeg()
    .toBuffer();
  const routes: Record<string, Route> = {
    '/ok.jpg': (_req, res) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg),
    '/busy.jpg': (_req, res) => {
      status503 += 1;
      res.writeHead(503, { 'retry-after': '60' }).end('busy');
    },
    '/gone.jpg': (_req, res) => res.writeHead(404).end('not found'),
    '/huge.jpg': (_req, res) => {
      // A 12 MB "JPEG": the guarded fetch stops reading at 10 MB.
      const body = Buffer.alloc(12 * 1024 * 1024);
      body.set([0xff, 0xd8, 0xff]);
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end(body);
    },
    '/logo.svg.jpg': (_req, res) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end('<svg xmlns="http://www.w3.org/2000/svg" width="800" height="450"/>'),
  };
  for (let i = 0; i < 10; i++) routes[`/many-${i}.jpg`] = routes['/ok.jpg']!;
  server = await startFeedServer(routes);
  database = await openTestDatabase();
});
afterAll(async () => {
  await server.close();
  await database.close();
});
beforeEach(async () => {
  clock.set(new Date());
  status503 = 0;
  server.hits.length = 0;
  await database.db.execute(sql`truncate events, images cascade`);
});

const service = (fetch: SafeFetch = allowLocal) => createImagesService({ db: database.db, clock, fetch, isDemoUrl: (u) => u.includes('/demo/') });
const imageRow = async (url: string) =>
  (await queryRows<{ status: string; error: string | null; attempts: number; is_demo: boolean }>(database.db, sql`select status, error, attempts, is_demo from images where source_url = ${url}`))[0];

describe('the image cache', () => {
  it('keeps one image per address, however many events show it, and links them all', async () => {
    const url = server.url('/ok.jpg');
    const events = await Promise.all([1, 2, 3].map(() => buildEvent(database.db, { imageUrl: url })));
    expect(await service().cacheBatch()).toEqual({ queued: 1, linked: 0, ready: 1, failed: 0 });
    expect(server.hits.map((h) => h.url)).toEqual(['/ok.jpg']);
    expect(server.hits[0]!.headers.accept).toMatch(/^image\/avif,image\/webp/);
    const linked = await queryRows<{ image_id: string | null }>(database.db, sql`select image_id from events where id = any(${sql.param(events.map((e) => e.id))}::uuid[])`);
    expect(new Set(linked.map((r) => r.image_id)).size).toBe(1);
    expect(linked[0]!.image_id).toBeTruthy();
    const variants = await queryRows<{ width: number }>(database.db, sql`select width from image_variants order by width`);
    expect(variants.map((v) => v.width)).toEqual([320, 640, 800]);
  });

  it('skips events that are over, rejected or gone', async () => {
    await buildEvent(database.db, { imageUrl: server.url('/ok.jpg'), startDate: new Date(Date.now() - 5 * 3600_000) });
    await buildEvent(database.db, { imageUrl: server.url('/ok.jpg'), status: 'rejected' });
    await buildEvent(database.db, { imageUrl: server.url('/ok.jpg'), goneAt: new Date() });
    expect(await service().cacheBatch()).toEqual({ queued: 0, linked: 0, ready: 0, failed: 0 });
    expect(server.hits).toEqual([]);
  });

  it('retries a busy server with back-off, at most three times in all', async () => {
    const url = server.url('/busy.jpg');
    await buildEvent(database.db, { imageUrl: url });
    const images = service();
    expect(await images.cacheBatch()).toMatchObject({ ready: 0, failed: 1 });
    expect(await imageRow(url)).toMatchObject({ status: 'failed', error: 'HTTP 503', attempts: 1 });
    // Not again before the back-off (15 minutes) has passed.
    clock.advance(10 * 60_000);
    expect(await images.cacheBatch()).toMatchObject({ failed: 0 });
    expect(status503).toBe(1);
    clock.advance(6 * 60_000);
    expect(await images.cacheBatch()).toMatchObject({ failed: 1 });
    expect(status503).toBe(2);
    // The second back-off is four times longer.
    clock.advance(30 * 60_000);
    await images.cacheBatch();
    expect(status503).toBe(2);
    clock.advance(31 * 60_000);
    await images.cacheBatch();
    expect(status503).toBe(3);
    expect(await imageRow(url)).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
    clock.advance(24 * 3600_000);
    await images.cacheBatch();
    expect(status503).toBe(3);
  });

  it('does not try again what will not change: a 404, an SVG, a body over 10 MB', async () => {
    for (const path of ['/gone.jpg', '/logo.svg.jpg', '/huge.jpg']) await buildEvent(database.db, { imageUrl: server.url(path) });
    expect(await service().cacheBatch()).toMatchObject({ queued: 3, ready: 0, failed: 3 });
    expect(await imageRow(server.url('/gone.jpg'))).toMatchObject({ status: 'failed', error: 'HTTP 404', attempts: MAX_ATTEMPTS });
    expect(await imageRow(server.url('/logo.svg.jpg'))).toMatchObject({ error: 'not a JPEG, PNG, WebP, GIF or AVIF image (an SVG document)', attempts: MAX_ATTEMPTS });
    expect(await imageRow(server.url('/huge.jpg'))).toMatchObject({ error: 'response larger than 10 MB', attempts: MAX_ATTEMPTS });
  });

  it('refuses private addresses unless they are allowed, without connecting', async () => {
    const url = server.url('/ok.jpg');
    await buildEvent(database.db, { imageUrl: url });
    expect(await service(createSafeFetch({ allowPrivate: false })).cacheBatch()).toMatchObject({ ready: 0, failed: 1 });
    expect(server.hits).toEqual([]);
    expect((await imageRow(url))!.error).toMatch(/^refused to fetch 127\.0\.0\.1:\d+: 127\.0\.0\.1 is not a public address \(loopback\)$/);
    expect((await imageRow(url))!.attempts).toBe(MAX_ATTEMPTS);
  });

  it('takes a few images per round, a bounded number at a time', async () => {
    for (let i = 0; i < 10; i++) await buildEvent(database.db, { imageUrl: server.url(`/many-${i}.jpg`) });
    let active = 0;
    let most = 0;
    const counting: SafeFetch = async (url, init) => {
      most = Math.max(most, ++active);
      try {
        return await allowLocal(url, init);
      } finally {
        active -= 1;
      }
    };
    expect(await service(counting).cacheBatch({ batch: 4, concurrency: 2 })).toMatchObject({ queued: 10, ready: 4 });
    expect(most).toBe(2);
    const [pending] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from images where status = 'pending' and attempts = 0`);
    expect(pending!.n).toBe(6);
  });

  it('marks images from demo sources (and the demo addresses) as demo content', async () => {
    await buildEvent(database.db, { imageUrl: server.url('/ok.jpg'), isDemo: true });
    await buildEvent(database.db, { imageUrl: server.url('/demo/x.jpg') });
    await buildEvent(database.db, { imageUrl: server.url('/many-1.jpg') });
    await service().cacheBatch({ batch: 0 });
    expect((await imageRow(server.url('/ok.jpg')))!.is_demo).toBe(true);
    expect((await imageRow(server.url('/demo/x.jpg')))!.is_demo).toBe(true);
    expect((await imageRow(server.url('/many-1.jpg')))!.is_demo).toBe(false);
  });

  it('never throws: an unreachable fetch is recorded as a failure', async () => {
    await buildEvent(database.db, { imageUrl: 'https://images.example/poster.jpg' });
    const broken: SafeFetch = async () => {
      throw new Error('socket hang up');
    };
    expect(await service(broken).cacheBatch()).toMatchObject({ failed: 1 });
    expect(await imageRow('https://images.example/poster.jpg')).toMatchObject({ status: 'failed', error: 'socket hang up', attempts: 1 });
  });
});
