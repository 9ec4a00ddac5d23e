import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EvidenceResponse, Hunt, HuntProgress, MapResponse, QuestNode } from '../../../contract/quests.ts';
import { buildTestApp, TEST_ORIGIN, TEST_QR_KEY, type TestApp } from '../../test/build-test-app.ts';
import { queryRows } from '../../test/factories.ts';
import { newUser } from '../gaming/test-users.ts';
import { signQrPayload } from '../qr/qr.codec.ts';
import { DEMO_HUNT_NAMES, DEMO_NODES, insertDemoQuests } from './quests.demo.ts';
import { EVIDENCE_SHOWN } from './quests.repository.ts';
import { nodeCompletions, questNodes } from './quests.table.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof newUser>>;
let player: Awaited<ReturnType<typeof newUser>>;
const NOW = new Date('2026-11-20T20:00:00Z');
const QR_KEY = TEST_QR_KEY;
let photo: string;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await newUser(t.app); // the first account is the admin
  player = await newUser(t.app);
  photo = (await sharp({ create: { width: 32, height: 32, channels: 3, background: '#336699' } }).jpeg().toBuffer()).toString('base64');
});
afterAll(async () => t.close());
beforeEach(async () => {
  t.clock.set(NOW);
  await t.database.db.execute(sql`truncate quest_nodes, hunts, point_awards, user_badges, notifications cascade`);
  await t.database.db.execute(sql`update users set points = 0`);
});

const headers = (cookie?: string) => ({ origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) });
const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: headers(cookie) });
const post = (url: string, payload: unknown, cookie?: string) => t.app.inject({ method: 'POST', url, payload: payload as object, headers: headers(cookie) });
const patch = (url: string, payload: unknown, cookie?: string) => t.app.inject({ method: 'PATCH', url, payload: payload as object, headers: headers(cookie) });

// Pioneer Square and the pond in Kerns are about 3 km apart.
const PLAZA = { latitude: 45.5189, longitude: -122.6794 };
const POND = { latitude: 45.5264, longitude: -122.6434 };
const ST_JOHNS = { latitude: 45.5882, longitude: -122.7572 };
/** A point about `m` metres north of a place. */
const north = (p: { latitude: number; longitude: number }, m: number) => ({ latitude: p.latitude + m / 111_195, longitude: p.longitude });

async function node(fields: Partial<QuestNode> & { latitude: number; longitude: number; radiusM?: number; requiresPhoto?: boolean }) {
  const res = await post('/api/map/nodes', { name: 'Node', category: 'Landmark', points: 30, ...fields }, admin.cookie);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as QuestNode;
}
const evidence = (id: string, body: object, cookie = player.cookie) => post(`/api/hunt/nodes/${id}/evidence`, body, cookie);
const progress = async (cookie = player.cookie) => (await get('/api/hunt/progress', cookie)).json() as HuntProgress;

describe('admin API', () => {
  const routes: [string, 'POST' | 'PATCH'][] = [
    ['/api/map/nodes', 'POST'],
    ['/api/map/nodes/00000000-0000-4000-8000-000000000000', 'PATCH'],
    ['/api/map/hunts', 'POST'],
    ['/api/map/hunts/00000000-0000-4000-8000-000000000000', 'PATCH'],
  ];
  it('answers 401 signed out and 403 for players before validating', async () => {
    for (const [url, method] of routes) {
      const bad = { name: 42 };
      expect((await t.app.inject({ method, url, payload: bad, headers: headers() })).statusCode).toBe(401);
      expect((await t.app.inject({ method, url, payload: bad, headers: headers(player.cookie) })).statusCode).toBe(403);
      expect((await t.app.inject({ method, url, payload: bad, headers: headers(admin.cookie) })).statusCode).toBe(400);
    }
  });

  it('validates fields and names them', async () => {
    const res = await post('/api/map/nodes', { name: 'X', category: 'Art', points: 10, latitude: 91, longitude: 0 }, admin.cookie);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('latitude');
    const hunt = await post('/api/map/hunts', { name: 'H', nodeIds: ['00000000-0000-4000-8000-000000000000'] }, admin.cookie);
    expect(hunt.statusCode).toBe(400);
    expect(hunt.body).toContain('nodeIds');
  });

  it('creates nodes with a default radius, moves them and builds hunts', async () => {
    const a = await node({ name: 'Plaza', ...PLAZA });
    expect(a).toMatchObject({ radiusM: 75, requiresPhoto: false, active: true, location: { address: '' } });
    const moved = await patch(`/api/map/nodes/${a.id}`, POND, admin.cookie);
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject(POND);
    const h = await post('/api/map/hunts', { name: 'Walk', reward: 'Glory', rewardPoints: 50, nodeIds: [a.id] }, admin.cookie);
    expect(h.statusCode).toBe(201);
    expect(h.json()).toMatchObject({ name: 'Walk', totalNodes: 1, reward: 'Glory', nodeIds: [a.id] });
    const off = await patch(`/api/map/hunts/${(h.json() as Hunt).id}`, { active: false }, admin.cookie);
    expect(off.json()).toMatchObject({ active: false, totalNodes: 1 });
  });
});

