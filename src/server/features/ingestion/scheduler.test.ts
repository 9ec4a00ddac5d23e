import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../clock.ts';
import { openDatabase, type Database } from '../../db/client.ts';
import { buildTestApp, signupUser, TEST_ORIGIN, type TestApp } from '../../test/build-test-app.ts';
import { openTestDatabase } from '../../test/test-db.ts';
import { queryRows } from '../../test/factories.ts';
import { nextDelayMinutes } from './scheduler.ts';

describe('back-off', () => {
  it('doubles the interval per consecutive failure, up to an hour', () => {
    expect(nextDelayMinutes(10, 0)).toBe(10);
    expect(nextDelayMinutes(10, 1)).toBe(20);
    expect(nextDelayMinutes(10, 2)).toBe(40);
    expect(nextDelayMinutes(10, 9)).toBe(60);
  });
});

const csvDay = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
const SOURCE = {
  name: 'Parks CSV',
  connector: 'csv',
  sourceType: 'municipal',
  intervalMinutes: 1,
  trusted: true,
  config: { csv: `title,start\nPicnic in the park,${csvDay} 12:00\n`, mapping: { title: 'title', start: 'start' } },
};

describe('a source run by hand', () => {
  it('is not read again at once by the run queued when it was added; its schedule goes on from that run', async () => {
    const t = await buildTestApp({ scheduler: { unitSeconds: 1, pollingIntervalSeconds: 0.5 }, clock: systemClock });
    try {
      await t.app.scheduler!.start();
      // Added (which queues a run due now), and run by hand before the queue gets to it.
      const source = await t.app.ingest.sources.insert({ ...SOURCE, intervalMinutes: 6 });
      await t.app.ingest.service.runSource(source.id, 'manual');
      await t.app.scheduler!.ensure(source.id, 0);
      const triggers = async () => (await queryRows<{ trigger: string }>(t.database.db, sql`select trigger from source_runs where source_id = ${source.id} order by started_at`)).map((r) => r.trigger);
      await new Promise((r) => setTimeout(r, 2500));
      expect(await triggers()).toEqual(['manual']);
      // Its interval (6 "minutes" of a second each) after the manual run, the schedule runs it.
      for (let i = 0; i < 40 && (await triggers()).length < 2; i++) await new Promise((r) => setTimeout(r, 250));
      expect(await triggers()).toEqual(['manual', 'schedule']);
    } finally {
      await t.app.scheduler!.stop();
      await t.close();
    }
  }, 30_000);
});

// Two app instances on one PostgreSQL: only PostgreSQL can be shared between processes.
describe.skipIf(!process.env.TEST_DATABASE_URL)('scheduling on PostgreSQL (needs TEST_DATABASE_URL)', () => {
  const opened: { apps: TestApp[]; dbs: Database[] } = { apps: [], dbs: [] };
  afterAll(async () => {
    for (const a of opened.apps) await a.app.close();
    for (const d of opened.dbs.reverse()) await d.close();
  });

  it('runs each scheduled slot exactly once across two instances', async () => {
    const shared = await openTestDatabase();
    const second = await openDatabase({ url: shared.url!, poolSize: 3 });
    opened.dbs.push(shared, second);
    // One "minute" is one second here, so a 1-minute source runs every second.
    const scheduler = { unitSeconds: 1, pollingIntervalSeconds: 0.5 };
    for (const database of [shared, second]) {
      const t = await buildTestApp({ database, scheduler, clock: systemClock });
      opened.apps.push(t);
    }
    const [a, b] = opened.apps as [TestApp, TestApp];
    const source = await a.app.ingest.sources.insert(SOURCE);
    await Promise.all([a.app.scheduler!.start(), b.app.scheduler!.start()]);
    await new Promise((r) => setTimeout(r, 8000));
    await Promise.all([a.app.scheduler!.stop(), b.app.scheduler!.stop()]);

    const runs = await queryRows<{ started_at: string; finished_at: string; status: string }>(
      shared.db,
      sql`select started_at, finished_at, status from source_runs where source_id = ${source.id} order by started_at`,
    );
    expect(runs.length).toBeGreaterThanOrEqual(3);
    expect(runs.length).toBeLessThanOrEqual(9);
    expect(runs.every((r) => r.status === 'success' || r.status === 'not_modified')).toBe(true);
    // No two runs overlap: each starts after the previous one finished.
    for (let i = 1; i < runs.length; i++) {
      expect(new Date(runs[i]!.started_at).getTime()).toBeGreaterThanOrEqual(new Date(runs[i - 1]!.finished_at).getTime());
    }
    // The event was created once, however many runs saw it.
    const [count] = await queryRows<{ n: number }>(shared.db, sql`select count(*)::int as n from events`);
    expect(count!.n).toBe(1);
  }, 60_000);

  it('runs a source added through an instance that does not run the queue (a cluster follower)', async () => {
    const shared = await openTestDatabase();
    const second = await openDatabase({ url: shared.url!, poolSize: 3 });
    opened.dbs.push(shared, second);
    const leader = await buildTestApp({ database: shared, scheduler: { unitSeconds: 1, pollingIntervalSeconds: 0.5 }, clock: systemClock });
    const follower = await buildTestApp({ database: second, scheduler: false, queueClient: true, clock: systemClock });
    opened.apps.push(leader, follower);
    await leader.app.scheduler!.start();
    const { cookie } = await signupUser(follower.app); // the first account is the admin
    const res = await follower.app.inject({ method: 'POST', url: '/api/admin/sources', headers: { cookie, origin: TEST_ORIGIN }, payload: { ...SOURCE, intervalMinutes: 15 } });
    expect(res.statusCode).toBe(201);
    const id = (res.json() as { id: string }).id;
    let runs: { status: string }[] = [];
    for (let i = 0; i < 40 && runs.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 250));
      runs = await queryRows<{ status: string }>(shared.db, sql`select status from source_runs where source_id = ${id}`);
    }
    await leader.app.scheduler!.stop();
    expect(runs.map((r) => r.status)).toEqual(['success']);
  }, 60_000);
});
