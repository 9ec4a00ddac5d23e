import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { queryRows } from '../../test/factories.ts';
import { CONNECTORS } from '../ingestion/connectors/index.ts';
import { createDemoFetch, DEFAULT_DEMO_IMAGE_DIR, DEMO_IMAGE_URL_PREFIX, DEMO_SOURCES, isDemoImageUrl } from '../ingestion/demo/demo-fetch.ts';
import { seedDemoIfEmpty } from '../ingestion/demo/seed-demo.ts';
import { SourceError, type CandidateEvent, type SafeFetch } from '../ingestion/ingestion.types.ts';
import { closeSharedSandbox } from '../ingestion/parse/sandbox.ts';
import { resizeImage, sniffImageType } from './image-files.ts';

// The demo city's pictures: drawn by scripts/make-demo-images.ts, named by the demo feeds in each
// format's own way, read through the demo reader, never from the network.

const files = readdirSync(DEFAULT_DEMO_IMAGE_DIR).filter((f) => !f.startsWith('.')).sort();
/** Anything that is not a demo address fails, as the network would in these tests. */
const offline: SafeFetch = async (url) => {
  throw new SourceError(`the demo does not fetch ${url}`);
};
const demoFetch = createDemoFetch({ now: () => new Date(), timeZone: 'America/Los_Angeles', next: offline });

afterAll(() => closeSharedSandbox());

describe('demo images', () => {
  it('are a small set of JPEG, PNG and WebP pictures, well under 2 MB in all', () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
    for (const f of files) expect(f).toMatch(/^[a-z0-9-]+\.(jpg|png|webp)$/);
    const total = files.reduce((sum, f) => sum + statSync(join(DEFAULT_DEMO_IMAGE_DIR, f)).size, 0);
    expect(total).toBeLessThan(1.2 * 1024 * 1024);
  });

  it('each is a 1280 x 720 JPEG, PNG or WebP by its bytes, and the image cache keeps them', async () => {
    for (const f of files) {
      const bytes = readFileSync(join(DEFAULT_DEMO_IMAGE_DIR, f));
      const meta = await sharp(bytes).metadata();
      const ext = f.slice(f.lastIndexOf('.') + 1);
      expect([f, sniffImageType(bytes), meta.width, meta.height]).toEqual([f, ext === 'jpg' ? 'jpeg' : ext, 1280, 720]);
    }
    // One of each format through the whole pipeline (the seed test below runs them all).
    for (const f of ['jazz-night.jpg', 'printmaking.png', 'strings-recital.webp']) {
      const out = await resizeImage(readFileSync(join(DEFAULT_DEMO_IMAGE_DIR, f)));
      expect(out.variants.map((v) => v.width)).toEqual([320, 640, 960, 1280]);
    }
  });

  it('are served by the demo reader at their demo address, and nothing else is', async () => {
    const res = await demoFetch(`${DEMO_IMAGE_URL_PREFIX}jazz-night.jpg`);
    expect(res.status).toBe(200);
    expect(res.body.equals(readFileSync(join(DEFAULT_DEMO_IMAGE_DIR, 'jazz-night.jpg')))).toBe(true);
    expect(res.headers['content-type']).toBe('image/jpeg');
    for (const name of ['missing.jpg', '..%2Ffeeds%2Fpdx-music-venues.ics', '../feeds/pdx-music-venues.ics', 'sub/jazz-night.jpg', 'jazz-night.svg']) {
      expect((await demoFetch(`${DEMO_IMAGE_URL_PREFIX}${name}`)).status, name).toBe(404);
    }
    await expect(demoFetch('https://demo.townbeat.local/music/tuesday-jazz-jam')).rejects.toThrow('the demo does not fetch');
    expect(isDemoImageUrl(`${DEMO_IMAGE_URL_PREFIX}jazz-night.jpg`)).toBe(true);
    expect(isDemoImageUrl('https://images.example/jazz-night.jpg')).toBe(false);
  });

  it('are named by most events of the demo feeds, each name a picture that exists', async () => {
    const ctx = { fetch: demoFetch, now: new Date(), timeZone: 'America/Los_Angeles', horizonDays: 180, listAheadDays: 730, maxOccurrences: 500 };
    const bySource = new Map<string, CandidateEvent[]>();
    for (const s of DEMO_SOURCES) {
      const { candidates } = await CONNECTORS[s.connector].run({ id: s.name, name: s.name, connector: s.connector, url: s.url, sourceType: s.sourceType, config: s.config }, ctx);
      bySource.set(s.connector === 'csv' ? 'csv' : s.url, candidates);
    }
    const all = [...bySource.values()].flat();
    const withImage = all.filter((c) => c.imageUrl);
    expect(withImage.length / all.length).toBeGreaterThan(0.6);
    // The parks CSV's column mapping has no image column: its events keep the category pattern.
    expect(bySource.get('csv')!.every((c) => !c.imageUrl)).toBe(true);
    const named = new Set(withImage.map((c) => c.imageUrl!));
    for (const url of named) {
      expect(isDemoImageUrl(url), url).toBe(true);
      expect(files, url).toContain(url.slice(DEMO_IMAGE_URL_PREFIX.length));
    }
    // The food page's two relative paths resolve against its <base href>.
    const food = bySource.get('demo://feeds/pdx-food-and-markets.html')!;
    expect(food.find((c) => c.title === 'Hands-On Pasta Making Class')?.imageUrl).toBe(`${DEMO_IMAGE_URL_PREFIX}pasta-class.jpg`);
    expect(food.find((c) => c.title === 'Small-Batch Beer Festival at Foundry Hall')?.imageUrl).toBe(`${DEMO_IMAGE_URL_PREFIX}beer-festival.jpg`);
    // Every picture is used by some event.
    expect([...named].map((u) => u.slice(DEMO_IMAGE_URL_PREFIX.length)).sort()).toEqual(files);
  }, 120_000);
});

describe('the demo seed with its images', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ fetch: demoFetch });
    t.clock.set(new Date());
  });
  afterAll(async () => t.close());

  it('shows pictures on most listed events once the image cache has run, marked as demo', async () => {
    await seedDemoIfEmpty({ sources: t.app.ingest.sources, ingestion: t.app.ingest.service });
    const summary = await t.app.images.drain();
    // Every picture an upcoming event names (those of events earlier this week are not fetched).
    expect(summary.failed).toBe(0);
    expect(summary.ready).toBeGreaterThan(files.length - 5);
    const images = await queryRows<{ status: string; is_demo: boolean }>(t.database.db, sql`select status, is_demo from images`);
    expect(images.every((i) => i.status === 'ready' && i.is_demo)).toBe(true);
    const list = (await t.app.inject({ method: 'GET', url: '/api/events?limit=100' })).json() as { imageUrl: string | null; imageSrcset: string | null; isDemo: boolean }[];
    expect(list.length).toBeGreaterThan(40);
    const shown = list.filter((e) => e.imageUrl);
    expect(shown.length / list.length).toBeGreaterThan(0.6);
    expect(list.some((e) => e.imageUrl === null)).toBe(true);
    for (const e of shown) expect(e.imageSrcset).toMatch(/ 1280w$/);
  }, 120_000);
});
