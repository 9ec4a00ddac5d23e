import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zonedToUtc } from '../contract/time.ts';
import { buildTestApp, signupUser, type TestApp } from './test/build-test-app.ts';

let t: TestApp;
let webDir: string;

beforeAll(async () => {
  webDir = mkdtempSync(join(tmpdir(), 'townbeat-web-'));
  mkdirSync(join(webDir, 'assets'));
  writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>shell</title><div id="root"></div>');
  writeFileSync(join(webDir, 'assets', 'app-AbCd1234.js'), 'console.log(1);'.repeat(200));
  t = await buildTestApp({ webDir });
  t.app.log.level = 'silent';
});
afterAll(async () => t.close());

describe('GET /api/health', () => {
  it('reports uptime in ms and live storage counts, with today in the city time zone', async () => {
    await signupUser(t.app);
    await signupUser(t.app);
    // 2026-11-22 16:00 in Portland; an event at 23:30 local is still today, one at 00:30 tomorrow is not.
    t.clock.set(zonedToUtc({ year: 2026, month: 11, day: 22, hour: 16 }, 'America/Los_Angeles'));
    const late = zonedToUtc({ year: 2026, month: 11, day: 22, hour: 23, minute: 30 }, 'America/Los_Angeles');
    const tomorrow = zonedToUtc({ year: 2026, month: 11, day: 23, hour: 0, minute: 30 }, 'America/Los_Angeles');
    await t.database.db.execute(sql`insert into events (title, source_type, start_date, end_date, time_zone, status) values
      ('Late show', 'municipal', ${late.toISOString()}, ${late.toISOString()}, 'America/Los_Angeles', 'approved'),
      ('Breakfast', 'municipal', ${tomorrow.toISOString()}, ${tomorrow.toISOString()}, 'America/Los_Angeles', 'approved'),
      ('Unreviewed', 'municipal', ${late.toISOString()}, ${late.toISOString()}, 'America/Los_Angeles', 'pending')`);
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('operational');
    expect(body.health.metrics.storage).toEqual({ totalEvents: 2, todayEvents: 1, totalUsers: 2 });
    expect(typeof body.health.metrics.system.uptime).toBe('number');
  });
});

describe('serving', () => {
  it('answers unknown /api paths with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json().code).toBe('not_found');
  });

  it('serves the app shell for client routes, and 404 for missing files', async () => {
    const root = await t.app.inject({ method: 'GET', url: '/' });
    expect(root.statusCode).toBe(200);
    expect(root.body).toContain('<div id="root">');
    const page = await t.app.inject({ method: 'GET', url: '/some/client/route' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
    const missing = await t.app.inject({ method: 'GET', url: '/missing.png' });
    expect(missing.statusCode).toBe(404);
  });

  it('sends security headers with a Content-Security-Policy', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('compresses larger responses and caches hashed assets for a year', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/app-AbCd1234.js', headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it('publishes the city configuration', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/config' });
    expect(res.json().city).toMatchObject({ name: 'Portland', timeZone: 'America/Los_Angeles' });
  });
});

describe('unexpected errors', () => {
  it('answer 500 with a generic message, keeping the details out of the response', async () => {
    const failing = new Proxy({} as TestApp['database']['db'], {
      get() {
        throw new Error('connection to secret-host:5432 refused');
      },
    });
    const broken = await buildTestApp({ database: { ...t.database, db: failing, close: async () => {} } });
    const res = await broken.app.inject({ method: 'GET', url: '/api/events/stats' }); // /api/health answers 'degraded' (200) when the database fails
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: 'internal', message: 'Internal Server Error' });
    expect(res.body).not.toContain('secret-host');
    await broken.close();
  });
});
