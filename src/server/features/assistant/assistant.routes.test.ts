import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssistantChatResponse } from '../../../contract/assistant.ts';
import { buildTestApp, signupUser, TEST_ORIGIN, type TestApp } from '../../test/build-test-app.ts';
import { buildEvent, queryRows } from '../../test/factories.ts';
import { startFakeLlm } from '../../test/llm-server.ts';
import { createAuditRepository } from '../admin/audit.repository.ts';
import { registerErrorHandler } from '../../plugins/error-handler.ts';

const NOW = new Date('2026-11-18T20:00:00Z'); // Wednesday noon in Portland
const DAY = 24 * 3600 * 1000;
let t: TestApp;
let admin: { cookie: string; user: { id: string } };
let admin2: { cookie: string; user: { id: string } };
let member: { cookie: string };

beforeAll(async () => {
  t = await buildTestApp({ env: { ADMIN_EMAILS: 'assistant-admin@example.org,assistant-admin2@example.org' } });
  t.clock.set(NOW);
  admin = await signupUser(t.app, { email: 'assistant-admin@example.org' });
  admin2 = await signupUser(t.app, { email: 'assistant-admin2@example.org' });
  member = await signupUser(t.app, { email: 'assistant-member@example.org', firstName: 'Priya', lastName: 'Shah' });
});
afterAll(async () => t?.close());