describe('GET /api/map', () => {
  it('needs sign-in and answers nodes and active hunts', async () => {
    expect((await get('/api/map')).statusCode).toBe(401);
    await insertDemoQuests(t.database.db, NOW);
    const body = (await get('/api/map', player.cookie)).json() as MapResponse;
    expect(body.nodes).toHaveLength(DEMO_NODES.length);
    expect(body.nodes.every((n) => n.isDemo)).toBe(true);
    expect(body.activeHunts.map((h) => h.name).sort()).toEqual([...DEMO_HUNT_NAMES].sort());
    expect(body.nodes[0]).toEqual(
      expect.objectContaining({ id: expect.any(String), difficulty: expect.any(String), clue: expect.any(String), location: { address: expect.any(String) }, requirements: expect.any(Array), latitude: expect.any(Number), longitude: expect.any(Number), radiusM: 75 }),
    );
  });
});

describe('evidence', () => {
  it('completes inside the radius once, paying through the ledger; a second submission pays nothing', async () => {
    const a = await node({ name: 'Plaza', ...PLAZA, points: 30 });
    const first = await evidence(a.id, { ...north(PLAZA, 60), accuracy: 10 });
    expect(first.statusCode, first.body).toBe(200);
    const body = first.json() as EvidenceResponse;
    expect(body).toMatchObject({ completed: true, pointsEarned: 30 });
    expect(body.progress).toMatchObject({ totalPoints: 30, playerLevel: 1, completedNodes: [a.id], availableNodes: [] });
    const again = (await evidence(a.id, { ...north(PLAZA, 10), accuracy: 5 })).json() as EvidenceResponse;
    expect(again).toMatchObject({ completed: true, pointsEarned: 0 });
    expect((await progress()).totalPoints).toBe(30);
    const awards = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from point_awards where activity_type = 'quest_node'`);
    expect(awards[0]!.n).toBe(1);
  });

  it('answers the distance outside the radius and credits accuracy only up to 50 m', async () => {
    const a = await node({ name: 'Plaza', ...PLAZA });
    const far = (await evidence(a.id, { ...north(PLAZA, 200), accuracy: 10 })).json() as EvidenceResponse;
    expect(far).toMatchObject({ completed: false });
    expect(far.completed === false && Math.abs(far.distanceM - 200) <= 2).toBe(true);
    // 130 m out with a 500 m accuracy: only 50 m are credited, so still outside.
    expect((await evidence(a.id, { ...north(PLAZA, 130), accuracy: 500 })).json()).toMatchObject({ completed: false });
    // 120 m out with 50 m accuracy: 120 - 50 <= 75.
    expect((await evidence(a.id, { ...north(PLAZA, 120), accuracy: 50 })).json()).toMatchObject({ completed: true });
  });

  it('validates the body and the photo', async () => {
    const a = await node({ name: 'Plaza', ...PLAZA });
    expect((await evidence(a.id, { latitude: 'x', longitude: 0, accuracy: 1 })).statusCode).toBe(400);
    const bad = await evidence(a.id, { ...PLAZA, accuracy: 1, photo: Buffer.from('not an image').toString('base64') });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('photo');
    expect((await evidence('00000000-0000-4000-8000-000000000000', { ...PLAZA, accuracy: 1 })).statusCode).toBe(404);
    expect((await post(`/api/hunt/nodes/${a.id}/evidence`, { ...PLAZA, accuracy: 1 })).statusCode).toBe(401);
  });

  it('refuses impossible travel with 409 and records nothing', async () => {
    const a = await node({ name: 'Plaza', ...PLAZA });
    const b = await node({ name: 'St Johns', ...ST_JOHNS });
    expect((await evidence(a.id, { ...PLAZA, accuracy: 5 })).json()).toMatchObject({ completed: true });
    t.clock.set(new Date(NOW.getTime() + 60_000)); // ~10 km in a minute
    const res = await evidence(b.id, { ...ST_JOHNS, accuracy: 5 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'conflict', message: expect.stringContaining('Impossible travel') });
    expect((await progress()).completedNodes).toEqual([a.id]);
    t.clock.set(new Date(NOW.getTime() + 30 * 60_000)); // 30 minutes later is plausible
    expect((await evidence(b.id, { ...ST_JOHNS, accuracy: 5 })).json()).toMatchObject({ completed: true });
  });

  it('holds photo nodes for review: accept pays once, reject lets the player try again', async () => {
    const a = await node({ name: 'Stencil', ...PLAZA, points: 60, requiresPhoto: true });
    expect((await evidence(a.id, { ...PLAZA, accuracy: 5 })).statusCode).toBe(400);
    const sent = (await evidence(a.id, { ...PLAZA, accuracy: 5, photo })).json() as EvidenceResponse;
    expect(sent).toMatchObject({ completed: false, pending: true });
    expect((await progress()).pendingNodes).toEqual([a.id]);

    expect((await get('/api/admin/hunt/evidence', player.cookie)).statusCode).toBe(403);
    const list = (await get('/api/admin/hunt/evidence', admin.cookie)).json() as { evidence: { id: string; nodeName: string }[]; total: number };
    expect(list.evidence).toHaveLength(1);
    expect(list.total).toBe(1);
    const id = list.evidence[0]!.id;
    const img = await get(`/api/admin/hunt/evidence/${id}/photo`, admin.cookie);
    expect(img.headers['content-type']).toBe('image/jpeg');

    expect((await post(`/api/admin/hunt/evidence/${id}/reject`, {}, admin.cookie)).json()).toMatchObject({ status: 'rejected' });
    expect((await progress()).totalPoints).toBe(0);
    expect((await evidence(a.id, { ...PLAZA, accuracy: 5, photo })).json()).toMatchObject({ pending: true });
    expect((await post(`/api/admin/hunt/evidence/${id}/accept`, {}, player.cookie)).statusCode).toBe(403);
    expect((await post(`/api/admin/hunt/evidence/${id}/accept`, {}, admin.cookie)).json()).toMatchObject({ status: 'completed', pointsEarned: 60 });
    expect((await post(`/api/admin/hunt/evidence/${id}/accept`, {}, admin.cookie)).statusCode).toBe(409);
    expect(await progress()).toMatchObject({ totalPoints: 60, completedNodes: [a.id], pendingNodes: [] });
  });

  it('tells the admin how many photos wait in all when more wait than the list holds', async () => {
    const nodes = await t.database.db
      .insert(questNodes)
      .values(Array.from({ length: EVIDENCE_SHOWN + 3 }, (_, i) => ({ name: `Mural ${i + 1}`, category: 'Art', points: 10, ...PLAZA, requiresPhoto: true })))
      .returning({ id: questNodes.id });
    await t.database.db.insert(nodeCompletions).values(nodes.map((n, i) => ({ nodeId: n.id, userId: player.user.id, status: 'pending_review' as const, method: 'photo' as const, createdAt: new Date(NOW.getTime() + i * 1000) })));
    const list = (await get('/api/admin/hunt/evidence', admin.cookie)).json() as { evidence: { nodeName: string }[]; total: number };
    expect(list.total).toBe(EVIDENCE_SHOWN + 3);
    expect(list.evidence).toHaveLength(EVIDENCE_SHOWN);
    expect(list.evidence[0]!.nodeName).toBe('Mural 1');
  });

  it('completes a node from its signed QR code once, sharing the ledger key with evidence', async () => {
    const a = await node({ name: 'Plaza', ...PLAZA, points: 30 });
    const printed = await get(`/api/admin/qr/node/${a.id}?format=json`, admin.cookie);
    expect(printed.statusCode).toBe(200);
    const qrData = (printed.json() as { qrData: string }).qrData;
    const scan = await post('/api/gaming/qr-scan', { qrData }, player.cookie);
    expect(scan.statusCode, scan.body).toBe(200);
    expect(scan.json()).toMatchObject({ type: 'node', points: 30, totalPoints: 30 });
    expect((await post('/api/gaming/qr-scan', { qrData }, player.cookie)).statusCode).toBe(409);
    expect((await evidence(a.id, { ...PLAZA, accuracy: 5 })).json()).toMatchObject({ completed: true, pointsEarned: 0 });
    expect(await progress()).toMatchObject({ totalPoints: 30, completedNodes: [a.id] });
    const rows = await queryRows<{ method: string }>(t.database.db, sql`select method from node_completions`);
    expect(rows).toEqual([{ method: 'qr' }]);
    const forged = signQrPayload(QR_KEY, { k: 'node', id: '00000000-0000-4000-8000-000000000000', iat: 1 });
    expect((await post('/api/gaming/qr-scan', { qrData: forged }, player.cookie)).statusCode).toBe(404);
  });
});

describe('hunts and progress', () => {
  it('pays the hunt reward once when its last node completes', async () => {
    const a = await node({ name: 'Plaza', ...PLAZA, points: 10 });
    const b = await node({ name: 'Pond', ...POND, points: 20 });
    const hunt = (await post('/api/map/hunts', { name: 'Walk', rewardPoints: 100, nodeIds: [a.id, b.id] }, admin.cookie)).json() as Hunt;
    expect((await evidence(a.id, { ...PLAZA, accuracy: 5 })).json()).toMatchObject({ huntBonus: 0 });
    t.clock.set(new Date(NOW.getTime() + 30 * 60_000));
    const done = (await evidence(b.id, { ...POND, accuracy: 5 })).json() as EvidenceResponse;
    expect(done).toMatchObject({ completed: true, pointsEarned: 20, huntBonus: 100 });
    expect(done.progress).toMatchObject({ totalPoints: 130, hunts: [{ huntId: hunt.id, completed: 2, total: 2, finished: true }] });
    expect((await evidence(b.id, { ...POND, accuracy: 5 })).json()).toMatchObject({ pointsEarned: 0, huntBonus: 0 });
    expect((await progress()).totalPoints).toBe(130);
  });

  it('plays ordered hunts in order', async () => {
    const a = await node({ name: 'Plaza', ...PLAZA });
    const b = await node({ name: 'Pond', ...POND });
    await post('/api/map/hunts', { name: 'Trail', ordered: true, nodeIds: [a.id, b.id] }, admin.cookie);
    const res = await evidence(b.id, { ...POND, accuracy: 5 });
    expect(res.statusCode).toBe(409);
    expect(res.body).toContain('in order');
  });

  it('counts progress from real completions per player', async () => {
    const a = await node({ name: 'Plaza', ...PLAZA, points: 25 });
    const b = await node({ name: 'Pond', ...POND });
    await evidence(a.id, { ...PLAZA, accuracy: 5 });
    expect(await progress()).toMatchObject({ totalPoints: 25, playerLevel: 1, completedNodes: [a.id], availableNodes: [b.id] });
    expect(await progress(admin.cookie)).toMatchObject({ totalPoints: 0, completedNodes: [], availableNodes: [a.id, b.id] });
  });
});
