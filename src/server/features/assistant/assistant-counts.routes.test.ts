import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssistantChatResponse } from '../../../contract/assistant.ts';
import { buildTestApp, signupUser, TEST_ORIGIN, type TestApp } from '../../test/build-test-app.ts';
import { buildEvent } from '../../test/factories.ts';

// The demo walk's clock: Friday 27 November 2026, 11 PM in Portland, already Saturday in UTC.
const NOW = new Date('2026-11-28T07:00:00Z');
const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;
const RANGE = { today: DAY, week: 7 * DAY, month: 30 * DAY };
let t: TestApp;
let admin: { cookie: string };

beforeAll(async () => {
  t = await buildTestApp({ env: { ADMIN_EMAILS: 'counts-admin@example.org' } });
  t.clock.set(NOW);
  admin = await signupUser(t.app, { email: 'counts-admin@example.org' });
  const db = t.database.db;
  const at = (ms: number) => new Date(NOW.getTime() + ms);
  // Hawthorne: a week of four cards (a two-date series is one; one under way counts, one over does not), a fifth later in the month.
  await buildEvent(db, { title: 'Porch Songs', category: 'Music', neighbourhood: 'Hawthorne', startDate: at(DAY) });
  await buildEvent(db, { title: 'Mural Walk', category: 'Arts', neighbourhood: 'hawthorne', startDate: at(3 * DAY) });
  await buildEvent(db, { title: 'Hawthorne Trivia', venueName: 'Bar Trivia', category: 'Music', neighbourhood: 'Hawthorne', startDate: at(2 * DAY) });
  await buildEvent(db, { title: 'Hawthorne Trivia', venueName: 'Bar Trivia', category: 'Music', neighbourhood: 'Hawthorne', startDate: at(5 * DAY) });
  await buildEvent(db, { title: 'Late Supper', category: 'Food', neighbourhood: 'Hawthorne', startDate: at(-HOUR), endDate: at(HOUR) });
  await buildEvent(db, { title: 'Evening Market', category: 'Food', neighbourhood: 'Hawthorne', startDate: at(-3 * HOUR), endDate: at(-HOUR) });
  await buildEvent(db, { title: 'Winter Choir', category: 'Music', neighbourhood: 'Hawthorne', startDate: at(20 * DAY) });
  await buildEvent(db, { title: 'Dropped Gig', category: 'Music', neighbourhood: 'Hawthorne', startDate: at(DAY), goneAt: at(-DAY) });
  // Downtown: Music twice in the month (a series counted once), Music after it, Food.
  await buildEvent(db, { title: 'Pioneer Square Carols', category: 'Music', neighbourhood: 'Downtown', startDate: at(2 * DAY) });
  await buildEvent(db, { title: 'Jazz Brunch', venueName: 'Brunch Hall', category: 'Music', neighbourhood: 'Downtown', startDate: at(6 * DAY) });
  await buildEvent(db, { title: 'Jazz Brunch', venueName: 'Brunch Hall', category: 'Music', neighbourhood: 'Downtown', startDate: at(13 * DAY) });
  await buildEvent(db, { title: 'New Year Prelude', category: 'Music', neighbourhood: 'Downtown', startDate: at(40 * DAY) });
  await buildEvent(db, { title: 'Food Cart Crawl', category: 'Food', neighbourhood: 'Downtown', startDate: at(5 * DAY) });
  await buildEvent(db, { title: 'Rust Night', category: 'Tech', neighbourhood: 'Sellwood', sourceType: 'meetup', startDate: at(DAY) });
  // Kerns: one class, starting just as the week's window closes (in the month, not in the week).
  await buildEvent(db, { title: 'Dawn Yoga', category: 'Wellness', neighbourhood: 'Kerns', startDate: at(7 * DAY) });
});
afterAll(async () => t?.close());

