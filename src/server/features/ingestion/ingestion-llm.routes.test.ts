import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { buildTestApp, signupUser, TEST_ORIGIN, type TestApp } from '../../test/build-test-app.ts';
import { queryRows } from '../../test/factories.ts';
import { startFeedServer, type Route } from '../../test/feed-server.ts';
import { answerEach, eventsOf, startFakeLlm } from '../../test/llm-server.ts';
import { openTestDatabase } from '../../test/test-db.ts';
import { classify, classifyFeed } from './classifier/classifier.ts';
import { LLM_CONFIDENCE_THRESHOLD } from './classifier/llm-classify.ts';

// The app with a language model configured (LLM_BASE_URL) at a local OpenAI-compatible endpoint.
const NOW = new Date('2026-11-23T18:00:00Z');

function ics(events: { uid: string; title: string; start: string }[]) {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Townbeat tests//EN'];
  for (const e of events) lines.push('BEGIN:VEVENT', `UID:${e.uid}`, 'DTSTAMP:20261101T000000Z', `DTSTART;TZID=America/Los_Angeles:${e.start}`, `SUMMARY:${e.title}`, 'END:VEVENT');
  lines.push('END:VCALENDAR');
  return lines.join('\r\n') + '\r\n';
}

// Titles the built-in classifier is unsure of (checked below) and one it is sure of.
const UNSURE_A = 'Gathering';
const UNSURE_B = 'Zzyzx';
const UNSURE_C = 'Xyzzy';
const SURE = 'Intro to Python workshop';

let t: TestApp;
let admin: string;
let feed = '';
let feeds: Awaited<ReturnType<typeof startFeedServer>>;
let llm: Awaited<ReturnType<typeof startFakeLlm>>;
/** Transactions open on the app's database right now. */
let openTransactions = 0;
/** The value of openTransactions when each model request arrived. */
let openAtRequest: number[] = [];

/** Counts open transactions, so a test can tell whether a model request was made inside one. */
function countTransactions(database: Database): Database {
  const db = database.db;
  const original = db.transaction.bind(db);
  db.transaction = (async (...args: Parameters<typeof original>) => {
    openTransactions += 1;
    try {
      return await original(...args);
    } finally {
      openTransactions -= 1;
    }
  }) as typeof db.transaction;
  return database;
}

