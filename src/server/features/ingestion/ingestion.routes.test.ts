import dns from 'node:dns';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, signupUser, TEST_ORIGIN, type TestApp } from '../../test/build-test-app.ts';
import { queryRows } from '../../test/factories.ts';
import { startFeedServer, type Route } from '../../test/feed-server.ts';
import { feedRoute, icsCalendar } from '../../test/ics.ts';
import { DEMO_SOURCES } from './demo/demo-fetch.ts';
import { createSafeFetch, type Resolver } from './fetch/safe-fetch.ts';
import { SUDDEN_DROP_HOLD_HOURS, SUDDEN_DROP_KEPT } from './ingestion.service.ts';
import { createSourcesRepository } from './sources.repository.ts';

// A fixed "now" in Portland; feeds below describe the following days.
const NOW = new Date('2026-11-23T18:00:00Z');

const ics = icsCalendar;

let t: TestApp;
let admin: string;
let feeds: Record<string, string> = {};
let whileSheetIsRead: (() => Promise<unknown>) | null = null;
let server: Awaited<ReturnType<typeof startFeedServer>>;
const route = (name: string) => feedRoute(() => feeds, name);

beforeAll(async () => {
  const page = (body: string): Route => (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(body);
  server = await startFeedServer({
    '/venue.ics': route('venue'),
    '/listings.ics': route('listings'),
    // A sheet served with a validator, answering 304 to a request that sends it back.
    '/sheet.csv': async (req, res) => {
      // What happens while the run is reading the sheet (once).
      const during = whileSheetIsRead;
      whileSheetIsRead = null;
      await during?.();
      const body = feeds.sheet ?? '';
      const etag = `"${body.length}-${[...body].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, 0)}"`;
      if (req.headers['if-none-match'] === etag) res.writeHead(304, { etag }).end();
      else res.writeHead(200, { 'content-type': 'text/csv', etag }).end(body);
    },
    '/event.html': page(`<html><head><script type="application/ld+json">${JSON.stringify({
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: 'Neighbourhood Clean-up Day',
      startDate: '2026-11-28T10:00:00-08:00',
      location: { '@type': 'Place', name: 'Laurelhurst Park', address: 'SE Cesar E Chavez Blvd, Portland' },
    })}</script></head><body></body></html>`),
    '/nothing.html': page('<html><body><p>No events here</p></body></html>'),
  });
  // The real fetch; names under .invalid (RFC 6761) fail to resolve as they would, without asking DNS.
  const resolve: Resolver = (name) =>
    name.endsWith('.invalid')
      ? Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' }))
      : dns.promises.lookup(name, { all: true, verbatim: true });
  t = await buildTestApp({ fetch: createSafeFetch({ allowPrivate: true, resolve }) });
  admin = (await signupUser(t.app)).cookie;
});
afterAll(async () => {
  await t.close();
  await server.close();
});
beforeEach(async () => {
  t.clock.set(NOW);
  // Each test's runs count on their own against the admin's limit of runs a minute.
  await t.database.db.execute(sql`truncate sources, events, venues, rate_limits cascade`);
  feeds = {};
});

const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, cookie = admin) =>
  t.app.inject({ method, url, headers: { origin: TEST_ORIGIN, cookie }, ...(payload ? { payload } : {}) });

async function addSource(name: string, path: string, extra: object = {}) {
  const res = await api('POST', '/api/admin/sources', { name, connector: 'ical', url: server.url(path), sourceType: 'ical', trusted: true, ...extra });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string };
}
const titles = async () => (await queryRows<{ title: string }>(t.database.db, sql`select title from events where gone_at is null and status <> 'merged' order by start_date, title`)).map((r) => r.title);

