import { drizzle } from 'drizzle-orm/node-postgres';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../db/client.ts';
import * as schema from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { openTestDatabase } from '../../test/test-db.ts';
import { SKETCH_REFRESH_MS } from './events.repository.ts';

// Query shapes at city scale (issue 18): every query a kind of request runs on PostgreSQL reads
// events through an index, never by a sequential scan. 20,000 events, analysed, as autovacuum
// would leave them. PostgreSQL only: the plans are the server's (PGlite has no autovacuum and
// plans small tables differently), and CI runs this suite against one.
const PG = process.env.TEST_DATABASE_URL;

/**
 * Aggregates over the whole listing, read once per events version and clock bucket (never per
 * request): reading every upcoming row is what they are.
 */
const WHOLE_LISTING = [/max\("end_date" - "start_date"\)/, /select distinct "(category|source_type)"/, /^select count\(\*\)::int(, \(count\(\*\) filter \(where .*\)\)::int)? from "events" where \("events"."status" in \(\$1\) and "events"."end_date" > \$2 and "events"."gone_at" is null( and (not exists \(select 1 from "events" o .*|\("events"."series_prev_end" is null or .*))?\)$/s, /count\(\*\)::int from \(select distinct/, /select distinct lower\("neighbourhood"\)/, /^\s*select grouping\(sh, eh, cy, cx, category, source_type, other_source_types\)/];

const NOW = new Date('2026-11-22T20:00:00Z');
const DAY = 24 * 3600 * 1000;
const KINDS: [string, string][] = [
  ['default list', '/api/events?limit=24&offset=48'],
  ['category', '/api/events?limit=24&category=Music,Food&sortBy=date&offset=24'],
  ['category and sources', '/api/events?limit=24&category=Music,Food&sourceType=meetup,rss&sortBy=popularity&offset=24'],
  ['facets of sources', '/api/events/facets?search=jazz&sourceType=meetup'],
  ['ranked search', '/api/events?limit=24&search=jazz&sortBy=relevance'],
  ['ranked search, broad word', '/api/events?limit=24&search=night&sortBy=relevance'],
  ['search by date', `/api/events?limit=24&search=yoga&sortBy=date&startDate=${new Date(NOW.getTime() + 3 * DAY).toISOString()}&endDate=${new Date(NOW.getTime() + 10 * DAY).toISOString()}`],
  ['distance sort', '/api/events?limit=24&lat=45.52&lng=-122.66&radius=3&sortBy=distance&offset=24'],
  ['popularity, deep offset', '/api/events?limit=24&sortBy=popularity&offset=1200'],
  ['date window', `/api/events?limit=24&sortBy=date&startDate=${new Date(NOW.getTime() + 20 * DAY).toISOString()}&endDate=${new Date(NOW.getTime() + 21 * DAY).toISOString()}`],
  ['stats', '/api/events/stats'],
  ['facets with a search word', '/api/events/facets?search=music'],
  ['facets with a rare word', '/api/events/facets?search=theremin'],
];

describe.skipIf(!PG)('query shapes on PostgreSQL (skipped without TEST_DATABASE_URL: the plans asserted are the server’s)', () => {
  let t: TestApp;
  const captured: { sql: string; params: unknown[] }[] = [];

  beforeAll(async () => {
    const database = await openTestDatabase();
    const logger = { logQuery: (q: string, params: unknown[]) => void captured.push({ sql: q, params }) };
    const db = drizzle(database.pool!, { schema, logger }) as unknown as Db;
    t = await buildTestApp({ database: { ...database, db } });
    t.clock.set(NOW);
    await t.database.pool!.query(`
      insert into events (title, description, category, source_type, start_date, end_date, time_zone, venue_name, lat, lng, status, favorite_count, attendee_count)
      select (case when i % 1000 = 0 then 'Theremin' else (array['Jazz','Yoga','Trivia','Pottery','Music'])[1 + i % 5] end) || ' night ' || i,
        'Live ' || (array['music','yoga','art','food'])[1 + i % 4] || ' for neighbours in Portland.',
        (array['Music','Food','Arts','Wellness','Sports','Tech','Business','Other'])[1 + i % 8],
        (array['facebook','meetup','municipal','eventbrite','ical','rss'])[1 + i % 6],
        $1::timestamptz + ((i * 7919) % (90 * 96)) * interval '15 minutes',
        $1::timestamptz + ((i * 7919) % (90 * 96)) * interval '15 minutes' + interval '2 hours',
        'America/Los_Angeles', 'Venue ' || (i % 1500), 45.43 + ((i * 37) % 1000) / 6000.0, -122.8 + ((i * 53) % 1000) / 3300.0,
        'approved', i % 37, (i * 13) % 101
      from generate_series(1, 20000) as i`, [NOW.toISOString()]);
    // One in fifty is listed by a second source too, whose record ingestion merged into it.
    await t.database.pool!.query(`
      insert into events (title, description, category, source_type, start_date, end_date, time_zone, venue_name, lat, lng, status, premerge_status, merged_into)
      select title, description, category, case when source_type = 'meetup' then 'rss' else 'meetup' end, start_date, end_date, time_zone, venue_name, lat, lng, 'merged', 'approved', id
      from events where substring(title from '[0-9]+$')::int % 50 = 0`);
    await t.database.pool!.query('vacuum analyze events');
  }, 120_000);
  afterAll(async () => t?.close());

  /** The plans of the queries on events that the last request ran (not the whole-listing aggregates). */
  async function plansOfRequest(): Promise<string[]> {
    const plans: string[] = [];
    for (const q of captured.filter((c) => /\bfrom "events"/.test(c.sql) && !/^explain/i.test(c.sql) && !WHOLE_LISTING.some((re) => re.test(c.sql)))) {
      const { rows } = await t.database.pool!.query<{ 'QUERY PLAN': string }>(`explain ${q.sql}`, q.params);
      plans.push(rows.map((r) => r['QUERY PLAN']).join('\n'));
    }
    return plans;
  }

  /** A request whose total is an exact count of a small set: its answer and the count's plan. */
  async function exactCountOf(url: string) {
    captured.length = 0;
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count-estimated']).toBeUndefined();
    const count = captured.find((q) => /^select count\(\*\)::int from \(select 1 from "events"/.test(q.sql));
    expect(count, 'the exact count of a small set').toBeDefined();
    const { rows } = await t.database.pool!.query<{ 'QUERY PLAN': string }>(`explain ${count!.sql}`, count!.params);
    return { res, plan: rows.map((r) => r['QUERY PLAN']).join('\n') };
  }

  it.each(KINDS)('%s reads events through an index', async (_kind, url) => {
    captured.length = 0;
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    const queries = captured.filter((q) => /\bfrom "events"/.test(q.sql) && !/^explain/i.test(q.sql) && !WHOLE_LISTING.some((re) => re.test(q.sql)));
    // A broad facet is estimated from plans alone and reads no rows; every list reads some.
    if (url.startsWith('/api/events?')) expect(queries.length).toBeGreaterThan(0);
    const scans: string[] = [];
    for (const q of queries) {
      const { rows } = await t.database.pool!.query<{ 'QUERY PLAN': string }>(`explain ${q.sql}`, q.params);
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      if (/Seq Scan on events\b/.test(plan)) scans.push(`${q.sql.slice(0, 160)}…\n${plan}`);
    }
    expect(scans).toEqual([]);
  });

  it('asks the planner nothing for a new window, place or category, and once per word', async () => {
    const day = (d: number) => new Date(NOW.getTime() + d * DAY).toISOString();
    await t.app.inject({ method: 'GET', url: `/api/events?limit=24&search=pottery&sortBy=date&startDate=${day(1)}&endDate=${day(2)}` });
    captured.length = 0;
    for (const url of [
      `/api/events?limit=24&search=pottery&sortBy=date&startDate=${day(4)}&endDate=${day(6)}`,
      `/api/events?limit=24&search=pottery&sortBy=relevance&category=Arts`,
      `/api/events/facets?search=pottery&category=Food`,
      `/api/events?limit=24&startDate=${day(7)}&endDate=${day(9)}&category=Tech`,
      `/api/events?limit=24&lat=45.5&lng=-122.7&radius=2&sortBy=distance`,
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
    }
    expect(captured.filter((q) => /^explain/i.test(q.sql)).map((q) => q.sql.slice(0, 120))).toEqual([]);
  });

  it("keeps a word's planned matches past the 15 s of the totals, asking again in the background", async () => {
    const day = (d: number) => new Date(NOW.getTime() + d * DAY).toISOString();
    const explains = () => captured.filter((q) => /^explain/i.test(q.sql)).length;
    // The start of a refresh period no earlier request has reached, so the first asks and waits.
    const base = (Math.ceil(NOW.getTime() / SKETCH_REFRESH_MS) + 10) * SKETCH_REFRESH_MS;
    t.clock.set(new Date(base));
    await t.app.inject({ method: 'GET', url: `/api/events?limit=24&search=yoga&sortBy=date&startDate=${day(1)}&endDate=${day(3)}` });
    captured.length = 0;
    // A minute on (four buckets of the totals), a new window of the same word: no EXPLAIN.
    t.clock.set(new Date(base + 60_000));
    expect((await t.app.inject({ method: 'GET', url: `/api/events?limit=24&search=yoga&sortBy=date&startDate=${day(5)}&endDate=${day(8)}` })).statusCode).toBe(200);
    expect(explains()).toBe(0);
    // In the next period the last figure answers while the planner is asked again (the word and the title, once).
    t.clock.set(new Date(base + SKETCH_REFRESH_MS));
    expect((await t.app.inject({ method: 'GET', url: `/api/events?limit=24&search=yoga&sortBy=date&startDate=${day(9)}&endDate=${day(12)}` })).statusCode).toBe(200);
    await vi.waitFor(() => expect(explains()).toBe(2));
    t.clock.set(NOW);
  });

  it("counts a category within a radius from that category's latitude band", async () => {
    const { plan } = await exactCountOf('/api/events?limit=24&lat=45.5&lng=-122.66&radius=2&sortBy=distance&category=Business');
    expect(plan).toMatch(/Index Only Scan using events_upcoming_category_geo_idx/);
  });

  it("counts a source within a category and a window from the index entries, a merged record's source included", async () => {
    const [from, to] = [new Date(NOW.getTime() + 5 * DAY).toISOString(), new Date(NOW.getTime() + 15 * DAY).toISOString()];
    // No Music event's own record is meetup here: the count is of the meetup records merged into them.
    const { res, plan } = await exactCountOf(`/api/events?limit=24&category=Music&sourceType=meetup&startDate=${from}&endDate=${to}`);
    // Both types are tested on the listing index's entries: no row is read.
    expect(plan).toMatch(/Index Only Scan using events_(upcoming|cards)_\w+_idx/);
    expect(plan).toMatch(/other_source_types && '\{meetup\}'/);
    const { rows } = await t.database.pool!.query<{ own: number; any: number }>(
      `select count(*) filter (where e.source_type = 'meetup')::int as own, count(*)::int as any from events e
        where e.status = 'approved' and e.category = 'Music' and e.start_date < $2 and e.end_date > $1
          and (e.source_type = 'meetup' or exists (select 1 from events m where m.merged_into = e.id and m.status = 'merged' and m.source_type = 'meetup'))`,
      [from, to],
    );
    expect(rows[0]).toMatchObject({ own: 0 });
    expect(rows[0]!.any).toBeGreaterThan(0);
    expect(Number(res.headers['x-total-count'])).toBe(rows[0]!.any);
  });

  it("counts a place alone from the circle's box in the listed cards' GiST index, not a latitude band", async () => {
    const { res, plan } = await exactCountOf('/api/events?limit=24&lat=45.5&lng=-122.66&radius=1&sortBy=distance');
    expect(plan).toMatch(/Index Only Scan using events_cards_earth_idx/);
    // Every event of the circle is counted, the box's corners are not: the list pages to as many.
    let listed = 0;
    for (let offset = 0; ; offset += 24) {
      const page = (await t.app.inject({ method: 'GET', url: `/api/events?limit=24&lat=45.5&lng=-122.66&radius=1&sortBy=distance&offset=${offset}` })).json() as { distance: number }[];
      listed += page.length;
      for (const e of page) expect(e.distance).toBeLessThanOrEqual(1);
      if (page.length < 24) break;
    }
    expect(Number(res.headers['x-total-count'])).toBe(listed);
    expect(listed).toBeGreaterThan(24);
  });

  it("reads a rare word's matches and sorts them, rather than walking every card by date", async () => {
    captured.length = 0;
    const url = `/api/events?limit=10&search=theremin&sortBy=date&startDate=${new Date(NOW.getTime() + DAY).toISOString()}&endDate=${new Date(NOW.getTime() + 60 * DAY).toISOString()}`;
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    // One read of the matches: the page counts them as it sorts them (count(*) over ()), and the
    // total needs no second read.
    expect(captured.filter((q) => /^select count\(\*\)::int from \(select 1 from "events"/.test(q.sql))).toEqual([]);
    const plans = await plansOfRequest();
    expect(plans.join('\n')).toMatch(/WindowAgg/);
    // The count is every match's: paging to the end lists as many.
    const total = Number(res.headers['x-total-count']);
    expect(res.headers['x-total-count-estimated']).toBeUndefined();
    let listed = 0;
    for (let offset = 0; ; offset += 10) {
      const page = await t.app.inject({ method: 'GET', url: `${url}&offset=${offset}` });
      const n = (page.json() as unknown[]).length;
      listed += n;
      if (n < 10) break;
    }
    expect(total).toBeGreaterThan(10);
    expect(total).toBe(listed);
    // The page from the word's index, not through the dates' indexes.
    for (const plan of plans) {
      expect(plan).toMatch(/Bitmap Index Scan on events_(search|cards_words)_idx/);
      expect(plan).not.toMatch(/events_cards_start_idx|events_start_idx|events_status_end_idx/);
    }
  });

  it("finds a word among one category's cards from the index that holds both, not by ANDing two bitmaps", async () => {
    captured.length = 0;
    const res = await t.app.inject({ method: 'GET', url: '/api/events?limit=24&search=trivia&sortBy=relevance&category=Tech' });
    expect(res.statusCode).toBe(200);
    const plans = await plansOfRequest();
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans) {
      expect(plan).toMatch(/Bitmap Index Scan on events_cards_words_idx/);
      expect(plan).not.toMatch(/BitmapAnd/);
    }
  });

  it("finds a word among one source's cards, a merged record's source included, from the words index", async () => {
    captured.length = 0;
    const res = await t.app.inject({ method: 'GET', url: '/api/events?limit=24&search=theremin&sortBy=date&sourceType=meetup' });
    // Every Theremin event here is one a meetup record was merged into (one in fifty has one).
    expect(res.statusCode).toBe(200);
    expect((res.json() as unknown[]).length).toBeGreaterThan(0);
    const plans = await plansOfRequest();
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans) expect(plan).toMatch(/Index Cond: \(\(\(ARRAY\[source_type\] \|\| other_source_types\) && '\{meetup\}'::text\[\]\) AND \(search @@/);
  });

  it('keeps the whole-listing aggregates out of the per-request path (cached per events version)', async () => {
    await t.app.inject({ method: 'GET', url: '/api/events/stats' });
    captured.length = 0;
    await t.app.inject({ method: 'GET', url: '/api/events/stats' });
    expect(captured.filter((q) => WHOLE_LISTING.some((re) => re.test(q.sql)))).toEqual([]);
  });
});