beforeAll(async () => {
  const calendar: Route = (_req, res) => res.writeHead(200, { 'content-type': 'text/calendar' }).end(feed);
  const page: Route = (_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end(
      `<html><head><script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'Event', name: UNSURE_A, startDate: '2026-11-28T10:00:00-08:00' })}</script></head></html>`,
    );
  feeds = await startFeedServer({ '/feed.ics': calendar, '/event.html': page });
  llm = await startFakeLlm();
  t = await buildTestApp({
    database: countTransactions(await openTestDatabase()),
    env: { LLM_BASE_URL: llm.baseUrl, LLM_API_KEY: 'sk-local-test', LLM_MODEL: 'test-model' },
  });
  admin = (await signupUser(t.app)).cookie;
});
afterAll(async () => {
  await t.close();
  await feeds.close();
  await llm.close();
});
beforeEach(async () => {
  t.clock.set(NOW);
  await t.database.db.execute(sql`truncate sources, events, venues cascade`);
  llm.requests.length = 0;
  openAtRequest = [];
  // Wellness for UNSURE_A, an invalid label for anything else.
  llm.set((req) => {
    openAtRequest.push(openTransactions);
    return answerEach((e) => (e.title === UNSURE_A ? { category: 'Wellness', confidence: 0.9 } : { category: 'Party', confidence: 0.9 }))(req);
  });
});

const api = (method: 'GET' | 'POST', url: string, payload?: object, cookie = admin) =>
  t.app.inject({ method, url, headers: { origin: TEST_ORIGIN, cookie }, ...(payload ? { payload } : {}) });

async function runSource() {
  const created = await api('POST', '/api/admin/sources', { name: 'Hall', connector: 'ical', url: feeds.url('/feed.ics'), sourceType: 'ical', trusted: true });
  expect(created.statusCode).toBe(201);
  const id = (created.json() as { id: string }).id;
  const run = async () => (await api('POST', `/api/admin/sources/${id}/run`)).json() as { status: string; created: number };
  return { run, first: await run() };
}

const stored = () =>
  queryRows<{ title: string; category: string; category_confidence: number; status: string }>(
    t.database.db,
    sql`select title, category, category_confidence, status from events order by title`,
  );

it('uses titles the built-in classifier is unsure (and sure) of', () => {
  expect(classify({ title: UNSURE_A }).confidence).toBeLessThan(LLM_CONFIDENCE_THRESHOLD);
  expect(classify({ title: UNSURE_B }).confidence).toBeLessThan(LLM_CONFIDENCE_THRESHOLD);
  expect(classify({ title: UNSURE_C }).confidence).toBeLessThan(LLM_CONFIDENCE_THRESHOLD);
  expect(classify({ title: SURE }).confidence).toBeGreaterThanOrEqual(LLM_CONFIDENCE_THRESHOLD);
});

describe('a source run with a language model', () => {
  it('asks the model about unsure new events, outside the transaction, and stores its category', async () => {
    feed = ics([
      { uid: 'a', title: UNSURE_A, start: '20261125T190000' },
      { uid: 'b', title: UNSURE_B, start: '20261126T190000' },
      { uid: 'c', title: SURE, start: '20261127T190000' },
    ]);
    const { run, first } = await runSource();
    expect(first).toMatchObject({ status: 'success', created: 3 });

    expect(llm.requests).toHaveLength(1);
    const [req] = llm.requests;
    expect(req!.path).toBe('/v1/chat/completions');
    expect(req!.headers.authorization).toBe('Bearer sk-local-test');
    expect(req!.body.model).toBe('test-model');
    expect(eventsOf(req!).map((e) => e.title)).toEqual([UNSURE_A, UNSURE_B]);
    expect(openAtRequest).toEqual([0]);

    const rows = await stored();
    const byTitle = new Map(rows.map((r) => [r.title, r]));
    // The model's answer, confident enough for a trusted source to approve it.
    expect(byTitle.get(UNSURE_A)).toMatchObject({ category: 'Wellness', status: 'approved' });
    expect(byTitle.get(UNSURE_A)!.category_confidence).toBeCloseTo(0.9, 5);
    // An invalid label keeps the built-in result (the run's new items classified as one feed), which waits for review.
    const builtIn = classifyFeed([UNSURE_A, UNSURE_B, SURE].map((title) => ({ title })))[1]!;
    expect(byTitle.get(UNSURE_B)).toMatchObject({ category: builtIn.category, status: 'pending' });
    expect(byTitle.get(UNSURE_B)!.category_confidence).toBeCloseTo(builtIn.confidence, 4);
    expect(byTitle.get(SURE)).toMatchObject({ category: 'Tech', status: 'approved' });

    // The next run asks only about the event it has not seen before.
    feed = ics([
      { uid: 'a', title: UNSURE_A, start: '20261125T190000' },
      { uid: 'b', title: UNSURE_B, start: '20261126T190000' },
      { uid: 'c', title: SURE, start: '20261127T190000' },
      { uid: 'd', title: UNSURE_C, start: '20261128T190000' },
    ]);
    t.clock.advance(60_000);
    const second = await run();
    expect(second).toMatchObject({ status: 'success', created: 1 });
    expect(llm.requests).toHaveLength(2);
    expect(eventsOf(llm.requests[1]!).map((e) => e.title)).toEqual([UNSURE_C]);
  });

  it('stores the built-in categories when the model fails', async () => {
    llm.set(() => ({ status: 500, body: '{"error":{"message":"overloaded"}}' }));
    feed = ics([
      { uid: 'a', title: UNSURE_A, start: '20261125T190000' },
      { uid: 'c', title: SURE, start: '20261127T190000' },
    ]);
    const { first } = await runSource();
    expect(first).toMatchObject({ status: 'success', created: 2 });
    expect(llm.requests).toHaveLength(1);
    const rows = await stored();
    expect(rows.map((r) => [r.title, r.category])).toEqual([
      [UNSURE_A, classify({ title: UNSURE_A }).category],
      [SURE, 'Tech'],
    ]);
  });
});

describe('POST /api/events/import-url with a language model', () => {
  it('stores the model category of an unsure contribution', async () => {
    const member = await signupUser(t.app);
    const res = await api('POST', '/api/events/import-url', { url: feeds.url('/event.html') }, member.cookie);
    expect(res.statusCode).toBe(201);
    expect(openAtRequest).toEqual([0]);
    expect(await stored()).toMatchObject([{ title: UNSURE_A, category: 'Wellness', status: 'pending' }]);
  });
});

describe('POST /api/admin/classify with a language model', () => {
  it('answers the model category for unsure events and the built-in one for the rest', async () => {
    const res = await api('POST', '/api/admin/classify', { events: [{ title: SURE }, { title: UNSURE_A }, { title: UNSURE_B }] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([classify({ title: SURE }), { category: 'Wellness', confidence: 0.9 }, classify({ title: UNSURE_B })]);
    expect(llm.requests).toHaveLength(1);
    expect(eventsOf(llm.requests[0]!)).toEqual([
      { id: 0, title: UNSURE_A },
      { id: 1, title: UNSURE_B },
    ]);
  });
});

describe('GET /api/admin/ai-status with a language model', () => {
  it('names the configured model besides the built-in classifier figures', async () => {
    const res = await api('GET', '/api/admin/ai-status');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ model: expect.stringMatching(/built-in/i), accuracy: expect.any(Number), llm: { model: 'test-model' } });
  });
});