const chat = (cookie: string | null, payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/admin/ai-chat', headers: { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) }, payload: payload as Record<string, unknown> });
async function ask(message: string, cookie = admin.cookie, extra: Record<string, unknown> = {}): Promise<AssistantChatResponse> {
  const res = await chat(cookie, { message, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const assistantAudit = async () => (await createAuditRepository(t.database.db).listNewest(500)).filter((r) => r.action.startsWith('assistant.'));

describe('POST /api/admin/ai-chat access', () => {
  it('answers 401 signed out and 403 to members before reading the body, then 400 naming the field', async () => {
    expect((await chat(null, {})).statusCode).toBe(401);
    expect((await chat(member.cookie, {})).statusCode).toBe(403);
    const bad = await chat(admin.cookie, { message: '   ' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('body.message');
  });

  it('answers help for an unknown request, running nothing', async () => {
    const r = await ask('tell me a joke');
    expect(r).toMatchObject({ commandExecuted: false, commandType: null, commandResult: null, metadata: { action: 'help', engine: 'built-in' } });
    expect(r.response).toContain('I can read:');
    const sqlish = await ask('drop table users;');
    expect(sqlish.response).toContain('I do not run SQL or shell commands');
  });
});

describe('read commands answer at once with real data', () => {
  it('health check and database status', async () => {
    const h = await ask('run a system health check');
    expect(h).toMatchObject({ commandExecuted: true, commandType: 'health_check', metadata: { action: 'executed' } });
    expect(h.commandResult).toMatchObject({ storage: { totalUsers: 3 } });
    const d = await ask('database status');
    expect(d.commandType).toBe('database_status');
    expect(d.commandResult).toMatchObject({ kind: t.database.kind, counts: { users: 3 } });
    expect((d.commandResult as { migrations: number }).migrations).toBeGreaterThan(5);
    expect(d.response).toMatch(/round trip [\d.]+ ms/);
  });

  it('counts events waiting for review and events this week by category', async () => {
    const soon = new Date(NOW.getTime() + DAY);
    await buildEvent(t.database.db, { title: 'Review Me Please', status: 'pending', startDate: soon });
    // Not in the review queue: its source dropped it, or it is over.
    await buildEvent(t.database.db, { title: 'Dropped Swap', status: 'pending', startDate: soon, goneAt: NOW });
    await buildEvent(t.database.db, { title: 'Yesterday Talk', status: 'pending', startDate: new Date(NOW.getTime() - DAY), endDate: new Date(NOW.getTime() - DAY + 3600_000) });
    await buildEvent(t.database.db, { title: 'Open Mic', category: 'Music', startDate: soon });
    await buildEvent(t.database.db, { title: 'Taco Crawl', category: 'Food', startDate: new Date(NOW.getTime() + 2 * DAY) });
    await buildEvent(t.database.db, { title: 'Far Away Fest', category: 'Food', startDate: new Date(NOW.getTime() + 20 * DAY) });
    const p = await ask('how many events are waiting for review?');
    expect(p).toMatchObject({ commandType: 'pending_review', commandExecuted: true, commandResult: { count: 1 } });
    expect(p.response).toContain('1 event waiting for review');
    expect(p.response).toContain('"Review Me Please"');
    const c = await ask('events this week by category');
    expect(c.commandType).toBe('events_by_category');
    expect(c.commandResult).toMatchObject({ window: 'week', total: 2, categories: expect.arrayContaining([{ category: 'Music', n: 1 }, { category: 'Food', n: 1 }]) });
    const m = await ask('breakdown by category this month');
    expect(m.commandResult).toMatchObject({ window: 'month', total: 3 });
  });

  it("a user's points by email or name", async () => {
    await t.database.db.execute(sql`update users set points = 42 where email = 'assistant-member@example.org'`);
    const byEmail = await ask('how many points does assistant-member@example.org have?');
    expect(byEmail).toMatchObject({ commandType: 'user_points', commandResult: { users: [{ email: 'assistant-member@example.org', points: 42 }] } });
    const byName = await ask('points for Priya Shah');
    expect(byName.response).toContain('42 points');
    const nobody = await ask('points for nobody@example.org');
    expect(nobody.response).toContain('No user matches');
  });

  it('source status says which sources failed today, and failures reach the error log', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/admin/sources',
      headers: { origin: TEST_ORIGIN, cookie: admin.cookie },
      payload: { name: 'Broken Hall Feed', connector: 'ical', url: 'http://127.0.0.1:9/feed.ics', sourceType: 'ical' },
    });
    expect(bad.statusCode, bad.body).toBe(201);
    await t.app.ingest.service.runSource(bad.json().id, 'manual');
    const s = await ask('which sources failed today?');
    expect(s).toMatchObject({ commandType: 'source_status', commandResult: { failedOnly: true, window: 'today' } });
    expect(s.response).toContain('"Broken Hall Feed"');
    expect((s.commandResult as { sources: { failedRuns: number }[] }).sources[0]!.failedRuns).toBe(1);
    const logs = await ask('show me the error logs');
    expect(logs.commandType).toBe('error_logs');
    expect(logs.response).toContain('[ingestion]');
    expect(logs.response).toContain('Broken Hall Feed');
  });

  it('source status says how many entries of a feed its last run left out', async () => {
    const sheet = await t.app.inject({
      method: 'POST',
      url: '/api/admin/sources',
      headers: { origin: TEST_ORIGIN, cookie: admin.cookie },
      payload: { name: 'Parks Sheet', connector: 'csv', sourceType: 'municipal', config: { csv: 'Event,Date\nKite Day,2099-01-01\n,2099-01-02\nNo Date,\n', mapping: { title: 'Event', start: 'Date' } } },
    });
    expect(sheet.statusCode, sheet.body).toBe(201);
    // Two rows cannot be used (no title, no date); Kite Day is read (and refused as too far ahead, which is not a skip).
    await t.app.ingest.service.runSource(sheet.json().id, 'manual');
    const s = await ask('source status');
    expect(s.commandType).toBe('source_status');
    expect(s.response).toContain('"Parks Sheet"');
    expect(s.response).toContain('which left out 2 entries of the feed (see its History)');
    expect(s.response).not.toContain('did not meet');
    // A run that kept listed events it did not meet says so too.
    await t.database.db.execute(sql`update sources set last_run_held = 3, last_run_held_reason = 'partial-read' where name = 'Parks Sheet'`);
    const partial = (await ask('source status')).response;
    expect(partial).toContain('(see its History), and did not meet 3 of its listed events, kept listed until a later run shows they are gone');
    expect(partial).not.toContain('remove them now');
    // After a sudden drop, the admin may remove them sooner.
    await t.database.db.execute(sql`update sources set last_run_held_reason = 'sudden-drop' where name = 'Parks Sheet'`);
    expect((await ask('source status')).response).toContain('kept listed until a later run shows they are gone (most of the source at once: an admin who knows they are gone can remove them now on its card)');
  });

  it('unhandled 5xx errors are written to the error log, and View Error Logs shows them', async () => {
    const bare = Fastify({ logger: false });
    registerErrorHandler(bare, { db: t.database.db, clock: t.clock });
    bare.get('/boom', async () => {
      throw new Error('kaboom in a handler');
    });
    const res = await bare.inject({ method: 'GET', url: '/boom?x=1' });
    expect(res.statusCode).toBe(500);
    expect(res.json().message).toBe('Internal Server Error');
    await bare.close();
    await new Promise((r) => setTimeout(r, 50));
    const logs = await ask('View Error Logs');
    expect(logs.response).toContain('[http] "kaboom in a handler"');
    expect((logs.commandResult as { errors: { origin: string }[] }).errors.map((e) => e.origin)).toEqual(expect.arrayContaining(['http', 'ingestion']));
  });

  it('audits every read command it ran', async () => {
    const actions = (await assistantAudit()).map((r) => `${r.action}:${r.result}`);
    expect(actions).toEqual(expect.arrayContaining(['assistant.health_check:ok', 'assistant.database_status:ok', 'assistant.pending_review:ok', 'assistant.source_status:ok', 'assistant.user_points:ok']));
  });
});

describe('event counts say what is listed', () => {
  const HOUR = 3600 * 1000;
  const stats = async () => (await t.app.inject({ method: 'GET', url: '/api/events/stats' })).json() as { totalEvents: number; todayEvents: number };
  const wellness = (r: AssistantChatResponse) => (r.commandResult as { categories: { category: string; n: number }[] }).categories.find((c) => c.category === 'Wellness')?.n ?? 0;

  it('counts no event its source cancelled or removed: by category, all listed now, and in the health check', async () => {
    const [weekBefore, monthBefore, allBefore, healthBefore] = [await ask('category breakdown for this week'), await ask('category breakdown for this month'), await ask('how many events are there?'), await ask('system health check')];
    const gone = new Date(NOW.getTime() - HOUR);
    // Starting today (Wednesday noon + 1 h): one listed, one every feed dropped, one its source cancelled.
    const today = new Date(NOW.getTime() + HOUR);
    await buildEvent(t.database.db, { title: 'Sunrise Yoga', category: 'Wellness', startDate: today });
    await buildEvent(t.database.db, { title: 'Dropped Yoga', category: 'Wellness', startDate: today, goneAt: gone });
    await buildEvent(t.database.db, { title: 'Cancelled Yoga', category: 'Wellness', startDate: new Date(NOW.getTime() + 3 * DAY), goneAt: gone, cancelledBySource: true });
    // Later in the month: one listed, one removed.
    await buildEvent(t.database.db, { title: 'Sound Bath', category: 'Wellness', startDate: new Date(NOW.getTime() + 12 * DAY) });
    await buildEvent(t.database.db, { title: 'Removed Sound Bath', category: 'Wellness', startDate: new Date(NOW.getTime() + 13 * DAY), goneAt: gone });

    const week = await ask('category breakdown for this week');
    expect(week).toMatchObject({ commandType: 'events_by_category', commandExecuted: true, commandResult: { window: 'week' } });
    expect(wellness(week)).toBe(1);
    expect((week.commandResult as { total: number }).total).toBe((weekBefore.commandResult as { total: number }).total + 1);
    expect(week.response).toContain('- Wellness: 1');
    expect(week.response).toMatch(/^\d+ events? in the next 7 days \(as Discover's "This week" lists them: a recurring event counted once/);

    const month = await ask('category breakdown for this month');
    expect(wellness(month)).toBe(2);
    expect((month.commandResult as { total: number }).total).toBe((monthBefore.commandResult as { total: number }).total + 2);
    expect(month.response).toContain('- Wellness: 2');

    // All listed now: the listing's own count, the one /api/events/stats gives the Admin Overview.
    const all = await ask('how many events are there?');
    expect(all).toMatchObject({ commandType: 'events_by_category', commandExecuted: true, commandResult: { window: 'all', estimated: false } });
    expect(wellness(all)).toBe(2);
    const listedNow = (await stats()).totalEvents;
    expect((all.commandResult as { total: number }).total).toBe(listedNow);
    expect((all.commandResult as { total: number }).total).toBe((allBefore.commandResult as { total: number }).total + 2);
    expect(all.response).toContain(`${listedNow} events listed now`);

    // The health check says what is listed, as every other screen counts it.
    const health = await ask('system health check');
    const before = healthBefore.commandResult as { listed: { events: number; today: number }; storage: { totalEvents: number } };
    const after = health.commandResult as typeof before;
    expect(after.listed).toEqual({ events: listedNow, today: (await stats()).todayEvents });
    expect(after.listed.events).toBe(before.listed.events + 2);
    expect(after.listed.today).toBe(before.listed.today + 1);
    expect(after.storage.totalEvents).toBe(listedNow);
    expect(health.response).toContain(`${listedNow} events listed now (${after.listed.today} still to come or under way today);`);
  });

  it('answers "events this week" and "how many events are there?" from the data, not with help', async () => {
    const week = await ask('events this week');
    expect(week).toMatchObject({ commandType: 'events_by_category', commandExecuted: true, commandResult: { window: 'week' }, metadata: { action: 'executed' } });
    expect(week.response).not.toContain("I didn't recognise that");
    expect(wellness(week)).toBe(1);
    const today = await ask('events today');
    expect(today.commandResult).toMatchObject({ window: 'today' });
    expect(wellness(today)).toBe(1);
    const all = await ask('how many events are there?');
    expect(all).toMatchObject({ commandType: 'events_by_category', commandExecuted: true, commandResult: { window: 'all', total: (await stats()).totalEvents } });
    expect(all.response).not.toContain("I didn't recognise that");
  });
});

describe('changing commands: propose, confirm once', () => {
  it('proposes clearing a cache with a token, and runs it on confirmation, once', async () => {
    const p = await ask('clear the events cache');
    expect(p).toMatchObject({ commandExecuted: false, commandType: 'clear_cache', metadata: { action: 'proposed' } });
    expect(p.metadata.confirmToken).toMatch(/^[\w-]{20,}$/);
    expect(p.response).toContain('events aggregate cache');
    const [v0] = await queryRows<{ v: string }>(t.database.db, sql`select last_value::text as v from events_version_seq`);
    const done = await ask('confirm', admin.cookie, { confirmToken: p.metadata.confirmToken });
    expect(done).toMatchObject({ commandExecuted: true, commandType: 'clear_cache', metadata: { action: 'confirmed' } });
    const [v1] = await queryRows<{ v: string }>(t.database.db, sql`select last_value::text as v from events_version_seq`);
    expect(Number(v1!.v)).toBeGreaterThan(Number(v0!.v));
    const again = await chat(admin.cookie, { message: 'confirm', confirmToken: p.metadata.confirmToken });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('already used');
    const audit = (await assistantAudit()).filter((r) => r.action === 'assistant.clear_cache').map((r) => `${r.result}:${(r.detail as { phase: string }).phase}`);
    expect(audit).toEqual(expect.arrayContaining(['ok:proposed', 'ok:confirmed', 'refused:confirm']));
  });

  it('refuses an expired token (5 min + 1 s), another admin\u2019s token and an unknown one', async () => {
    const p = await ask('restart services');
    expect(p).toMatchObject({ commandType: 'restart_services', commandExecuted: false });
    expect(p.response).toContain('runs without one');
    t.clock.advance(5 * 60 * 1000 + 1000);
    const late = await chat(admin.cookie, { message: 'confirm', confirmToken: p.metadata.confirmToken });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toContain('expired');

    const q = await ask('Emergency Repair');
    expect(q.response).toContain('Re-run the database migrator');
    const other = await chat(admin2.cookie, { message: 'confirm', confirmToken: q.metadata.confirmToken });
    expect(other.statusCode).toBe(409);
    expect(other.json().message).toContain('another admin');
    const unknown = await chat(admin.cookie, { message: 'confirm', confirmToken: 'x'.repeat(32) });
    expect(unknown.statusCode).toBe(400);
    // The rightful admin can still use it.
    const ok = await ask('confirm', admin.cookie, { confirmToken: q.metadata.confirmToken });
    expect(ok).toMatchObject({ commandExecuted: true, commandType: 'emergency_repair' });
    expect(ok.response).toContain('Search index rebuilt');
    expect(ok.response).toContain('Migrations: all already applied');
  });

  it('runs a source now through the ingestion service', async () => {
    const rows = ['Event name,When,Where', 'Harbor Cleanup,2026-11-28 10:00,Waterfront Park', 'Soup Night,2026-11-29 18:00,Kerns Hall'];
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/sources',
      headers: { origin: TEST_ORIGIN, cookie: admin.cookie },
      payload: { name: 'Kerns Community Sheet', connector: 'csv', sourceType: 'municipal', config: { csv: rows.join('\n'), mapping: { title: 'Event name', start: 'When', venue: 'Where' }, dateFormat: 'iso' } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const p = await ask('run the Kerns community sheet now');
    expect(p).toMatchObject({ commandType: 'run_source', commandExecuted: false });
    expect(p.response).toContain('"Kerns Community Sheet"');
    const done = await ask('yes', admin.cookie, { confirmToken: p.metadata.confirmToken });
    expect(done).toMatchObject({ commandExecuted: true, commandResult: { status: 'success', created: 2 } });
    const [n] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from events where title in ('Harbor Cleanup', 'Soup Night')`);
    expect(n!.n).toBe(2);
  });

  it('approves and rejects an event through the review service', async () => {
    const e1 = await buildEvent(t.database.db, { title: 'Alberta Lantern Walk', status: 'pending' });
    const e2 = await buildEvent(t.database.db, { title: 'Sellwood Swap Meet', status: 'pending' });
    const p = await ask('approve the Alberta Lantern Walk');
    expect(p).toMatchObject({ commandType: 'approve_event', commandExecuted: false });
    expect(p.response).toContain(e1.id);
    await ask('confirm', admin.cookie, { confirmToken: p.metadata.confirmToken });
    const r = await ask(`reject ${e2.id}`);
    await ask('confirm', admin.cookie, { confirmToken: r.metadata.confirmToken });
    const rows = await queryRows<{ id: string; status: string }>(t.database.db, sql`select id, status from events where id in (${e1.id}, ${e2.id})`);
    expect(Object.fromEntries(rows.map((x) => [x.id, x.status]))).toEqual({ [e1.id]: 'approved', [e2.id]: 'rejected' });
    const audit = (await assistantAudit()).filter((a) => a.target === `event:${e1.id}`);
    expect(audit.map((a) => (a.detail as { phase: string }).phase).sort()).toEqual(['confirmed', 'proposed']);
  });

  it('says so when a cache, source or event named does not exist, proposing nothing', async () => {
    const c = await ask('wipe the redis cache');
    expect(c).toMatchObject({ commandType: 'clear_cache', commandExecuted: false, metadata: { action: 'unresolved' } });
    expect(c.metadata.confirmToken).toBeUndefined();
    expect(c.response).toContain('no cache called "redis"');
    const e = await ask('approve the moon landing gala');
    expect(e.metadata.action).toBe('unresolved');
  });
});

describe('with a language model configured', () => {
  it('runs an allow-listed read tool, proposes a changing one, and refuses any other tool', async () => {
    const llm = await startFakeLlm();
    const m = await buildTestApp({ database: t.database, env: { ADMIN_EMAILS: 'assistant-admin@example.org', LLM_BASE_URL: llm.baseUrl } });
    // The admin's session was made at NOW on the first app's clock: the same instant here, or a
    // real clock a week later finds it idle too long and answers 401.
    m.clock.set(NOW);
    try {
      const toolCall = (name: string, args: unknown) => ({
        status: 200,
        body: JSON.stringify({ choices: [{ message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name, arguments: JSON.stringify(args) } }] } }] }),
      });
      const say = (content: string) => ({ content });
      const post = (message: string) => m.app.inject({ method: 'POST', url: '/api/admin/ai-chat', headers: { origin: TEST_ORIGIN, cookie: admin.cookie }, payload: { message } });

      llm.set((req) => (req.body.tools ? toolCall('pending_review', {}) : say('There are events in the queue.')));
      const read = (await post('what is waiting?')).json() as AssistantChatResponse;
      expect(read).toMatchObject({ commandExecuted: true, commandType: 'pending_review', metadata: { engine: 'llm' } });
      expect(read.response).toContain('There are events in the queue.');
      const first = llm.requests.at(-2)!.body;
      expect((first.tools as { function: { name: string } }[]).map((x) => x.function.name)).toContain('clear_cache');
      const second = llm.requests.at(-1)!.body;
      expect(second.tools).toBeUndefined();
      expect(second.messages!.at(-1)).toMatchObject({ role: 'tool' });
      expect(second.messages!.at(-1)!.content).toContain('<data command="pending_review">');

      llm.set(() => toolCall('clear_cache', { caches: ['feeds'] }));
      const change = (await post('forget the feed validators')).json() as AssistantChatResponse;
      expect(change).toMatchObject({ commandExecuted: false, commandType: 'clear_cache', metadata: { action: 'proposed', engine: 'llm' } });
      expect(change.metadata.confirmToken).toBeTruthy();

      llm.set(() => toolCall('run_shell', { cmd: 'rm -rf /' }));
      const refused = (await post('do something')).json() as AssistantChatResponse;
      expect(refused).toMatchObject({ commandExecuted: false, commandType: null });
      expect(refused.response).toContain('not allowed');

      llm.set(() => ({ status: 500, body: 'down' }));
      const fallback = (await post('database status')).json() as AssistantChatResponse;
      expect(fallback).toMatchObject({ commandType: 'database_status', metadata: { engine: 'built-in' } });
    } finally {
      await m.app.close();
      await llm.close();
    }
  });
});
