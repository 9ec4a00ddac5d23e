import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { openDatabase, type Database } from '../db/client.ts';
import { buildTestApp, signupUser, TEST_ORIGIN, type TestApp } from '../test/build-test-app.ts';
import { buildEvent } from '../test/factories.ts';
import { openTestDatabase } from '../test/test-db.ts';
import { packEnvelopes, unpackPayload, type Envelope } from './realtime.ts';

function nextMessage(ws: WebSocket, type: string, timeoutMs = 3000): Promise<{ type: string; data: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} message within ${timeoutMs} ms`)), timeoutMs);
    ws.on('message', (raw) => {
      const msg = JSON.parse(String(raw)) as { type: string; data: Record<string, unknown> };
      if (msg.type === type) {
        clearTimeout(timer);
        resolve(msg);
      }
    });
  });
}

describe('fan-out payloads', () => {
  const env = (i: number): Envelope => ({ to: '*', msg: { type: 'event_update', data: { id: `e${i}`, action: 'created' } } });

  it('packs envelopes in order into arrays under the NOTIFY size limit, and unpacks them', () => {
    const all = Array.from({ length: 500 }, (_, i) => env(i));
    const payloads = packEnvelopes(all);
    expect(payloads.length).toBeGreaterThan(1);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(7900);
    expect(payloads.flatMap(unpackPayload)).toEqual(all);
  });

  it('leaves out a message too large for a payload, keeping the others', () => {
    const big: Envelope = { to: 'u1', msg: { type: 'notification', data: { message: 'x'.repeat(9000) } } };
    const left: Envelope[] = [];
    const payloads = packEnvelopes([env(1), big, env(2)], 7900, (e) => left.push(e));
    expect(payloads.flatMap(unpackPayload)).toEqual([env(1), env(2)]);
    expect(left).toEqual([big]);
  });

  it('reads a single envelope (an older instance) as one message', () => {
    expect(unpackPayload(JSON.stringify(env(1)))).toEqual([env(1)]);
    expect(packEnvelopes([])).toEqual([]);
  });
});

describe('/ws on one instance', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it('refuses signed-out and cross-site upgrades, and answers pings', async () => {
    await expect(t.app.injectWS('/ws', { headers: { host: 'localhost:80' } })).rejects.toThrow(/401/);
    const { cookie } = await signupUser(t.app);
    await expect(t.app.injectWS('/ws', { headers: { cookie, origin: 'https://evil.example', host: 'localhost:80' } })).rejects.toThrow(/403/);
    const ws = await t.app.injectWS('/ws', { headers: { cookie, origin: TEST_ORIGIN, host: 'localhost:80' } });
    const pong = nextMessage(ws, 'pong');
    ws.send(JSON.stringify({ type: 'ping', timestamp: Date.now() }));
    expect((await pong).data.timestamp).toEqual(expect.any(Number));
    ws.terminate();
  });

  it('sends the user their new points after a favourite, and event updates to everyone', async () => {
    const { cookie } = await signupUser(t.app);
    const ws = await t.app.injectWS('/ws', { headers: { cookie, origin: TEST_ORIGIN, host: 'localhost:80' } });
    const e = await buildEvent(t.database.db);
    const update = nextMessage(ws, 'gaming_update');
    await t.app.inject({ method: 'POST', url: `/api/user/favorites/${e.id}`, headers: { cookie, origin: TEST_ORIGIN } });
    expect((await update).data).toEqual({ points: 5 });
    const eventUpdate = nextMessage(ws, 'event_update');
    t.app.bus.publish('event_update', { id: e.id, action: 'updated' });
    expect((await eventUpdate).data).toEqual({ id: e.id, action: 'updated' });
    ws.terminate();
  });

  it('delivers a burst of 3,000 event updates published in one tick, all of them, in order', async () => {
    const { cookie } = await signupUser(t.app);
    const ws = await t.app.injectWS('/ws', { headers: { cookie, origin: TEST_ORIGIN, host: 'localhost:80' } });
    const ids: string[] = [];
    const all = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${ids.length} of 3000 within 10 s`)), 10_000);
      ws.on('message', (raw) => {
        const msg = JSON.parse(String(raw)) as { type: string; data: { id: string } };
        if (msg.type !== 'event_update' || !msg.data.id.startsWith('burst-')) return;
        ids.push(msg.data.id);
        if (ids.length === 3000) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    for (let i = 0; i < 3000; i++) t.app.bus.publish('event_update', { id: `burst-${i}`, action: 'created' });
    await all;
    expect(ids).toEqual(Array.from({ length: 3000 }, (_, i) => `burst-${i}`));
    ws.terminate();
  });

  it('closes a socket that sends an oversized message (1009)', async () => {
    const { cookie } = await signupUser(t.app);
    const ws = await t.app.injectWS('/ws', { headers: { cookie, origin: TEST_ORIGIN, host: 'localhost:80' } });
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    ws.send('x'.repeat(10_000));
    expect(await closed).toBe(1009);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('/ws across two instances on PostgreSQL (needs TEST_DATABASE_URL)', () => {
  const apps: TestApp[] = [];
  const dbs: Database[] = [];
  afterAll(async () => {
    for (const a of apps) await a.app.close();
    for (const d of dbs.reverse()) await d.close();
  });

  it('delivers a favourite on instance A to the user socket on instance B within a second', async () => {
    const shared = await openTestDatabase();
    const other = await openDatabase({ url: shared.url!, poolSize: 3 });
    dbs.push(shared, other);
    const a = await buildTestApp({ database: shared });
    const b = await buildTestApp({ database: other });
    apps.push(a, b);
    const { cookie } = await signupUser(a.app);
    const ws = await b.app.injectWS('/ws', { headers: { cookie, origin: TEST_ORIGIN, host: 'localhost:80' } });
    const e = await buildEvent(shared.db);
    const started = Date.now();
    const update = nextMessage(ws, 'gaming_update', 1000);
    await a.app.inject({ method: 'POST', url: `/api/user/favorites/${e.id}`, headers: { cookie, origin: TEST_ORIGIN } });
    expect((await update).data).toEqual({ points: 5 });
    expect(Date.now() - started).toBeLessThan(1000);
    ws.terminate();
  });
});