describe('sources API', () => {
  it('is for admins only', async () => {
    const user = await signupUser(t.app);
    expect((await api('GET', '/api/admin/sources', undefined, user.cookie)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/sources' })).statusCode).toBe(401);
  });

  it('validates new sources, naming the field', async () => {
    const res = await api('POST', '/api/admin/sources', { name: '', connector: 'fax', sourceType: 'Bad Type', intervalMinutes: 30 });
    expect(res.statusCode).toBe(400);
    expect(res.json().issues.map((i: { path: string }) => i.path)).toEqual(expect.arrayContaining(['body.name', 'body.connector', 'body.sourceType', 'body.intervalMinutes']));
  });

  it('masks credentials in config and keeps them when the mask is sent back', async () => {
    const created = await api('POST', '/api/admin/sources', { name: 'TM', connector: 'ticketmaster', sourceType: 'ticketmaster', config: { apiKey: 'secret-key', city: 'Portland' } });
    expect(created.json().config).toEqual({ apiKey: '••••••', city: 'Portland' });
    const patched = await api('PATCH', `/api/admin/sources/${created.json().id}`, { config: { apiKey: '••••••', city: 'Salem' }, enabled: false });
    expect(patched.json()).toMatchObject({ enabled: false, config: { apiKey: '••••••', city: 'Salem' } });
    const [row] = await queryRows<{ config: { apiKey: string } }>(t.database.db, sql`select config from sources where id = ${created.json().id}`);
    expect(row!.config.apiKey).toBe('secret-key');
  });

  it('takes an uploaded CSV of up to 10 MB, keeps its rows out of responses, and runs it', async () => {
    const rows = ['Event name,When,Where', 'Harbor Cleanup,2026-11-28 10:00,Waterfront Park', 'Soup Night,2026-11-29 18:00,Kerns Hall'];
    const created = await api('POST', '/api/admin/sources', { name: 'Sheet', connector: 'csv', sourceType: 'municipal', config: { csv: rows.join('\n'), mapping: { title: 'Event name', start: 'When', venue: 'Where' }, dateFormat: 'iso' } });
    expect(created.statusCode).toBe(201);
    expect(created.json().config).toEqual({ csv: '••••••', mapping: { title: 'Event name', start: 'When', venue: 'Where' }, dateFormat: 'iso' });
    // Saving the form as shown keeps the stored rows.
    const id = created.json().id as string;
    await api('PATCH', `/api/admin/sources/${id}`, { config: { ...created.json().config, dateFormat: 'us' } });
    const [row] = await queryRows<{ config: { csv: string; dateFormat: string } }>(t.database.db, sql`select config from sources where id = ${id}`);
    expect(row!.config).toMatchObject({ csv: rows.join('\n'), dateFormat: 'us' });
    expect((await api('POST', `/api/admin/sources/${id}/run`)).json()).toMatchObject({ status: 'success', created: 2 });
    expect(await titles()).toEqual(['Harbor Cleanup', 'Soup Night']);

    const big = 'title,start\n' + 'Long row,2026-11-28 10:00\n'.repeat(Math.ceil((10 * 1024 * 1024) / 25));
    const tooBig = await api('POST', '/api/admin/sources', { name: 'Huge', connector: 'csv', sourceType: 'municipal', config: { csv: big, mapping: { title: 'title', start: 'start' } } });
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().message).toContain('config.csv must be at most 10 MB');
  });
});

describe('a source that could never run', () => {
  const sourceRows = () => queryRows<{ name: string; connector: string; url: string | null; config: Record<string, unknown> }>(t.database.db, sql`select name, connector, url, config from sources order by name`);
  const MAPPING = { title: 'Event', start: 'When' };
  /** A 400 that names the field in its message and at its field, for the form. */
  const refusedAt = (res: { statusCode: number; json(): unknown }, path: string, message: string) => {
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'invalid', message, issues: [{ path: `body.${path}`, message }] });
  };

  it("is refused when added without what its connector cannot run without, naming the field, and nothing is written", async () => {
    const cases: [body: object, path: string, message: string][] = [
      [{ connector: 'ical' }, 'url', 'url is required for an iCalendar source'],
      [{ connector: 'rss' }, 'url', 'url is required for an RSS source'],
      [{ connector: 'jsonld' }, 'url', 'url is required for a JSON-LD source'],
      [{ connector: 'csv', url: 'https://city.example/events.csv' }, 'config.mapping', 'config.mapping is required for a CSV source: which column holds each field, at least title and start'],
      [{ connector: 'csv', url: 'https://city.example/events.csv', config: { mapping: { title: 'Event' } } }, 'config.mapping.start', 'config.mapping.start is required for a CSV source'],
      [{ connector: 'csv', url: 'https://city.example/events.csv', config: { mapping: { title: '', start: 'When' } } }, 'config.mapping.title', 'config.mapping.title is required for a CSV source'],
      [{ connector: 'csv', url: 'https://city.example/events.csv', config: { mapping: { ...MAPPING, venue: 3 } } }, 'config.mapping.venue', 'config.mapping.venue must be a column name'],
      [{ connector: 'csv', url: 'https://city.example/events.csv', config: { mapping: MAPPING, dateFormat: 'klingon' } }, 'config.dateFormat', 'config.dateFormat must be "iso", "us" or "eu"'],
      [{ connector: 'csv', config: { mapping: MAPPING } }, 'url', 'url is required for a CSV source whose file is not uploaded (config.csv)'],
      [{ connector: 'eventbrite', config: { organizerId: '1' } }, 'config.token', 'config.token is required for an Eventbrite source'],
      [{ connector: 'eventbrite', config: { token: '  ', organizerId: '1' } }, 'config.token', 'config.token is required for an Eventbrite source'],
      [{ connector: 'eventbrite', config: { token: 't' } }, 'config.organizerId', 'config.organizerId: set organizerId or venueId (exactly one)'],
      [{ connector: 'eventbrite', url: 'webcal://www.eventbriteapi.com/v3', config: { token: 't', organizerId: '1' } }, 'url', 'url: only http and https addresses can be read by an Eventbrite source'],
      [{ connector: 'meetup', config: { groupUrlname: 'pdx-hikers' } }, 'config.token', 'config.token is required for a Meetup source'],
      [{ connector: 'meetup', config: { token: 't' } }, 'config.groupUrlname', 'config.groupUrlname is required for a Meetup source'],
      [{ connector: 'ticketmaster', config: { city: 'Portland' } }, 'config.apiKey', 'config.apiKey is required for a Ticketmaster source'],
      [{ connector: 'ticketmaster', config: { apiKey: 'k' } }, 'config.city', 'config.city: set city or latlong'],
      [{ connector: 'socrata', config: { dataset: 'ydr8-5enu', mapping: { title: 'name', start: 'date' } } }, 'url', 'url or config.domain is required for a Socrata source: the open-data portal, e.g. https://data.example.gov'],
      [{ connector: 'socrata', url: 'https://data.example.gov', config: { mapping: { title: 'name', start: 'date' } } }, 'config.dataset', 'config.dataset is required for a Socrata source'],
      [{ connector: 'socrata', url: 'https://data.example.gov', config: { dataset: 'events', mapping: { title: 'name', start: 'date' } } }, 'config.dataset', 'config.dataset must be a dataset id such as ydr8-5enu'],
      [{ connector: 'socrata', url: 'https://data.example.gov', config: { dataset: 'ydr8-5enu', mapping: { title: 'name' } } }, 'config.mapping.start', 'config.mapping.start is required for a Socrata source'],
      [{ connector: 'ckan', config: { resourceId: 'events', mapping: { title: 'name', start: 'date' } } }, 'url', 'url is required for a CKAN source: the CKAN site, e.g. https://data.example.gov'],
      [{ connector: 'ckan', url: 'https://data.example.gov', config: { resourceId: 'events' } }, 'config.mapping', 'config.mapping is required for a CKAN source'],
      [{ connector: 'gancio' }, 'url', 'url is required for a Gancio source: the instance, e.g. https://gancio.example.org'],
      [{ connector: 'mobilizon' }, 'url', 'url is required for a Mobilizon source: the instance, e.g. https://mobilizon.example.org'],
      [{ connector: 'mobilizon', url: 'https://mobilizon.example.org', config: { groupSlug: 'tool library' } }, 'config.groupSlug', 'config.groupSlug must be a group name such as pdx_tool_library (or name@instance)'],
    ];
    for (const [body, path, message] of cases) {
      const res = await api('POST', '/api/admin/sources', { name: 'Never runs', sourceType: 'ical', ...body });
      refusedAt(res, path, message);
    }
    expect(await sourceRows()).toEqual([]);
  });

  it('is refused at an address that is not http or https; a webcal link is read as https', async () => {
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'ftp://127.0.0.1/x.ics', 'demo://feeds/pdx-music-venues.ics']) {
      const res = await api('POST', '/api/admin/sources', { name: 'Odd address', connector: 'ical', url, sourceType: 'ical' });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual({ code: 'invalid', message: 'body.url: only http and https addresses can be read', issues: [{ path: 'body.url', message: 'only http and https addresses can be read' }] });
    }
    expect(await sourceRows()).toEqual([]);
    const id = (await addSource('Doug Fir', '/venue.ics')).id;
    const ftp = await api('PATCH', `/api/admin/sources/${id}`, { url: 'ftp://127.0.0.1/x.ics' });
    expect(ftp.statusCode).toBe(400);
    expect(ftp.json().message).toBe('body.url: only http and https addresses can be read');
    expect((await sourceRows())[0]!.url).toBe(server.url('/venue.ics'));
    expect((await api('POST', '/api/admin/sources', { name: 'Subscribed', connector: 'ical', url: 'webcal://city.example/events.ics', sourceType: 'ical' })).statusCode).toBe(201);
  });

  it('says which field is missing or unknown, by name', async () => {
    const noType = await api('POST', '/api/admin/sources', { name: 'No type', connector: 'ical', url: 'https://city.example/events.ics' });
    expect(noType.statusCode).toBe(400);
    expect(noType.json().message).toBe('body.sourceType: sourceType is required');
    const noConnector = await api('POST', '/api/admin/sources', { name: 'No connector', url: 'https://city.example/events.ics', sourceType: 'ical' });
    expect(noConnector.json().message).toBe('body.connector: connector is required');
    const demo = await api('POST', '/api/admin/sources', { name: 'Self-made demo', connector: 'ical', url: 'https://city.example/events.ics', sourceType: 'ical', isDemo: true });
    expect(demo.statusCode).toBe(400);
    expect(demo.json().message).toBe('body: isDemo: not a field of a new source (name, connector, url, sourceType, intervalMinutes, trusted, enabled, config)');
    expect(await sourceRows()).toEqual([]);

    const id = (await addSource('Doug Fir', '/venue.ics')).id;
    for (const connector of ['bogus', 'rss']) {
      const res = await api('PATCH', `/api/admin/sources/${id}`, { connector, name: 'Renamed' });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('body: connector: not a field a source edit can change (name, url, sourceType, intervalMinutes, trusted, enabled, config)');
    }
    expect(await sourceRows()).toMatchObject([{ name: 'Doug Fir', connector: 'ical' }]);
  });

  it('is refused when an edit would leave it unable to run, judged with the stored secrets; an edit of its name alone stays fine', async () => {
    const ical = (await addSource('Doug Fir', '/venue.ics')).id;
    refusedAt(await api('PATCH', `/api/admin/sources/${ical}`, { url: null }), 'url', 'url is required for an iCalendar source');
    expect((await api('PATCH', `/api/admin/sources/${ical}`, { name: 'Doug Fir Lounge' })).statusCode).toBe(200);

    const eb = await api('POST', '/api/admin/sources', { name: 'Eventbrite', connector: 'eventbrite', sourceType: 'eventbrite', config: { token: 'PRIVATE', organizerId: '40211928374' } });
    expect(eb.statusCode).toBe(201);
    const ebId = eb.json().id as string;
    // A config sent replaces the stored one: without the token it could not run.
    refusedAt(await api('PATCH', `/api/admin/sources/${ebId}`, { config: { organizerId: '40211928374' } }), 'config.token', 'config.token is required for an Eventbrite source');
    // The masked token sent back stands for the stored one.
    const swapped = await api('PATCH', `/api/admin/sources/${ebId}`, { config: { ...eb.json().config, organizerId: undefined, venueId: '287364519' } });
    expect(swapped.statusCode, swapped.body).toBe(200);

    const sheet = (await api('POST', '/api/admin/sources', { name: 'Sheet', connector: 'csv', url: server.url('/sheet.csv'), sourceType: 'municipal', config: { mapping: MAPPING } })).json().id as string;
    refusedAt(await api('PATCH', `/api/admin/sources/${sheet}`, { config: { mapping: MAPPING, dateFormat: 'klingon' } }), 'config.dateFormat', 'config.dateFormat must be "iso", "us" or "eu"');
    refusedAt(await api('PATCH', `/api/admin/sources/${sheet}`, { url: null }), 'url', 'url is required for a CSV source whose file is not uploaded (config.csv)');

    expect(await sourceRows()).toEqual([
      { name: 'Doug Fir Lounge', connector: 'ical', url: server.url('/venue.ics'), config: {} },
      { name: 'Eventbrite', connector: 'eventbrite', url: null, config: { token: 'PRIVATE', venueId: '287364519' } },
      { name: 'Sheet', connector: 'csv', url: server.url('/sheet.csv'), config: { mapping: MAPPING } },
    ]);
  });

  it('can still be renamed, paused or re-timed when saved before these checks, and a demo source edited', async () => {
    const legacy = await t.app.ingest.sources.insert({ name: 'Old feed', connector: 'ical', url: null, sourceType: 'ical', config: {} });
    expect((await api('PATCH', `/api/admin/sources/${legacy.id}`, { name: 'Old feed (paused)', enabled: false, intervalMinutes: 15 })).statusCode).toBe(200);
    refusedAt(await api('PATCH', `/api/admin/sources/${legacy.id}`, { config: {} }), 'url', 'url is required for an iCalendar source');

    const parks = DEMO_SOURCES.find((s) => s.connector === 'csv')!;
    const demo = await t.app.ingest.sources.insert({ ...parks, isDemo: true });
    const edited = await api('PATCH', `/api/admin/sources/${demo.id}`, { name: 'Parks', enabled: false, config: { ...parks.config, dateFormat: 'us' } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ url: parks.url, isDemo: true, enabled: false, config: { dateFormat: 'us' } });
  });
});

