import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MISSING_FIELDS_MESSAGE, type Geosymbol } from '../../../contract/memories.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../../test/build-test-app.ts';
import { buildEvent, queryRows } from '../../test/factories.ts';
import { startFakeLlm } from '../../test/llm-server.ts';
import { newUser } from '../gaming/test-users.ts';
import { events } from '../events/events.table.ts';
import { hunts, questNodes } from '../quests/quests.table.ts';

const NOW = new Date('2026-11-18T20:00:00Z');
let t: TestApp;

const call = (app: TestApp['app'], method: 'GET' | 'POST', url: string, cookie?: string, payload?: unknown) =>
  app.inject({ method, url, headers: { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) }, ...(payload !== undefined ? { payload: payload as object } : {}) });
const memory = 'We flew a red kite by the river in Sellwood and laughed all afternoon. I loved that day.';
const forge = async (cookie: string, body: Record<string, unknown> = {}, app = t.app) => {
  const res = await call(app, 'POST', '/api/geosymbol/inject', cookie, { location: 'Sellwood riverfront', emotionalMemory: memory, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ geoSymbol: Geosymbol }>().geoSymbol;
};

beforeAll(async () => {
  t = await buildTestApp();
  await newUser(t.app); // the first account is the admin
});
afterAll(async () => t.close());
beforeEach(async () => {
  t.clock.set(NOW);
  await t.database.db.execute(sql`truncate geosymbols, geosymbol_votes, hunts, hunt_nodes, quest_nodes, events cascade`);
});

describe('POST /api/geosymbol/inject', () => {
  it('answers 401 signed out', async () => {
    expect((await call(t.app, 'POST', '/api/geosymbol/inject', undefined, { location: 'x', emotionalMemory: 'y' })).statusCode).toBe(401);
  });

  it("refuses a missing location or memory with the spec's message, and a memory over 1000 characters", async () => {
    const { cookie } = await newUser(t.app);
    for (const body of [{ emotionalMemory: 'x' }, { location: 'Sellwood' }, { location: '  ', emotionalMemory: 'x' }, {}]) {
      const res = await call(t.app, 'POST', '/api/geosymbol/inject', cookie, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(MISSING_FIELDS_MESSAGE);
    }
    const long = await call(t.app, 'POST', '/api/geosymbol/inject', cookie, { location: 'Sellwood', emotionalMemory: 'x'.repeat(1001) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toContain('emotionalMemory');
    const badType = await call(t.app, 'POST', '/api/geosymbol/inject', cookie, { location: 'Sellwood', emotionalMemory: 'x', outputType: 'Hologram' });
    expect(badType.statusCode).toBe(400);
    expect(badType.json().message).toContain('outputType');
  });

  it('forges a geosymbol with every spec field in range, geocoded to the neighbourhood, defaults Memory Rune and community', async () => {
    const { cookie } = await newUser(t.app, { firstName: 'Rosa', lastName: 'Park' });
    await buildEvent(t.database.db, { title: 'Riverfront jazz', neighbourhood: 'Sellwood', startDate: new Date(NOW.getTime() + 86_400_000) });
    const g = await forge(cookie, { symbolicElements: 'red kite' });
    expect(g).toMatchObject({ type: 'Memory Rune', privacy_level: 'community', location: 'Sellwood riverfront', placeName: 'Sellwood', author: 'Rosa P.', mine: true, voted: false, nodeId: null });
    expect(g.symbol).toBe('Rune of the Red Kite');
    expect(g.emotional_resonance).toBeGreaterThan(0);
    expect(g.emotional_resonance).toBeLessThanOrEqual(10);
    expect(['easy', 'medium', 'hard', 'expert']).toContain(g.difficulty);
    expect(g.reward.points).toBeGreaterThanOrEqual(10);
    expect(g.story_trigger).toContain('Sellwood');
    expect(g.AR_overlay.length).toBeGreaterThan(10);
    expect(g.lat).toBeCloseTo(45.46, 1);
    expect(g.metadata).toMatchObject({ communityVotes: 0, sentiment: 'positive', generator: 'built-in' });
    expect(g.linked_codex).toContainEqual(expect.objectContaining({ kind: 'neighbourhood', name: 'Sellwood' }));
    expect(g.linked_codex).toContainEqual(expect.objectContaining({ kind: 'event', name: 'Riverfront jazz' }));
  });

  it('geocodes to a known venue of events, and leaves an unknown place without a position', async () => {
    const { cookie } = await newUser(t.app);
    await buildEvent(t.database.db, { venueName: 'Laurelhurst Theater', neighbourhood: 'Kerns', lat: 45.5225, lng: -122.6254 });
    expect(await forge(cookie, { location: 'the Laurelhurst Theater lobby' })).toMatchObject({ placeName: 'Laurelhurst Theater', lat: 45.5225 });
    expect(await forge(cookie, { location: 'my aunt’s kitchen' })).toMatchObject({ placeName: null, lat: null, lng: null });
  });

  it('places a memory at a place of the Quest Map, by its name or the place it shows as its address', async () => {
    const { cookie } = await newUser(t.app);
    await t.database.db.insert(questNodes).values([
      { name: 'Laurelhurst Duck Pond', category: 'nature', points: 50, address: 'Laurelhurst Park', latitude: 45.5204, longitude: -122.6259 },
      { name: 'Courthouse Square Chimes', category: 'history', points: 50, address: 'Pioneer Square', latitude: 45.5189, longitude: -122.6793 },
      { name: 'Old Gate', category: 'history', points: 50, address: '701 SW 6th Ave', latitude: 45.51, longitude: -122.67, active: false },
    ]);
    const pond = await forge(cookie, { location: 'Laurelhurst Duck Pond' });
    expect(pond).toMatchObject({ placeName: 'Laurelhurst Duck Pond', lat: 45.5204, lng: -122.6259 });
    expect(pond.linked_codex).toContainEqual({ kind: 'venue', name: 'Laurelhurst Duck Pond', detail: expect.stringMatching(/^A place on the Quest Map, in \w+/) });
    expect(await forge(cookie, { location: 'the steps of Pioneer Square' })).toMatchObject({ placeName: 'Pioneer Square', lat: 45.5189 });
    // A node no longer on the map is not a place to put one.
    expect(await forge(cookie, { location: 'Old Gate' })).toMatchObject({ placeName: null, lat: null });
  });

  it('finds a venue among thousands, whatever its name sorts after', async () => {
    const { cookie } = await newUser(t.app);
    // A city's year of events: 2,400 venues, and the one meant sorts last.
    const show = (i: number) => ({ title: `Show ${i}`, category: 'Music', sourceType: 'ical', timeZone: 'America/Los_Angeles', status: 'approved' as const, startDate: NOW, endDate: NOW, venueName: `Hall ${String(i).padStart(4, '0')}`, lat: 45.45 + (i % 50) * 0.002, lng: -122.75 + Math.floor(i / 50) * 0.004 });
    for (let i = 0; i < 2400; i += 400) await t.database.db.insert(events).values(Array.from({ length: 400 }, (_, j) => show(i + j)));
    await buildEvent(t.database.db, { venueName: 'Zidell Yards Pavilion', neighbourhood: 'South Waterfront', lat: 45.5003, lng: -122.6703 });
    expect(await forge(cookie, { location: 'by the Zidell Yards Pavilion' })).toMatchObject({ placeName: 'Zidell Yards Pavilion', lat: 45.5003 });
    // With a typo too.
    expect(await forge(cookie, { location: 'Zidell Yrads Pavilion' })).toMatchObject({ placeName: 'Zidell Yards Pavilion' });
    expect(await forge(cookie, { location: 'Hall 2399' })).toMatchObject({ placeName: 'Hall 2399' });
  });

  it('lets a configured language model write the texts, and falls back to the built-in engine when it fails', async () => {
    const llm = await startFakeLlm(() => ({ content: JSON.stringify({ symbol: 'Kite of Sellwood', story_trigger: 'Fly a kite by the river to unlock it.', AR_overlay: 'A red kite circles above the river.' }) }));
    const withLlm = await buildTestApp({ database: t.database, env: { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'test-model' } });
    try {
      const { cookie } = await newUser(withLlm.app);
      const g = await forge(cookie, {}, withLlm.app);
      expect(g).toMatchObject({ symbol: 'Kite of Sellwood', AR_overlay: 'A red kite circles above the river.', metadata: { generator: 'test-model' } });
      expect(llm.requests.at(-1)!.body.messages!.at(-1)!.content).toContain('Sellwood');
      llm.set(() => ({ status: 500, body: 'down' }));
      const fallback = await forge(cookie, {}, withLlm.app);
      expect(fallback.metadata.generator).toBe('built-in');
    } finally {
      await withLlm.app.close();
      await llm.close();
    }
  });
});

describe('privacy across three users', () => {
  it('shows private only to its author, community to signed-in users, public to anyone, on list, get and vote', async () => {
    const ann = await newUser(t.app);
    const bob = await newUser(t.app);
    const cy = await newUser(t.app);
    const priv = await forge(ann.cookie, { privacyLevel: 'private' });
    t.clock.advance(1000);
    const comm = await forge(ann.cookie, { privacyLevel: 'community' });
    t.clock.advance(1000);
    const pub = await forge(ann.cookie, { privacyLevel: 'public' });
    const list = async (cookie?: string, q = '?privacyLevel=community&limit=6') =>
      (await call(t.app, 'GET', `/api/geosymbol/processed${q}`, cookie)).json<{ symbols: Geosymbol[] }>().symbols.map((s) => s.id);
    expect(await list(ann.cookie)).toEqual([pub.id, comm.id]);
    expect(await list(bob.cookie)).toEqual([pub.id, comm.id]);
    expect(await list()).toEqual([pub.id]);
    expect(await list(ann.cookie, '?privacyLevel=private')).toEqual([priv.id]);
    expect(await list(bob.cookie, '?privacyLevel=private')).toEqual([]);
    expect(await list(undefined, '?privacyLevel=private')).toEqual([]);
    expect(await list(bob.cookie, '?privacyLevel=public')).toEqual([pub.id]);
    expect(await list(bob.cookie, '?limit=1')).toEqual([pub.id]);

    const get = (id: string, cookie?: string) => call(t.app, 'GET', `/api/geosymbol/${id}`, cookie);
    expect((await get(priv.id, ann.cookie)).statusCode).toBe(200);
    expect((await get(priv.id, bob.cookie)).statusCode).toBe(404);
    expect((await get(priv.id)).statusCode).toBe(404);
    expect((await get(comm.id, cy.cookie)).statusCode).toBe(200);
    expect((await get(comm.id)).statusCode).toBe(404);
    expect((await get(pub.id)).statusCode).toBe(200);
    expect((await get(pub.id)).json().mine).toBe(false);

    const vote = (id: string, cookie?: string) => call(t.app, 'POST', `/api/geosymbol/${id}/vote`, cookie);
    expect((await vote(comm.id)).statusCode).toBe(401);
    expect((await vote(priv.id, bob.cookie)).statusCode).toBe(404);
    expect((await vote(priv.id, ann.cookie)).statusCode).toBe(400);
    expect((await vote(comm.id, bob.cookie)).json()).toEqual({ voted: true, communityVotes: 1 });
    expect((await vote(comm.id, cy.cookie)).json()).toEqual({ voted: true, communityVotes: 2 });
    expect((await vote(comm.id, bob.cookie)).json()).toEqual({ voted: false, communityVotes: 1 });
    const seenByCy = (await get(comm.id, cy.cookie)).json<Geosymbol>();
    expect(seenByCy).toMatchObject({ voted: true, metadata: { communityVotes: 1 } });
  });
});

describe('POST /api/geosymbol/:id/add-to-hunt', () => {
  const add = (id: string, cookie?: string) => call(t.app, 'POST', `/api/geosymbol/${id}/add-to-hunt`, cookie);

  it('adds the author’s geocoded community memory as the last node of the first active hunt, once', async () => {
    const ann = await newUser(t.app);
    const bob = await newUser(t.app);
    const g = await forge(ann.cookie);
    expect((await add(g.id, ann.cookie)).statusCode).toBe(404); // no hunt is active
    await t.database.db.insert(hunts).values({ name: 'Old hunt', active: false, createdAt: new Date('2026-01-01') });
    const [hunt] = await t.database.db.insert(hunts).values({ name: 'River hunt', active: true }).returning();
    expect((await add(g.id)).statusCode).toBe(401);
    expect((await add(g.id, bob.cookie)).statusCode).toBe(403);
    const res = await add(g.id, ann.cookie);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ hunt: { id: hunt!.id, name: 'River hunt' }, node: { name: g.symbol, points: g.reward.points, position: 0 } });
    expect(body.geoSymbol.nodeId).toBe(body.node.id);
    const [node] = await queryRows<{ geosymbol_id: string; created_by: string; clue: string; latitude: number }>(t.database.db, sql`select * from quest_nodes where id = ${body.node.id}`);
    expect(node).toMatchObject({ geosymbol_id: g.id, created_by: ann.user.id, clue: g.story_trigger, latitude: g.lat });
    expect((await add(g.id, ann.cookie)).statusCode).toBe(409);
    const second = await forge(ann.cookie, { privacyLevel: 'public' });
    expect((await add(second.id, ann.cookie)).json().node.position).toBe(1);
  });

  it('refuses private and ungeocoded memories with 400, and unknown ones with 404', async () => {
    const ann = await newUser(t.app);
    await t.database.db.insert(hunts).values({ name: 'River hunt', active: true });
    const priv = await forge(ann.cookie, { privacyLevel: 'private' });
    const nowhere = await forge(ann.cookie, { location: 'my aunt’s kitchen' });
    expect((await add(priv.id, ann.cookie)).statusCode).toBe(400);
    const r = await add(nowhere.id, ann.cookie);
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toContain('no known place');
    expect((await add('00000000-0000-4000-8000-000000000000', ann.cookie)).statusCode).toBe(404);
  });
});
