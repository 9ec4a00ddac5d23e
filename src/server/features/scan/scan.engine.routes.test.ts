import { sql } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../../test/build-test-app.ts';
import { queryRows } from '../../test/factories.ts';
import { newUser } from '../gaming/test-users.ts';
import { createOcrPool, type OcrEngine } from './engine/ocr-pool.ts';
import { renderPoster } from './engine/test-poster.ts';

// The scanner with the real OCR pool: once with tesseract on a rendered photo of a flyer, once
// with a recogniser that never finishes, to fill the queue.
const NOW = new Date('2026-11-18T20:00:00Z');
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});
afterAll(async () => t?.close());

const scan = (app: TestApp, cookie: string, image: Buffer) =>
  app.app.inject({ method: 'POST', url: '/api/scan/flyer', payload: { imageData: image.toString('base64') }, headers: { origin: TEST_ORIGIN, cookie } });

describe('POST /api/scan/flyer with the real OCR pool', () => {
  it('reads a photographed flyer into a pending contribution', async () => {
    t = await buildTestApp({ ocr: createOcrPool({ workers: 1 }) });
    t.clock.set(NOW);
    await newUser(t.app);
    const { cookie, user } = await newUser(t.app);
    const poster = await renderPoster({
      rotate: 3,
      lines: [
        { text: 'WINTER JAZZ NIGHT', size: 72, weight: 'bold' },
        { text: 'Saturday, December 5, 2026', size: 44 },
        { text: '8:00 PM', size: 44 },
        { text: 'at Mississippi Studios', size: 40 },
        { text: 'Tickets $15', size: 40 },
      ],
    });
    const res = await scan(t, cookie, poster);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.extracted.text).toMatch(/JAZZ/);
    expect(body.result).toMatchObject({ pointsEarned: expect.any(Number), event: { isNew: true, startDate: '2026-12-06T04:00:00.000Z' } });
    expect(body.result.event.title).toMatch(/jazz night/i);
    const [e] = await queryRows<{ status: string; contributed_by: string }>(t.database.db, sql`select status, contributed_by from events where id = ${body.result.event.id}`);
    expect(e).toEqual({ status: 'pending', contributed_by: user.id });
  }, 180_000);

  it('answers 503 with Retry-After while every worker is busy and the queue is full', async () => {
    let release: (() => void) | null = null;
    const held: OcrEngine = {
      recognize: () => new Promise((resolve) => (release = () => resolve({ text: '', confidence: 0 }))),
      terminate: async () => {},
    };
    t = await buildTestApp({ ocr: createOcrPool({ workers: 1, maxQueue: 0, createEngine: async () => held }) });
    const { cookie } = await newUser(t.app);
    const image = await renderPoster({ lines: [{ text: 'HELLO', size: 40 }], width: 200, height: 200 });
    // `then` sends it; it holds the only worker until released.
    const first = scan(t, cookie, image).then((r) => r);
    for (let i = 0; i < 200 && !release; i++) await new Promise((r) => setTimeout(r, 50));
    expect(release).not.toBeNull();
    const second = await scan(t, cookie, image);
    expect(second.statusCode).toBe(503);
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
    release!();
    expect((await first).statusCode).toBe(200);
  }, 60_000);
});
