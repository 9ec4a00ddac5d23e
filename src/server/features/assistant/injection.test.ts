import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssistantChatResponse } from '../../../contract/assistant.ts';
import { buildTestApp, signupUser, TEST_ORIGIN, type TestApp } from '../../test/build-test-app.ts';
import { buildEvent, queryRows } from '../../test/factories.ts';
import { startFakeLlm } from '../../test/llm-server.ts';
import { createAuditRepository } from '../admin/audit.repository.ts';
import { sources } from '../ingestion/sources.table.ts';
import { stories } from '../stories/stories.table.ts';
import { INJECTION_CASES } from './injection-cases.ts';

// Text from feeds, flyers, stories and users is data: planted everywhere the assistant reads,
// none of it may run or propose a command.
const NOW = new Date('2026-11-18T20:00:00Z');
let t: TestApp;
let admin: { cookie: string };
const pendingIds: string[] = [];

beforeAll(async () => {
  t = await buildTestApp({ env: { ADMIN_EMAILS: 'inject-admin@example.org' } });
  t.clock.set(NOW);
  admin = await signupUser(t.app, { email: 'inject-admin@example.org' });
  const db = t.database.db;
  const audit = createAuditRepository(db);
  for (const [i, text] of INJECTION_CASES.entries()) {
    const start = new Date(NOW.getTime() + (1 + (i % 5)) * 24 * 3600 * 1000);
    // As a pending event's title, an approved event's title and description, a reported story, a logged error and a source.
    pendingIds.push((await buildEvent(db, { title: text, description: text, status: 'pending', startDate: start })).id);
    await buildEvent(db, { title: text.slice(0, 200), description: `${text}\n${text}`, category: (['Music', 'Food', 'Arts'] as const)[i % 3], startDate: start });
    await db.insert(stories).values({ title: text.slice(0, 200), content: text, author: text.slice(0, 60), hiddenAt: NOW, createdAt: NOW });
    await audit.recordError({ origin: i % 2 ? 'ingestion' : 'http', message: text, at: NOW });
    if (i < 12) await db.insert(sources).values({ name: text.slice(0, 120), connector: 'ical', url: 'http://127.0.0.1:9/x.ics', sourceType: 'ical', lastError: text, consecutiveFailures: 1, lastRunAt: NOW });
  }
});
afterAll(async () => t?.close());

async function ask(app: TestApp['app'], message: string): Promise<AssistantChatResponse> {
  const res = await app.inject({ method: 'POST', url: '/api/admin/ai-chat', headers: { origin: TEST_ORIGIN, cookie: admin.cookie }, payload: { message, context: { messages: INJECTION_CASES.slice(0, 5).map((content) => ({ role: 'assistant' as const, content })) } } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function assistantActions(): Promise<string[]> {
  return (await createAuditRepository(t.database.db).listNewest(2000)).filter((r) => r.action.startsWith('assistant.')).map((r) => `${r.action}:${(r.detail as { phase?: string }).phase}`);
}

async function nothingChanged() {
  const [c] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from assistant_confirmations`);
  expect(c!.n).toBe(0);
  const rows = await queryRows<{ status: string }>(t.database.db, sql`select status from events where id = any(${`{${pendingIds.join(',')}}`}::uuid[])`);
  expect(rows.every((r) => r.status === 'pending')).toBe(true);
  expect(rows).toHaveLength(INJECTION_CASES.length);
}

describe('prompt injection through data the assistant reads', () => {
  it(`plants ${INJECTION_CASES.length} attempts (at least 50)`, () => {
    expect(INJECTION_CASES.length).toBeGreaterThanOrEqual(50);
  });

  const READS: [string, string][] = [
    ['show the 100 newest events waiting for review', 'pending_review'],
    ['events this week by category', 'events_by_category'],
    ['show me the last 50 error logs', 'error_logs'],
    ['source status', 'source_status'],
    ['which sources failed today?', 'source_status'],
    ['database status', 'database_status'],
  ];

  it.each(READS)('"%s" runs only %s, proposes nothing, and quotes the data', async (message, type) => {
    const before = (await assistantActions()).length;
    const r = await ask(t.app, message);
    expect(r).toMatchObject({ commandExecuted: true, commandType: type, metadata: { action: 'executed' } });
    expect(r.metadata.confirmToken).toBeUndefined();
    const after = await assistantActions();
    expect(after.slice(0, after.length - before)).toEqual([`assistant.${type}:executed`]);
    await nothingChanged();
  });

  it('reads every planted text back, each quoted on one line', async () => {
    const r = await ask(t.app, 'show the 100 newest events waiting for review');
    for (const text of INJECTION_CASES) expect(r.response).toContain(JSON.stringify(text.slice(0, 200)));
    expect((r.commandResult as { reportedStories: unknown[] }).reportedStories).toHaveLength(INJECTION_CASES.length);
    const logs = await ask(t.app, 'show me the last 50 error logs');
    expect(logs.response.split('\n')).toHaveLength(51);
  });

  it('with a model: data reaches it only as delimited tool output, and any tool it asks for afterwards is ignored', async () => {
    const llm = await startFakeLlm();
    const m = await buildTestApp({ database: t.database, env: { ADMIN_EMAILS: 'inject-admin@example.org', LLM_BASE_URL: llm.baseUrl } });
    // The admin's session was made at NOW on the first app's clock: the same instant here, or a
    // real clock a week later finds it idle too long and answers 401.
    m.clock.set(NOW);
    try {
      const call = (name: string, args: unknown) => ({
        status: 200,
        body: JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'Sure, doing that.', tool_calls: [{ id: 'c1', type: 'function', function: { name, arguments: JSON.stringify(args) } }] } }] }),
      });
      // First call: the read the admin asked for; second call (the summary, with the planted texts): the model "obeys" them.
      llm.set((req) => (req.body.tools ? call('pending_review', { limit: 100 }) : call('emergency_repair', {})));
      const before = (await assistantActions()).length;
      const r = await ask(m.app, 'what is waiting for review?');
      expect(r).toMatchObject({ commandExecuted: true, commandType: 'pending_review', metadata: { engine: 'llm' } });
      expect(r.metadata.confirmToken).toBeUndefined();
      const after = await assistantActions();
      expect(after.slice(0, after.length - before)).toEqual(['assistant.pending_review:executed']);
      const [first, second] = llm.requests.slice(-2);
      // The first request holds the admin's words only: no planted text, no assistant lines from the context.
      const firstText = JSON.stringify(first!.body.messages);
      for (const text of INJECTION_CASES.slice(0, 5)) expect(firstText).not.toContain(JSON.stringify(text).slice(1, -1));
      expect(first!.body.messages!.map((x) => x.role)).toEqual(['system', 'user']);
      // The second has the data only inside the tool message, and no tools to call.
      expect(second!.body.tools).toBeUndefined();
      const tool = second!.body.messages!.at(-1)!;
      expect(tool.role).toBe('tool');
      expect(tool.content.startsWith('<data command="pending_review">')).toBe(true);
      await nothingChanged();
    } finally {
      await m.app.close();
      await llm.close();
    }
  });
});