describe('a source of each connector', () => {
  it('is saved given exactly what its connector needs, and refused without the part it cannot run without', async () => {
    const mapping = { title: 'name', start: 'date' };
    // Each source as it runs; the part it needs, taken out; and the words the refusal names it with.
    const cases: [body: { connector: string; url?: string; config?: Record<string, unknown> }, needs: string, says?: string][] = [
      [{ connector: 'ical', url: 'https://city.example/events.ics' }, 'url'],
      [{ connector: 'rss', url: 'https://city.example/events.rss' }, 'url'],
      [{ connector: 'jsonld', url: 'https://city.example/events' }, 'url'],
      [{ connector: 'csv', url: 'https://city.example/events.csv', config: { mapping: { title: 'Event', start: 'When', venue: '' }, dateFormat: 'eu' } }, 'mapping', 'config.mapping'],
      [{ connector: 'csv', config: { csv: 'Event,When\nPicnic,2026-11-28 12:00\n', mapping: { title: 'Event', start: 'When' } } }, 'csv', 'url is required for a CSV source whose file is not uploaded'],
      [{ connector: 'eventbrite', config: { token: 't', venueId: 287364519 } }, 'token', 'config.token'],
      [{ connector: 'meetup', config: { token: 't', groupUrlname: 'pdx-hikers' } }, 'groupUrlname', 'config.groupUrlname'],
      [{ connector: 'ticketmaster', url: 'https://app.ticketmaster.com/discovery/v2', config: { apiKey: 'k', latlong: '45.52,-122.68', radius: 10 } }, 'apiKey', 'config.apiKey'],
      [{ connector: 'socrata', config: { domain: 'data.example.gov', dataset: 'ydr8-5enu', mapping } }, 'domain', 'url or config.domain'],
      [{ connector: 'socrata', url: 'https://data.example.gov', config: { dataset: 'ydr8-5enu', mapping } }, 'url', 'url or config.domain'],
      [{ connector: 'ckan', url: 'https://data.example.gov', config: { resourceId: 'events', mapping } }, 'resourceId', 'config.resourceId'],
      [{ connector: 'gancio', url: 'https://gancio.example.org' }, 'url'],
      [{ connector: 'mobilizon', url: 'https://mobilizon.example.org', config: { groupSlug: 'pdx_tool_library' } }, 'url'],
    ];
    for (const [i, [body, needs, says = needs]] of cases.entries()) {
      const saved = await api('POST', '/api/admin/sources', { name: `Source ${i}`, sourceType: 'municipal', ...body });
      expect(saved.statusCode, saved.body).toBe(201);
      const { [needs]: _taken, ...config } = body.config ?? {};
      const without = needs === 'url' ? { ...body, url: undefined } : { ...body, config };
      const refused = await api('POST', '/api/admin/sources', { name: `Source ${i} without ${needs}`, sourceType: 'municipal', ...without });
      expect(refused.statusCode, `${body.connector} without ${needs}`).toBe(400);
      expect(refused.json().message).toContain(says);
    }
    expect((await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from sources`))[0]!.n).toBe(cases.length);
  });
});

describe('a held sudden drop', () => {
  it('is dated from its first run whether that run noted it in the words of now or of before', async () => {
    const src = await addSource('Doug Fir', '/venue.ics');
    const repo = createSourcesRepository(t.database.db);
    const before = `were missing from this run, most of what the source lists: kept listed until they have been missing for ${SUDDEN_DROP_HOLD_HOURS} hours`;
    const at = (h: number) => new Date(NOW.getTime() + h * 3600_000);
    const run = (h: number, reason: string | null) =>
      repo.insertRun({ sourceId: src.id, startedAt: at(h), finishedAt: at(h), status: 'success', trigger: 'schedule', notes: reason ? [{ kind: 'kept', reason, count: 5, examples: [] }] : [] });
    await run(-3, null);
    await run(-2, before);
    await run(-1, SUDDEN_DROP_KEPT);
    expect(await repo.heldSince(src.id, [SUDDEN_DROP_KEPT, before])).toEqual(at(-2));
  });
});

describe('a run', () => {
  it('reads the whole source again after its config changes, without the feed changing: the new mapping reaches the events', async () => {
    feeds.sheet = [
      'Event,When,Ends,Where,Cost,About',
      'Harbor Cleanup,2026-11-28 10:00,2026-11-28 13:00,Waterfront Park,$5,Bring gloves',
      'Soup Night,2026-11-29 18:00,2026-11-29 20:00,Kerns Hall,$12,Soup for all',
      // Read with the new mapping it says no more than before but its end, which is the default
      // one's: only the flag tells the source's end from a default, and the item's hash leaves it out.
      'Open Mic,2026-11-30 19:00,2026-11-30 21:00,,,',
    ].join('\n');
    const created = await api('POST', '/api/admin/sources', { name: 'Sheet', connector: 'csv', url: server.url('/sheet.csv'), sourceType: 'municipal', trusted: true, config: { mapping: { title: 'Event', start: 'When' } } });
    const id = created.json().id as string;
    expect((await api('POST', `/api/admin/sources/${id}/run`)).json()).toMatchObject({ status: 'success', created: 3 });
    t.clock.advance(60_000);
    expect((await api('POST', `/api/admin/sources/${id}/run`)).json()).toMatchObject({ status: 'not_modified' });
    const read = () => queryRows<{ title: string; venue_name: string; price: string | null; end_date: Date; end_given: boolean; description: string }>(t.database.db, sql`select title, venue_name, price, end_date, end_given, description from events order by start_date`);
    expect((await read()).map((e) => [e.venue_name, e.price, e.end_given])).toEqual([['', null, false], ['', null, false], ['', null, false]]);

    const mapping = { title: 'Event', start: 'When', end: 'Ends', venue: 'Where', price: 'Cost', description: 'About' };
    const saved = await api('PATCH', `/api/admin/sources/${id}`, { config: { mapping } });
    expect(saved.json().health).toMatchObject({ etag: null, lastModified: null });
    t.clock.advance(60_000);
    expect((await api('POST', `/api/admin/sources/${id}/run`)).json()).toMatchObject({ status: 'success', fetched: 3, created: 0, updated: 3 });
    expect((await read()).map((e) => ({ ...e, end_date: new Date(e.end_date).toISOString(), price: e.price === null ? null : Number(e.price) }))).toEqual([
      { title: 'Harbor Cleanup', venue_name: 'Waterfront Park', price: 5, end_date: '2026-11-28T21:00:00.000Z', end_given: true, description: 'Bring gloves' },
      { title: 'Soup Night', venue_name: 'Kerns Hall', price: 12, end_date: '2026-11-30T04:00:00.000Z', end_given: true, description: 'Soup for all' },
      { title: 'Open Mic', venue_name: '', price: null, end_date: '2026-12-01T05:00:00.000Z', end_given: true, description: '' },
    ]);

    // Saving it as it is changes nothing of how it is read: the next run hears 'not modified'.
    expect((await api('PATCH', `/api/admin/sources/${id}`, { config: { mapping: { ...mapping } }, url: server.url('/sheet.csv') })).json().health.etag).not.toBeNull();
    t.clock.advance(60_000);
    expect((await api('POST', `/api/admin/sources/${id}/run`)).json()).toMatchObject({ status: 'not_modified' });
  });

  it('a config saved while a run reads the source the old way still reaches the events on the next run', async () => {
    feeds.sheet = ['Event,When,Where', 'Harbor Cleanup,2026-11-28 10:00,Waterfront Park', 'Soup Night,2026-11-29 18:00,Kerns Hall'].join('\n');
    const id = (await api('POST', '/api/admin/sources', { name: 'Sheet', connector: 'csv', url: server.url('/sheet.csv'), sourceType: 'municipal', trusted: true, config: { mapping: { title: 'Event', start: 'When' } } })).json().id as string;
    expect((await api('POST', `/api/admin/sources/${id}/run`)).json()).toMatchObject({ status: 'success', created: 2 });
    const venues = () => queryRows<{ venue_name: string }>(t.database.db, sql`select venue_name from events order by start_date`).then((rows) => rows.map((r) => r.venue_name));
    const mapping = { title: 'Event', start: 'When', venue: 'Where' };

    // A run that reads the unchanged sheet (not modified) while the admin saves the new mapping.
    t.clock.advance(60_000);
    whileSheetIsRead = () => api('PATCH', `/api/admin/sources/${id}`, { config: { mapping } });
    expect((await api('POST', `/api/admin/sources/${id}/run`)).json()).toMatchObject({ status: 'not_modified' });
    expect(whileSheetIsRead).toBeNull();
    expect((await api('GET', '/api/admin/sources')).json().find((s: { id: string }) => s.id === id).health).toMatchObject({ etag: null, lastModified: null });
    t.clock.advance(60_000);
    expect((await api('POST', `/api/admin/sources/${id}/run`)).json()).toMatchObject({ status: 'success', updated: 2 });
    expect(await venues()).toEqual(['Waterfront Park', 'Kerns Hall']);

    // A run that stores the changed sheet read with the old mapping, while the admin saves a new one.
    feeds.sheet += '\nOpen Mic,2026-11-30 19:00,Alberta Rose';
    t.clock.advance(60_000);
    whileSheetIsRead = () => api('PATCH', `/api/admin/sources/${id}`, { config: { mapping: { title: 'Event', start: 'When' } } });
    expect((await api('POST', `/api/admin/sources/${id}/run`)).json()).toMatchObject({ status: 'success', created: 1 });
    // It stored what it read (the old mapping, venues), but the next run reads the sheet whole and applies every item anew.
    expect(await venues()).toEqual(['Waterfront Park', 'Kerns Hall', 'Alberta Rose']);
    t.clock.advance(60_000);
    expect((await api('POST', `/api/admin/sources/${id}/run`)).json()).toMatchObject({ status: 'success', fetched: 3, updated: 3 });
    expect(await venues()).toEqual(['', '', '']);
  });

  it('creates events, then updates changed ones, and reports its summary and health', async () => {
    feeds.venue = ics([
      { uid: 'a@venue', title: 'Jazz Night with the Blue Trio', start: '20261125T190000', location: 'Doug Fir Lounge, 830 E Burnside St, Buckman', geo: '45.5225;-122.6574' },
      { uid: 'b@venue', title: 'Pottery for beginners', start: '20261126T180000', location: 'Doug Fir Lounge, Buckman' },
    ]);
    const src = await addSource('Doug Fir', '/venue.ics');
    const run = await api('POST', `/api/admin/sources/${src.id}/run`);
    expect(run.json()).toEqual({ status: 'success', fetched: 2, created: 2, updated: 0, merged: 0, rejected: 0, skipped: 0, errors: 0, notes: [] });
    const [jazz] = await queryRows<{ start_date: Date; neighbourhood: string; lat: number; category: string }>(
      t.database.db,
      sql`select start_date, neighbourhood, lat, category from events where title like 'Jazz%'`,
    );
    expect(new Date(jazz!.start_date).toISOString()).toBe('2026-11-26T03:00:00.000Z');
    expect(jazz!.neighbourhood).toBe('Buckman');

    feeds.venue = feeds.venue.replace('Pottery for beginners', 'Pottery for absolute beginners');
    t.clock.advance(60_000);
    const second = await api('POST', `/api/admin/sources/${src.id}/run`);
    expect(second.json()).toMatchObject({ status: 'success', created: 0, updated: 1 });
    expect(await titles()).toEqual(['Jazz Night with the Blue Trio', 'Pottery for absolute beginners']);

    const list = (await api('GET', '/api/admin/sources')).json();
    expect(list[0].health).toMatchObject({ lastError: null, consecutiveFailures: 0, eventsSeen: 2 });
    const runs = (await api('GET', `/api/admin/sources/${src.id}/runs`)).json();
    expect(runs).toHaveLength(2);
    expect(runs[0]).toMatchObject({ trigger: 'manual', status: 'success', updated: 1 });
  });

  it('tells the admin what it could not use from the feed, by reason, in its summary and its history', async () => {
    const vevent = (lines: string[]) => ['BEGIN:VEVENT', 'DTSTAMP:20261101T000000Z', ...lines, 'END:VEVENT'];
    feeds.venue = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Townbeat tests//EN',
      ...vevent(['UID:ok@venue', 'DTSTART;TZID=America/Los_Angeles:20261125T190000', 'SUMMARY:Jazz Night']),
      ...vevent(['UID:untitled@venue', 'DTSTART;TZID=America/Los_Angeles:20261126T190000']),
      ...vevent(['UID:undated@venue', 'SUMMARY:Poetry Slam']),
      // 30 February does not exist: not read, rather than listed on 2 March.
      ...vevent(['UID:impossible@venue', 'DTSTART;TZID=America/Los_Angeles:20270230T190000', 'SUMMARY:Leap Gala']),
      // Three years ahead: beyond the two-year listing horizon, refused when normalised.
      ...vevent(['UID:far@venue', 'DTSTART;TZID=America/Los_Angeles:20291125T190000', 'SUMMARY:Expo 2029']),
      // The same item twice, as some exports write it.
      ...vevent(['UID:twice@venue', 'DTSTART;TZID=America/Los_Angeles:20261127T190000', 'SUMMARY:Open Mic']),
      ...vevent(['UID:twice@venue', 'DTSTART;TZID=America/Los_Angeles:20261127T190000', 'SUMMARY:Open Mic']),
      // Over already: not a loss, so not noted.
      ...vevent(['UID:past@venue', 'DTSTART;TZID=America/Los_Angeles:20261101T190000', 'SUMMARY:Old Show']),
      'END:VCALENDAR',
    ].join('\r\n');
    const src = await addSource('Doug Fir', '/venue.ics');
    const run = (await api('POST', `/api/admin/sources/${src.id}/run`)).json();
    expect(run).toMatchObject({ status: 'success', fetched: 3, created: 2, rejected: 1, skipped: 3 });
    const notes = [
      { kind: 'skipped', reason: 'had no title', count: 1, examples: ['untitled@venue'] },
      { kind: 'skipped', reason: 'had no start date that could be read', count: 2, examples: ['Poetry Slam', 'Leap Gala'] },
      { kind: 'repeated', reason: 'repeated another entry exactly (kept once)', count: 1, examples: ['Open Mic'] },
      { kind: 'rejected', reason: 'had a start more than 730 days ahead, beyond the listing horizon: not listed yet, listed by a later run once within it', count: 1, examples: ['Expo 2029'] },
    ];
    expect(run.notes).toEqual(notes);
    expect(await titles()).toEqual(['Jazz Night', 'Open Mic']);
    const [last] = (await api('GET', `/api/admin/sources/${src.id}/runs`)).json();
    expect(last).toMatchObject({ skipped: 3, rejected: 1, notes });
    // The sources list tells it without the history.
    const listed = (await api('GET', '/api/admin/sources')).json() as { id: string; health: { lastRunSkipped: number } }[];
    expect(listed.find((s) => s.id === src.id)!.health.lastRunSkipped).toBe(3);
  });

  it('merges the same event from two sources into one with both source links', async () => {
    feeds.venue = ics([{ uid: 'a@venue', title: 'Jazz Night with the Blue Trio', start: '20261125T190000', location: 'Doug Fir Lounge, Buckman', geo: '45.5225;-122.6574' }]);
    feeds.listings = ics([
      { uid: 'x@listings', title: 'Jazz night: Blue Trio', start: '20261125T191500', location: 'The Doug Fir Lounge' },
      { uid: 'y@listings', title: 'Jazz Night with the Blue Trio', start: '20261202T190000', location: 'Doug Fir Lounge, Buckman' },
    ]);
    const a = await addSource('Doug Fir', '/venue.ics');
    const b = await addSource('City listings', '/listings.ics', { sourceType: 'municipal' });
    await api('POST', `/api/admin/sources/${a.id}/run`);
    const run = await api('POST', `/api/admin/sources/${b.id}/run`);
    expect(run.json()).toMatchObject({ created: 1, merged: 1 });
    const [first] = await queryRows<{ id: string }>(t.database.db, sql`select id from events where start_date = '2026-11-26T03:00:00Z'`);
    const detail = (await api('GET', `/api/events/${first!.id}`)).json();
    expect(detail.sources.map((s: { name: string }) => s.name).sort()).toEqual(['City listings', 'Doug Fir']);
    // The next week's occurrence stays its own event.
    expect(await titles()).toHaveLength(2);
  });

  it('lists a trusted source\'s event that another source\'s waiting copy would have hidden, and proposes the pair', async () => {
    const venueItem = { uid: 'a@venue', title: 'Spanish Conversation Hour', start: '20261211T170000', location: 'Midland Library', geo: '45.5197;-122.5560' };
    feeds.venue = ics([venueItem]);
    feeds.listings = ics([{ ...venueItem, uid: 'x@listings' }]);
    const a = await addSource('Library blog', '/venue.ics', { trusted: false });
    const b = await addSource('Library calendar', '/listings.ics');
    await api('POST', `/api/admin/sources/${a.id}/run`);
    expect((await api('POST', `/api/admin/sources/${b.id}/run`)).json()).toMatchObject({ created: 1, merged: 0 });
    const listed = async () => ((await api('GET', '/api/events?search=Spanish')).json() as { title: string; sourceType: string }[]).map((e) => `${e.title} (${e.sourceType})`);
    expect(await listed()).toEqual(['Spanish Conversation Hour (ical)']);
    const { pairs } = (await api('GET', '/api/admin/duplicates')).json() as { pairs: { reason: string }[] };
    expect(pairs.map((p) => p.reason)).toEqual(['same title, place and start; kept apart, as the other waits for review']);
    // Turning the waiting copy down leaves the listed one listed.
    const [waiting] = (await api('GET', '/api/admin/events/pending')).json() as { id: string }[];
    expect((await api('POST', `/api/admin/events/${waiting!.id}/reject`)).statusCode).toBe(200);
    expect(await listed()).toEqual(['Spanish Conversation Hour (ical)']);
  });

  it('leaves out of the review queue what an approval would not list: dropped by the source, or over', async () => {
    const items = [
      { uid: 'stays@u', title: 'Potluck', start: '20261125T180000' },
      { uid: 'dropped@u', title: 'Swap meet', start: '20261126T180000' },
      { uid: 'soon@u', title: 'Coffee morning', start: '20261123T120000' },
    ];
    feeds.venue = ics(items);
    const src = await addSource('Untrusted', '/venue.ics', { trusted: false });
    await api('POST', `/api/admin/sources/${src.id}/run`);
    const queue = async () => {
      const res = await api('GET', '/api/admin/events/pending');
      const overview = (await api('GET', '/api/admin/overview')).json() as { pendingEvents: number };
      return { titles: (res.json() as { title: string }[]).map((e) => e.title).sort(), total: res.headers['x-total-count'], overview: overview.pendingEvents };
    };
    expect(await queue()).toEqual({ titles: ['Coffee morning', 'Potluck', 'Swap meet'], total: '3', overview: 3 });
    // The source drops one; another ends (noon in Portland, listed until 2 PM).
    feeds.venue = ics([items[0]!, items[2]!]);
    t.clock.advance(60_000);
    await api('POST', `/api/admin/sources/${src.id}/run`);
    t.clock.set(new Date('2026-11-23T22:00:01Z'));
    expect(await queue()).toEqual({ titles: ['Potluck'], total: '1', overview: 1 });
    // Listed again by its source: back in the queue.
    feeds.venue = ics(items);
    await api('POST', `/api/admin/sources/${src.id}/run`);
    expect(await queue()).toEqual({ titles: ['Potluck', 'Swap meet'], total: '2', overview: 2 });
  });

  it('updates an event only when a source changes its own item: no flip-flop between two sources, an admin edit stays', async () => {
    const venueItem = { uid: 'a@venue', title: 'Jazz Night with the Blue Trio', start: '20261125T190000', location: 'Doug Fir Lounge, Buckman', geo: '45.5225;-122.6574' };
    const listingItem = { uid: 'x@listings', title: 'Jazz night: Blue Trio', start: '20261125T191500', location: 'The Doug Fir Lounge' };
    feeds.venue = ics([venueItem]);
    feeds.listings = ics([listingItem]);
    const a = await addSource('Doug Fir', '/venue.ics');
    const b = await addSource('City listings', '/listings.ics', { sourceType: 'municipal' });
    await api('POST', `/api/admin/sources/${a.id}/run`);
    expect((await api('POST', `/api/admin/sources/${b.id}/run`)).json()).toMatchObject({ merged: 1 });
    // The listed event, not the record merged into it (no order: a write to the event moves its row).
    const [event] = await queryRows<{ id: string }>(t.database.db, sql`select id from events where status <> 'merged'`);
    const announced: string[] = [];
    const stop = t.app.bus.subscribe('event_update', (d) => void announced.push(d.id));
    try {
      // Both feeds change elsewhere (a new item each), so both runs read the merged item again.
      feeds.venue = ics([venueItem, { uid: 'b@venue', title: 'Soul Sunday', start: '20261129T190000' }]);
      feeds.listings = ics([listingItem, { uid: 'z@listings', title: 'Harbor Market', start: '20261128T100000' }]);
      for (const id of [a.id, b.id, a.id, b.id]) {
        t.clock.advance(60_000);
        feeds.venue += ' ';
        feeds.listings += ' ';
        const run = (await api('POST', `/api/admin/sources/${id}/run`)).json();
        expect(run.status).toBe('success');
        expect(run.updated).toBe(0);
      }
      expect(announced).not.toContain(event!.id);
      // An admin's correction survives a run in which the source's item did not change.
      expect((await api('PATCH', `/api/admin/events/${event!.id}`, { title: 'Jazz Night: The Blue Trio (corrected)' })).statusCode).toBe(200);
      feeds.listings += ' ';
      await api('POST', `/api/admin/sources/${b.id}/run`);
      expect((await api('GET', `/api/events/${event!.id}`)).json().title).toBe('Jazz Night: The Blue Trio (corrected)');
      // A source that changes its item updates the event.
      feeds.venue = ics([{ ...venueItem, title: 'Jazz Night with the Blue Trio: moved to 8pm', start: '20261125T200000' }]);
      const changed = (await api('POST', `/api/admin/sources/${a.id}/run`)).json();
      expect(changed.updated).toBe(1);
      // It takes the new time; the title stays as the admin corrected it.
      expect((await api('GET', `/api/events/${event!.id}`)).json()).toMatchObject({ title: 'Jazz Night: The Blue Trio (corrected)', startDate: '2026-11-26T04:00:00.000Z' });
    } finally {
      stop();
    }
  });

  it('says whether an event\'s end is the source\'s, and learns it for events stored before without undoing an admin\'s edit', async () => {
    feeds.venue = ics([
      { uid: 'open@venue', title: 'Open Mic', start: '20261125T193000' },
      { uid: 'set@venue', title: 'Late Set', start: '20261125T220000', end: '20261126T000000' },
    ]);
    const a = await addSource('Doug Fir', '/venue.ics');
    await api('POST', `/api/admin/sources/${a.id}/run`);
    const ids = Object.fromEntries((await queryRows<{ id: string; title: string }>(t.database.db, sql`select id, title from events`)).map((r) => [r.title, r.id]));
    const detail = async (title: string) => (await api('GET', `/api/events/${ids[title]}`)).json();
    // Listed until a default end, but that end is not presented as the source's.
    expect(await detail('Open Mic')).toMatchObject({ endGiven: false, endDate: '2026-11-26T05:30:00.000Z' });
    expect(await detail('Late Set')).toMatchObject({ endGiven: true, endDate: '2026-11-26T08:00:00.000Z' });

    // A row from before the flag existed reads as given, and the source's next unchanged run records it;
    // the admin's correction made meanwhile stays.
    await t.database.db.execute(sql`update events set end_given = null`);
    expect((await detail('Open Mic')).endGiven).toBe(true);
    expect((await api('PATCH', `/api/admin/events/${ids['Open Mic']}`, { title: 'Open Mic (corrected)' })).statusCode).toBe(200);
    feeds.venue += ' ';
    t.clock.advance(60_000);
    expect((await api('POST', `/api/admin/sources/${a.id}/run`)).json()).toMatchObject({ status: 'success', updated: 0 });
    expect(await detail('Open Mic')).toMatchObject({ endGiven: false, title: 'Open Mic (corrected)' });
    expect((await detail('Late Set')).endGiven).toBe(true);

    // An admin's own event: its end is given only when the admin gives one.
    const made = async (extra: object) => (await api('POST', '/api/admin/events', { title: 'Board meeting', startDate: '2026-11-27T18:00:00-08:00', ...extra })).json();
    expect(await made({})).toMatchObject({ endGiven: false });
    expect(await made({ endDate: '2026-11-27T19:00:00-08:00' })).toMatchObject({ endGiven: true });
  });

  it('keeps what an admin corrected when the source later changes its item, and takes the rest', async () => {
    const original = { uid: 'edit@venue', title: 'Alpha Event', start: '20261210T190000', location: 'Blue Lantern Hall', description: 'original' };
    feeds.venue = ics([original]);
    const a = await addSource('Blue Lantern', '/venue.ics');
    await api('POST', `/api/admin/sources/${a.id}/run`);
    const [{ id }] = (await queryRows<{ id: string }>(t.database.db, sql`select id from events`)) as [{ id: string }];
    const edit = { title: 'Alpha Event (corrected)', venue: 'Blue Lantern Hall, upstairs', price: 12, startDate: '2026-12-10T20:00:00-08:00' };
    expect((await api('PATCH', `/api/admin/events/${id}`, edit)).statusCode).toBe(200);
    await api('POST', `/api/admin/events/${id}/approve`);
    expect((await api('POST', `/api/user/favorites/${id}`)).json()).toMatchObject({ isFavorited: true });
    {
      // The source changes its words and, later, its time and title: the admin's fields stay.
      feeds.venue = ics([{ ...original, description: 'new words' }]);
      expect((await api('POST', `/api/admin/sources/${a.id}/run`)).json()).toMatchObject({ updated: 1 });
      feeds.venue = ics([{ ...original, description: 'newer words', title: 'Alpha Event!', start: '20261210T183000' }]);
      expect((await api('POST', `/api/admin/sources/${a.id}/run`)).json()).toMatchObject({ updated: 1 });
    }
    expect((await api('GET', `/api/events/${id}`)).json()).toMatchObject({
      title: 'Alpha Event (corrected)',
      venue: 'Blue Lantern Hall, upstairs',
      price: 12,
      startDate: '2026-12-11T04:00:00.000Z',
      description: 'newer words',
    });
    // Nobody who saved it hears that it moved: it did not.
    const told = await queryRows<{ title: string }>(t.database.db, sql`select title from notifications where title like 'Saved event%'`);
    expect(told).toEqual([]);
  });

  it('marks events that vanish from the feed instead of deleting them', async () => {
    feeds.venue = ics([
      { uid: 'a@venue', title: 'Stays', start: '20261125T190000' },
      { uid: 'b@venue', title: 'Vanishes', start: '20261126T190000' },
    ]);
    const src = await addSource('Venue', '/venue.ics');
    await api('POST', `/api/admin/sources/${src.id}/run`);
    // Whatever the classifier's confidence, both are approved, so only the vanishing matters.
    await t.database.db.execute(sql`update events set status = 'approved'`);
    feeds.venue = ics([{ uid: 'a@venue', title: 'Stays', start: '20261125T190000' }]);
    t.clock.advance(60_000);
    await api('POST', `/api/admin/sources/${src.id}/run`);
    expect(await titles()).toEqual(['Stays']);
    const [gone] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from events where gone_at is not null`);
    expect(gone!.n).toBe(1);
    expect((await api('GET', '/api/events')).json().map((e: { title: string }) => e.title)).toEqual(['Stays']);
    // Back in the feed, unchanged: listed again.
    feeds.venue = ics([
      { uid: 'a@venue', title: 'Stays', start: '20261125T190000' },
      { uid: 'b@venue', title: 'Vanishes', start: '20261126T190000' },
    ]);
    t.clock.advance(60_000);
    expect((await api('POST', `/api/admin/sources/${src.id}/run`)).json()).toMatchObject({ updated: 1 });
    expect(await titles()).toEqual(['Stays', 'Vanishes']);
  });

  it('lists events whatever the length of their text, and finds them by a word at the end of it', async () => {
    // Three thousand words over 1,000 distinct ones: the words index of one event takes several
    // kilobytes, more than a btree entry may hold (0021 dropped the index that carried them).
    const syllables = ['ka', 'lo', 'mi', 'ren', 'tas', 'vor', 'pel', 'qui', 'zan', 'dor'];
    const words = Array.from({ length: 3000 }, (_, i) => syllables[i % 10]! + syllables[Math.floor(i / 10) % 10]! + syllables[Math.floor(i / 100) % 10]!);
    const description = `${words.join(' ')} marmalade`.slice(-20_000);
    const title = `Ça commence: ${'Fête de la musique, édition spéciale '.repeat(10)}`.slice(0, 300);
    const location = `Théâtre ${'Salle des fêtes élargie '.repeat(15)}`.slice(0, 300);
    feeds.venue = ics([
      { uid: 'long@venue', title: 'Harvest Fair', start: '20261125T190000', location: 'Laurelhurst Park', description },
      { uid: 'wide@venue', title, start: '20261126T190000', location },
      { uid: 'short@venue', title: 'Book Swap', start: '20261127T190000' },
    ]);
    const src = await addSource('Long texts', '/venue.ics');
    expect((await api('POST', `/api/admin/sources/${src.id}/run`)).json()).toMatchObject({ status: 'success', created: 3, errors: 0 });
    await t.database.db.execute(sql`update events set status = 'approved'`);
    const found = (await api('GET', '/api/events?search=marmalade')).json() as { id: string; title: string }[];
    expect(found.map((e) => e.title)).toEqual(['Harvest Fair']);
    expect((await api('GET', `/api/events/${found[0]!.id}`)).json().description).toHaveLength(description.length);
    expect((await api('GET', '/api/events?search=Harvest&sortBy=date')).json().map((e: { title: string }) => e.title)).toEqual(['Harvest Fair']);
    expect(await titles()).toEqual(['Harvest Fair', title.trim(), 'Book Swap']);
  });

  it("places an item without coordinates at a venue the same run first met, so the next unchanged run rewrites nothing", async () => {
    feeds.venue = ics([
      { uid: 'a@hall', title: 'Brass Night', start: '20261125T190000', location: 'Polaris Hall', geo: '45.5565;-122.6611' },
      { uid: 'b@hall', title: 'Folk Night', start: '20261126T190000', location: 'Polaris Hall' },
    ]);
    const src = await addSource('Polaris', '/venue.ics');
    expect((await api('POST', `/api/admin/sources/${src.id}/run`)).json()).toMatchObject({ status: 'success', created: 2 });
    const rows = await queryRows<{ title: string; lat: number; lng: number; geo_approx: boolean }>(t.database.db, sql`select title, lat, lng, geo_approx from events order by start_date`);
    expect(rows).toEqual([
      { title: 'Brass Night', lat: 45.5565, lng: -122.6611, geo_approx: false },
      { title: 'Folk Night', lat: 45.5565, lng: -122.6611, geo_approx: false },
    ]);
    t.clock.advance(60_000);
    expect((await api('POST', `/api/admin/sources/${src.id}/run`)).json()).toMatchObject({ status: 'success', created: 0, updated: 0 });
  });

  it('lists events whose text holds characters a database cannot store (NUL, other control characters)', async () => {
    feeds.venue = ics([
      { uid: 'nul@venue', title: 'Harvest\u0000 Fair', start: '20261125T190000', location: 'Laurelhurst\u0000 Park', description: 'Cider\u0000 and\u0007 apples\u001b.' },
      { uid: 'ok@venue', title: 'Book Swap', start: '20261126T190000' },
    ]);
    const src = await addSource('Control characters', '/venue.ics');
    expect((await api('POST', `/api/admin/sources/${src.id}/run`)).json()).toMatchObject({ status: 'success', created: 2, errors: 0 });
    const [row] = await queryRows<{ title: string; venue_name: string; description: string }>(t.database.db, sql`select title, venue_name, description from events where title like 'Harvest%'`);
    expect(row).toEqual({ title: 'Harvest Fair', venue_name: 'Laurelhurst Park', description: 'Cider and apples.' });
  });

  it('names the database failure of a run in a sentence, not the statement and its values', async () => {
    feeds.venue = ics([{ uid: 'a@venue', title: 'Harvest Fair', start: '20261125T190000' }]);
    const src = await addSource('Venue', '/venue.ics');
    // An index no entry can satisfy stands in for a write the database refuses.
    await t.database.db.execute(sql`create unique index refuse_all on events ((1))`);
    try {
      await api('POST', `/api/admin/sources/${src.id}/run`);
      feeds.venue = ics([{ uid: 'b@venue', title: 'Book Swap', start: '20261126T190000' }, { uid: 'c@venue', title: 'Quiz Night', start: '20261127T190000' }]);
      t.clock.advance(60_000);
      const run = (await api('POST', `/api/admin/sources/${src.id}/run`)).json() as { status: string; error: string };
      expect(run.status).toBe('error');
      expect(run.error).toMatch(/^Could not store the events: duplicate key value violates unique constraint "refuse_all"/);
      expect(run.error).not.toMatch(/insert into|Book Swap/);
      expect(run.error.length).toBeLessThanOrEqual(300);
    } finally {
      await t.database.db.execute(sql`drop index refuse_all`);
    }
  });

  it('records a failing source without partial events, and other sources are unaffected', async () => {
    feeds.listings = ics([{ uid: 'ok', title: 'Fine event', start: '20261125T190000' }]);
    const broken = await addSource('Broken', '/venue.ics'); // answers 500
    const fine = await addSource('Fine', '/listings.ics');
    const bad = await api('POST', `/api/admin/sources/${broken.id}/run`);
    expect(bad.json()).toMatchObject({ status: 'error', created: 0, errors: 1 });
    expect(bad.json().error).toMatch(/500/);
    feeds.venue = 'BEGIN:VCALENDAR\r\nthis is not a calendar';
    const malformed = await api('POST', `/api/admin/sources/${broken.id}/run`);
    expect(malformed.json().status).toBe('error');
    const list = (await api('GET', '/api/admin/sources')).json() as { name: string; health: { consecutiveFailures: number; lastError: string | null } }[];
    expect(list.find((s) => s.name === 'Broken')!.health.consecutiveFailures).toBe(2);
    expect((await api('POST', `/api/admin/sources/${fine.id}/run`)).json()).toMatchObject({ status: 'success', created: 1 });
    expect(await titles()).toEqual(['Fine event']);
  });

  it('sends untrusted sources to the review queue, and approve publishes them', async () => {
    feeds.venue = ics([{ uid: 'u1', title: 'Community potluck dinner', start: '20261125T180000' }]);
    const src = await addSource('Untrusted', '/venue.ics', { trusted: false });
    await api('POST', `/api/admin/sources/${src.id}/run`);
    expect((await api('GET', '/api/events')).json()).toEqual([]);
    const pending = (await api('GET', '/api/admin/events/pending')).json();
    expect(pending.map((e: { title: string }) => e.title)).toEqual(['Community potluck dinner']);
    expect((await api('POST', `/api/admin/events/${pending[0].id}/approve`)).statusCode).toBe(200);
    expect((await api('GET', '/api/admin/events/pending')).json()).toEqual([]);
    expect((await api('GET', '/api/events')).json().map((e: { title: string }) => e.title)).toEqual(['Community potluck dinner']);
    const edited = await api('PATCH', `/api/admin/events/${pending[0].id}`, { title: 'Community potluck', price: 5 });
    expect(edited.json()).toMatchObject({ title: 'Community potluck', price: 5, isFree: false });
    expect((await api('PATCH', `/api/admin/events/${pending[0].id}`, {})).statusCode).toBe(400);
  });
});

describe('GET /api/admin/ai-status', () => {
  it('reports the classifier measured held-out accuracy', async () => {
    const res = await api('GET', '/api/admin/ai-status');
    expect(res.json().accuracy).toBeGreaterThan(0.5);
    expect(res.json().evaluatedOn).toMatch(/held-out|never trained/i);
    // No LLM_BASE_URL in the test environment: no language model.
    expect(res.json().llm).toBeNull();
  });
});

describe('POST /api/admin/classify', () => {
  it('classifies up to 1000 events in order', async () => {
    const res = await api('POST', '/api/admin/classify', { events: [{ title: 'Jazz night at the Blue Note' }, { title: 'Intro to Python workshop', description: 'Learn to code' }] });
    expect(res.statusCode).toBe(200);
    expect(res.json().map((r: { category: string }) => r.category)).toEqual(['Music', 'Tech']);
    expect((await api('POST', '/api/admin/classify', { events: Array.from({ length: 1001 }, () => ({ title: 'x' })) })).statusCode).toBe(400);
  });
});

describe('active sources', () => {
  it("are the sources /api/health counts, with listed events: an admin's own events and members' contributions are none", async () => {
    // Trusted sources, events plain enough to be approved on arrival: listed.
    feeds.venue = ics([{ uid: 'jazz@venue', title: 'Live Jazz Concert', description: 'Live music: a jazz band and a singer.', start: '20261125T190000', location: 'Doug Fir Lounge' }]);
    feeds.listings = ics([{ uid: 'market@listings', title: 'Farmers Market', description: 'Local food, fresh produce and street food.', start: '20261126T100000', location: 'Kerns Hall' }]);
    for (const [name, path] of [['Doug Fir', '/venue.ics'], ['Listings', '/listings.ics']] as const) {
      const { id } = await addSource(name, path);
      expect((await api('POST', `/api/admin/sources/${id}/run`)).json()).toMatchObject({ status: 'success', created: 1 });
    }
    const figures = async () => ({
      coverageWidget: (await api('GET', '/api/events/stats')).json().activeSources as number,
      health: (await api('GET', '/api/health')).json().checks.sources.total as number,
    });
    expect(await figures()).toEqual({ coverageWidget: 2, health: 2 });

    // An admin's own event and a member's, both listed: events, but from no source.
    expect((await api('POST', '/api/admin/events', { title: 'Board meeting', startDate: '2026-11-27T18:00:00-08:00' })).statusCode).toBe(201);
    const member = await signupUser(t.app);
    const sent = await api('POST', '/api/events/import-url', { url: server.url('/event.html') }, member.cookie);
    expect((await api('POST', `/api/admin/events/${sent.json().eventId}/approve`)).statusCode).toBe(200);
    expect((await api('GET', '/api/events/stats')).json().totalEvents).toBe(4);
    expect(await figures()).toEqual({ coverageWidget: 2, health: 2 });
  });
});

describe('POST /api/events/import-url', () => {
  it('sends the event on a page to the review queue as the member contribution, once', async () => {
    const member = await signupUser(t.app);
    const res = await api('POST', '/api/events/import-url', { url: server.url('/event.html') }, member.cookie);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ status: 'pending' });
    const [row] = await queryRows<{ title: string; status: string; contributed_by: string; start_date: Date }>(
      t.database.db,
      sql`select title, status, contributed_by, start_date from events where id = ${res.json().eventId}`,
    );
    expect(row).toMatchObject({ title: 'Neighbourhood Clean-up Day', status: 'pending', contributed_by: member.user.id });
    expect(new Date(row!.start_date).toISOString()).toBe('2026-11-28T18:00:00.000Z');
    const again = await api('POST', '/api/events/import-url', { url: server.url('/event.html') }, member.cookie);
    expect(again.statusCode).toBe(200);
    // Said as it is, with the event's id only where its page is the member's to open.
    expect(again.json()).toEqual({ status: 'existing', eventId: res.json().eventId, message: 'You sent this event already: it is waiting for review' });
    const other = await signupUser(t.app);
    const send = async (cookie: string) => (await api('POST', '/api/events/import-url', { url: server.url('/event.html') }, cookie)).json();
    expect(await send(other.cookie)).toEqual({ status: 'existing', eventId: null, message: 'Townbeat already has this event: it is waiting for review' });
    await t.database.db.execute(sql`update events set status = 'approved' where id = ${res.json().eventId}`);
    expect(await send(other.cookie)).toEqual({ status: 'existing', eventId: res.json().eventId, message: 'This event is already listed on Townbeat' });
    await t.database.db.execute(sql`update events set status = 'rejected' where id = ${res.json().eventId}`);
    expect(await send(member.cookie)).toEqual({ status: 'existing', eventId: null, message: 'This event was reviewed before and is not listed' });
  });

  it('says plainly when the page holds no event, and needs sign-in', async () => {
    const member = await signupUser(t.app);
    const res = await api('POST', '/api/events/import-url', { url: server.url('/nothing.html') }, member.cookie);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('url: no upcoming event was found at that address');
    expect((await t.app.inject({ method: 'POST', url: '/api/events/import-url', headers: { origin: TEST_ORIGIN }, payload: { url: server.url('/event.html') } })).statusCode).toBe(401);
  });

  it('says it could not reach the address when the host is unknown or refuses the connection', async () => {
    const member = await signupUser(t.app);
    const unknown = await api('POST', '/api/events/import-url', { url: 'https://nonexistent-host-zzz.invalid/e' }, member.cookie);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('url: could not reach that address: no host named nonexistent-host-zzz.invalid was found (ENOTFOUND)');
    // Nothing listens on port 1.
    const refused = await api('POST', '/api/events/import-url', { url: 'http://127.0.0.1:1/e' }, member.cookie);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('url: could not reach that address: 127.0.0.1:1: the connection was refused (ECONNREFUSED)');
  });
});
