import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PORTLAND } from '../../city.ts';
import { buildTestApp, signupUser, TEST_ORIGIN, type TestApp } from '../../test/build-test-app.ts';
import { queryRows } from '../../test/factories.ts';
import { serveText, startFeedServer, type Route } from '../../test/feed-server.ts';
import { closeSharedSandbox } from './parse/sandbox.ts';
import { parseIcal } from './parse/ical.parse.ts';

// Every real calendar of the shared fixtures, each added as a source and run through the API onto
// one database, with the clock a day before the calendar's first event: every run succeeds, and
// every event a run takes stays listed on its own. Real calendars list distinct events, so nothing
// is merged, across 44 calendars of clubs, venues, TV guides and holidays. The first run of this
// test found a real one (THFC's fixtures, one with a 2,855-character description) whose whole run
// failed in the database (migration 0021).
const ICS = resolve(process.cwd(), '../shared/fixtures/ics');
const has = existsSync(ICS);
const files = has ? readdirSync(ICS).filter((f) => f.endsWith('.ics')).sort() : [];

/** The calendar's first start, read by the parser itself (null when it holds no usable event). */
function firstStart(text: string): Date | null {
  try {
    const starts = parseIcal({ text, now: new Date('1990-01-01T00:00:00Z'), timeZone: PORTLAND.timeZone, horizonDays: 20_000, maxOccurrences: 5 }).candidates.map((c) => c.start.getTime());
    return starts.length ? new Date(Math.min(...starts)) : null;
  } catch {
    return null;
  }
}

let t: TestApp;
let admin: string;
let server: Awaited<ReturnType<typeof startFeedServer>>;
const texts = new Map(files.map((f) => [f, readFileSync(join(ICS, f), 'utf8')]));

beforeAll(async () => {
  if (!has) return;
  const routes: Record<string, Route> = {};
  for (const [f, text] of texts) routes[`/${f}`] = serveText(text, 'text/calendar; charset=utf-8');
  server = await startFeedServer(routes);
  t = await buildTestApp();
  // Signed in now: the runs below happen years earlier on the clock, within the session's life.
  admin = (await signupUser(t.app)).cookie;
});
afterAll(async () => {
  if (!has) return;
  await t.close();
  await server.close();
  await closeSharedSandbox();
});

describe.skipIf(!has)('real calendars (needs ../shared/fixtures/ics)', () => {
  it('lists every event each real calendar gives, merges none and fails no run', { timeout: 120_000 }, async () => {
    const runs: { file: string; status: string; fetched: number; created: number; merged: number; rejected: number; error?: string }[] = [];
    const withStart = files.map((f) => ({ f, start: firstStart(texts.get(f)!) })).filter((x) => x.start !== null);
    expect(withStart.length).toBeGreaterThanOrEqual(40);
    for (const [i, { f, start }] of withStart.entries()) {
      t.clock.set(new Date(start!.getTime() - 86_400_000));
      // One address per calendar: the run route allows an address 30 runs a minute.
      const call = (method: 'POST', url: string, payload?: object) =>
        t.app.inject({ method, url, remoteAddress: `10.0.0.${i + 1}`, headers: { origin: TEST_ORIGIN, cookie: admin }, ...(payload ? { payload } : {}) });
      const created = await call('POST', '/api/admin/sources', { name: `Real ${i}`, connector: 'ical', url: server.url(`/${f}`), sourceType: 'ical', trusted: true });
      expect(created.statusCode, f).toBe(201);
      const run = await call('POST', `/api/admin/sources/${(created.json() as { id: string }).id}/run`);
      runs.push({ file: f, ...(run.json() as Omit<(typeof runs)[number], 'file'>) });
    }
    expect(runs.filter((r) => r.status !== 'success')).toEqual([]);
    expect(runs.filter((r) => r.merged > 0)).toEqual([]);
    // What a run takes is listed: each created event is there on its own, linked to its source.
    const created = runs.reduce((n, r) => n + r.created, 0);
    const [listed] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from events where status <> 'merged' and gone_at is null`);
    expect(listed!.n).toBe(created);
    expect(created).toBeGreaterThan(1500);
    // Only one-off events over two years ahead of the clock are left out (the listing horizon).
    expect(runs.reduce((n, r) => n + r.rejected, 0)).toBeLessThan(created / 10);
  });
});