async function ask(message: string): Promise<AssistantChatResponse> {
  const res = await t.app.inject({ method: 'POST', url: '/api/admin/ai-chat', headers: { origin: TEST_ORIGIN, cookie: admin.cookie }, payload: { message } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const totalOf = (r: AssistantChatResponse) => (r.commandResult as { total: number }).total;

/** What Discover shows for the same filters: GET /api/events's total, its date range counted from now. */
async function discoverTotal(filters: { neighbourhood?: string; category?: string; sourceType?: string; window?: keyof typeof RANGE }): Promise<number> {
  const q = new URLSearchParams();
  if (filters.neighbourhood) q.set('neighbourhood', filters.neighbourhood);
  if (filters.category) q.set('category', filters.category);
  if (filters.sourceType) q.set('sourceType', filters.sourceType);
  if (filters.window) {
    q.set('startDate', NOW.toISOString());
    q.set('endDate', new Date(NOW.getTime() + RANGE[filters.window]).toISOString());
  }
  const res = await t.app.inject({ method: 'GET', url: `/api/events?${q}` });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['x-total-count-estimated']).toBeUndefined();
  return Number(res.headers['x-total-count']);
}

describe('event counts answer the question asked, as Discover counts', () => {
  it('counts the neighbourhood named, in any case, and no other', async () => {
    const r = await ask('How many events are there in Hawthorne this week?');
    expect(r).toMatchObject({ commandType: 'events_by_category', commandExecuted: true, commandResult: { window: 'week', filters: { neighbourhoods: ['Hawthorne'] } } });
    expect(totalOf(r)).toBe(await discoverTotal({ neighbourhood: 'Hawthorne', window: 'week' }));
    expect(totalOf(r)).toBe(4);
    expect(r.response).toMatch(/^4 events in Hawthorne in the next 7 days \(as Discover's "This week" lists them: a recurring event counted once/);
    const lower = await ask('how many events in hawthorne this week');
    expect(totalOf(lower)).toBe(4);
  });

  it('counts a category in a neighbourhood, a series once', async () => {
    const r = await ask('How many Music events are in Downtown this month?');
    expect(r).toMatchObject({ commandResult: { window: 'month', filters: { categories: ['Music'], neighbourhoods: ['Downtown'] } } });
    expect(totalOf(r)).toBe(await discoverTotal({ neighbourhood: 'Downtown', category: 'Music', window: 'month' }));
    expect(totalOf(r)).toBe(2);
    expect(r.response).toMatch(/^2 Music events in Downtown in the next 30 days/);
    expect(r.response).toContain('- Music: 2');
    expect(r.response).not.toContain('Food');
  });

  it('agrees with Discover city-wide, and never counts more in a month than listed now', async () => {
    for (const [message, window] of [['events today', 'today'], ['how many events are there this week?', 'week'], ['category breakdown for this month', 'month']] as const) {
      const r = await ask(message);
      expect(r.commandResult, message).toMatchObject({ window });
      expect(totalOf(r), message).toBe(await discoverTotal({ window }));
    }
    expect(totalOf(await ask('how many events are there this week?'))).toBe(8);
    const musicNow = await ask('How many Music events are there?');
    const musicMonth = await ask('How many Music events are there this month?');
    expect(totalOf(musicNow)).toBe(await discoverTotal({ category: 'Music' }));
    expect(totalOf(musicMonth)).toBe(await discoverTotal({ category: 'Music', window: 'month' }));
    expect([totalOf(musicNow), totalOf(musicMonth)]).toEqual([6, 5]);
    expect(musicNow.response).toMatch(/^6 Music events listed now \(a recurring event counted once\)/);
  });

  it("leaves out what starts just as a range's window closes, as Discover does", async () => {
    // Porch Songs and Rust Night start exactly 24 h from now, as "today" closes: Late Supper alone is under way in it.
    const today = await ask('events today');
    expect(totalOf(today)).toBe(await discoverTotal({ window: 'today' }));
    expect(totalOf(today)).toBe(1);
    const week = await ask('How many events are there in Kerns this week?');
    expect(totalOf(week)).toBe(await discoverTotal({ neighbourhood: 'Kerns', window: 'week' }));
    expect(totalOf(week)).toBe(0);
    expect(totalOf(await ask('How many events are there in Kerns this month?'))).toBe(1);
  });

  it('counts the whole listing when the question names the app or the city, not a place in it', async () => {
    const r = await ask('how many events in the system');
    expect(r).toMatchObject({ commandType: 'events_by_category', commandExecuted: true, commandResult: { window: 'all', filters: {} } });
    expect(totalOf(r)).toBe(await discoverTotal({}));
    expect(totalOf(r)).toBe(totalOf(await ask('how many events are there?')));
  });

  it('counts a source type named', async () => {
    const r = await ask('how many meetup events this week?');
    expect(r).toMatchObject({ commandResult: { filters: { sourceTypes: ['meetup'] } } });
    expect(totalOf(r)).toBe(await discoverTotal({ sourceType: 'meetup', window: 'week' }));
    expect(totalOf(r)).toBe(1);
  });

  it('says so when a place or kind named cannot be applied, counting nothing', async () => {
    const place = await ask('How many events are there in Tokyo this week?');
    expect(place).toMatchObject({ commandType: 'events_by_category', commandExecuted: false, commandResult: null, metadata: { action: 'unresolved' } });
    expect(place.response).toContain(`I can't count by "tokyo"`);
    expect(place.response).toContain('Hawthorne');
    const kind = await ask('how many free events this week?');
    expect(kind).toMatchObject({ commandExecuted: false, metadata: { action: 'unresolved' } });
    expect(kind.response).toContain('"free" events');
  });
});

describe('times are the city’s', () => {
  it('source status and the error log show Portland times, "today" is Portland’s day, and one run is "1 run"', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/sources',
      headers: { origin: TEST_ORIGIN, cookie: admin.cookie },
      payload: { name: 'Broken Hall Feed', connector: 'ical', url: 'http://127.0.0.1:9/feed.ics', sourceType: 'ical' },
    });
    expect(created.statusCode, created.body).toBe(201);
    await t.app.ingest.service.runSource(created.json().id, 'manual');

    const s = await ask('Which sources are failing?');
    expect(s.commandType).toBe('source_status');
    expect(s.response).toContain('1 source failed today (Fri, Nov 27):');
    expect(s.response).toContain('"Broken Hall Feed": 1 run today (Fri, Nov 27), 1 failed; last run Fri, Nov 27 · 11:00 PM');
    expect(s.response).not.toMatch(/\d{4}-\d\d-\d\dT/);

    const logs = await ask('View Error Logs');
    expect(logs.response).toContain('- Fri, Nov 27 · 11:00 PM [ingestion] "Broken Hall Feed:');
    expect(logs.response).not.toMatch(/\d{4}-\d\d-\d\dT/);
  });
});
