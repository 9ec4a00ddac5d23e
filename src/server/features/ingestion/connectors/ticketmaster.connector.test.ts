import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFeedServer, type Route } from '../../../test/feed-server.ts';
import { SourceError, type SourceSpec } from '../ingestion.types.ts';
import { testContext } from './test-fetch.ts';
import { ticketmasterConnector } from './ticketmaster.connector.ts';

const FIX = path.resolve(process.cwd(), '../shared/fixtures');
const API = path.join(FIX, 'api');

const json = (body: unknown, status = 200): Route => (_req, res) => {
  res.writeHead(status, { 'content-type': 'application/json;charset=utf-8' }).end(typeof body === 'string' ? body : JSON.stringify(body));
};

function source(url: string, config: Record<string, unknown>): SourceSpec {
  return { id: 'src-tm', name: 'Ticketmaster', connector: 'ticketmaster', url, sourceType: 'api', config };
}

let server: Awaited<ReturnType<typeof startFeedServer>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.skipIf(!existsSync(API))('ticketmaster connector on real recorded Discovery API responses (needs ../shared/fixtures)', () => {
  // A real Discovery v2 event search (Jan 2016, 20 events on page 0 of 3779) and a real event
  // detail. The second page is the real event detail wrapped in the search envelope, so the
  // connector has somewhere to go after page 0 (the recording has only the first page).
  const readJson = (file: string): Record<string, unknown> => JSON.parse(readFileSync(path.join(API, file), 'utf8')) as Record<string, unknown>;

  async function serveRecordedPages() {
    const page0 = readJson('ticketmaster__discovery_v2_event_all-200.response_body.json');
    const detail = readJson('ticketmaster__discovery_v2_event_find-200.response_body.json');
    const page1 = { _embedded: { events: [detail] }, page: { size: 20, totalElements: 21, totalPages: 2, number: 1 } };
    server = await startFeedServer({
      '/discovery/v2/events.json': (req, res, body) => {
        const page = new URL(req.url ?? '/', 'http://x').searchParams.get('page');
        return json(page === '0' ? page0 : page1)(req, res, body);
      },
    });
    return server;
  }

  it('the recording is a GET of /discovery/v2/events with an apikey, answered as JSON', () => {
    const recording = JSON.parse(readFileSync(path.join(API, 'ticketmaster__discovery_v2_event_all-200.json'), 'utf8')) as {
      method: string;
      path: string;
      headers: Record<string, string>;
    }[];
    expect(recording[0]?.method).toBe('GET');
    expect(recording[0]?.path).toContain('/discovery/v2/events?apikey=');
    expect(recording[0]?.headers['Content-Type']).toContain('application/json');
  });

  it('asks for the city, the window and each page, and maps the real events', async () => {
    const s = await serveRecordedPages();
    const now = new Date('2016-05-20T00:00:00Z');
    const result = await ticketmasterConnector.run(
      source(s.url('/discovery/v2'), { apiKey: 'mock-api-key', city: 'Houston', stateCode: 'TX', pageSize: 20 }),
      testContext(now, { listAheadDays: 30, timeZone: 'America/Chicago' }),
    );

    expect(s.hits).toHaveLength(2);
    const first = new URL(s.hits[0]!.url, 'http://x').searchParams;
    expect(first.get('apikey')).toBe('mock-api-key');
    expect(first.get('city')).toBe('Houston');
    expect(first.get('stateCode')).toBe('TX');
    expect(first.get('startDateTime')).toBe('2016-05-20T00:00:00Z');
    expect(first.get('endDateTime')).toBe('2016-06-19T00:00:00Z');
    expect(first.get('sort')).toBe('date,asc');
    expect(first.get('size')).toBe('20');
    expect(first.get('page')).toBe('0');
    expect(new URL(s.hits[1]!.url, 'http://x').searchParams.get('page')).toBe('1');

    // 20 recorded events: one ended before "now" (the 19 May "Flora, fashion & fine arts" tour), and the second
    // page repeats an event already seen on page 0.
    const byId = new Map(result.candidates.map((c) => [c.externalId, c]));
    expect(result.candidates).toHaveLength(19);
    expect(byId.has('LvZ184lOjQqL7mktyZZNT')).toBe(false);

    const baseball = byId.get('G5dIZfeoHM32h')!;
    expect(baseball).toMatchObject({
      title: 'U of H Cougars Baseball v Tulane',
      url: 'http://ticketmaster.com/event/3A0050247CDD23DB',
      timeZone: 'America/Chicago',
      venueName: 'Cougar Field',
      address: '3100 Cullen Blvd, Houston, TX, 77204',
      lat: 29.726022,
      lng: -95.344908,
      price: 3,
      currency: 'USD',
      categories: ['Sports', 'Baseball', 'College'],
    });
    expect(baseball.start.toISOString()).toBe('2016-05-20T19:00:00.000Z');
    expect(baseball.isFree).toBeUndefined();
    // priceRanges [{ min: 3, max: 7 }]: the lowest and the highest.
    expect(baseball.priceMax).toBe(7);
    expect(baseball.cancelled).toBeUndefined();
    expect(baseball.description).toContain('Due to inclement weather');
    expect(baseball.imageUrl).toMatch(/^http:\/\/s1\.ticketm\.net\/dam\/a\/0fb\/.*_16_9\.jpg$/);

    // localDate with timeTBA: an all-day event on the venue's local date.
    const cruise = byId.get('1Ae7ZfdGkSp307Y')!;
    expect(cruise.allDay).toBe(true);
    expect(cruise.start.toISOString()).toBe('2016-05-20T05:00:00.000Z');
    expect(cruise).toMatchObject({ price: 23.66, priceMax: 43.53, venueName: "Chicago Architecture Foundation - Chicago's First Lady", lat: 41.8786394, lng: -87.624808 });
    expect(cruise.categories).toEqual(['Miscellaneous']);

    // Ongoing since 2015 with an end in August 2016: still in the window; no venue embedded.
    const membership = byId.get('LvZ184j83k1A5TPn6ZZgc')!;
    expect(membership.start.toISOString()).toBe('2015-08-07T02:15:00.000Z');
    expect(membership.end?.toISOString()).toBe('2016-08-01T04:00:00.000Z');
    expect(membership.venueName).toBeUndefined();
    expect(membership.lat).toBeUndefined();
    expect(membership.price).toBeUndefined();

    // A venue with an address but no location in the recording.
    const cancun = byId.get('1Av8Zf6GkUNPP3p')!;
    expect(cancun).toMatchObject({ venueName: 'CANCUNICC Centro de Convenciones', price: 500, timeZone: 'America/Mexico_City' });
    expect(cancun.lat).toBeUndefined();

    // The event seen on both pages comes once, from page 0.
    expect(byId.get('vv17FZfdGkSrrMju')).toMatchObject({ title: 'Susquehanna Breakdown RV Pass', price: 125, priceMax: 150, venueName: 'The  Pavilion at Montage Mountain' });
  });

  it('stops after the first page when the recorded page is the last one', async () => {
    const page0 = readJson('ticketmaster__discovery_v2_event_all-200.response_body.json');
    server = await startFeedServer({ '/discovery/v2/events.json': json({ ...page0, page: { size: 20, totalElements: 20, totalPages: 1, number: 0 } }) });
    const result = await ticketmasterConnector.run(
      source(server.url('/discovery/v2/'), { apiKey: 'k', latlong: '29.7260, -95.3449', radius: 25, unit: 'miles', pageSize: 20 }),
      testContext(new Date('2016-05-20T00:00:00Z')),
    );
    expect(server.hits).toHaveLength(1);
    const q = new URL(server.hits[0]!.url, 'http://x').searchParams;
    expect(q.get('latlong')).toBe('29.7260,-95.3449');
    expect(q.get('radius')).toBe('25');
    expect(q.get('unit')).toBe('miles');
    expect(q.has('city')).toBe(false);
    expect(result.candidates).toHaveLength(19);
  });
});

describe('ticketmaster connector limits', () => {
  it('says when a search holds more than the 1,000 results Ticketmaster serves, and names records without a start', async () => {
    server = await startFeedServer({
      '/discovery/v2/events.json': (req, res, body) => {
        const q = new URL(req.url ?? '/', 'http://x').searchParams;
        const page = Number(q.get('page'));
        const size = Number(q.get('size'));
        const events = Array.from({ length: size }, (_, i) => ({ id: `tm-${page}-${i}`, name: `Show ${page}-${i}`, dates: { start: { dateTime: '2026-06-10T02:00:00Z' } } }));
        events[0] = { id: `tbd-${page}`, name: 'Date to be announced', dates: { start: {} } } as (typeof events)[number];
        return json({ _embedded: { events }, page: { size, totalElements: 5000, totalPages: 5000 / size, number: page } })(req, res, body);
      },
    });
    const result = await ticketmasterConnector.run(source(server.url('/discovery/v2'), { apiKey: 'k', city: 'Portland', pageSize: 200 }), testContext(new Date('2026-06-01T07:00:00Z')));
    expect(server.hits).toHaveLength(5);
    expect(result.candidates).toHaveLength(995);
    expect(result.notes).toEqual([
      { kind: 'skipped', reason: 'had no id, title or start date that could be read', count: 5, examples: ['Date to be announced'] },
      { kind: 'unread', reason: 'had been read, the first 1,000 results Ticketmaster serves for one search; the search matches more: narrow it (radius, city) to read them all', count: 995, examples: [] },
    ]);
  });
});

describe('ticketmaster connector errors', () => {
  it('reports a refused key with the status and the fault string', async () => {
    server = await startFeedServer({
      '/discovery/v2/events.json': json({ fault: { faultstring: 'Invalid ApiKey', detail: { errorcode: 'oauth.v2.InvalidApiKey' } } }, 401),
    });
    const run = ticketmasterConnector.run(source(server.url('/discovery/v2'), { apiKey: 'nope', city: 'Portland' }), testContext(new Date('2026-06-01T07:00:00Z')));
    await expect(run).rejects.toBeInstanceOf(SourceError);
    await expect(run).rejects.toThrow('credentials refused by Ticketmaster (HTTP 401: Invalid ApiKey)');
  });

  it('reports malformed JSON', async () => {
    server = await startFeedServer({ '/discovery/v2/events.json': json('{"_embedded": {"events": [') });
    await expect(
      ticketmasterConnector.run(source(server.url('/discovery/v2'), { apiKey: 'k', city: 'Portland' }), testContext(new Date('2026-06-01T07:00:00Z'))),
    ).rejects.toThrow(/Ticketmaster sent malformed JSON/);
  });

  it('reads a local date in the city zone when the zone given is unknown, and marks cancellations', async () => {
    const event = {
      id: 'Z7r9jZ1Ae0x1',
      name: 'Waterfront Blues Festival',
      dates: { start: { localDate: '2026-07-04', noSpecificTime: true }, timezone: 'Mars/Olympus_Mons', status: { code: 'cancelled' } },
      priceRanges: [{ type: 'standard', currency: 'USD', min: 0, max: 0 }],
    };
    server = await startFeedServer({ '/discovery/v2/events.json': json({ _embedded: { events: [event] }, page: { size: 100, totalElements: 1, totalPages: 1, number: 0 } }) });
    const result = await ticketmasterConnector.run(source(server.url('/discovery/v2/events.json'), { apiKey: 'k', city: 'Portland' }), testContext(new Date('2026-06-01T07:00:00Z')));
    expect(server.hits[0]!.url.startsWith('/discovery/v2/events.json?')).toBe(true);
    expect(result.candidates[0]).toMatchObject({ allDay: true, cancelled: true, isFree: true, price: 0 });
    expect(result.candidates[0]!.timeZone).toBeUndefined();
    expect(result.candidates[0]!.start.toISOString()).toBe('2026-07-04T07:00:00.000Z');
  });

  it('marks postponed events (no new date yet) and canceled ones (as the API spells it), and reads rescheduled ones at their new dates', async () => {
    const event = (id: string, code: string, localDate: string) => ({ id, name: `Show ${id}`, dates: { start: { localDate, localTime: '19:30:00' }, timezone: 'America/Los_Angeles', status: { code } } });
    const events = [event('off', 'postponed', '2026-07-10'), event('moved', 'rescheduled', '2026-07-18'), event('on', 'onsale', '2026-07-11'), event('called', 'canceled', '2026-07-12')];
    server = await startFeedServer({ '/discovery/v2/events.json': json({ _embedded: { events }, page: { size: 100, totalElements: 4, totalPages: 1, number: 0 } }) });
    const { candidates } = await ticketmasterConnector.run(source(server.url('/discovery/v2/events.json'), { apiKey: 'k', city: 'Portland' }), testContext(new Date('2026-06-01T07:00:00Z')));
    const byId = new Map(candidates.map((c) => [c.externalId, c]));
    expect(byId.get('off')).toMatchObject({ postponed: true });
    expect(byId.get('off')!.cancelled).toBeUndefined();
    expect(byId.get('moved')!.start.toISOString()).toBe('2026-07-19T02:30:00.000Z');
    for (const id of ['moved', 'on']) expect([byId.get(id)!.postponed, byId.get(id)!.cancelled]).toEqual([undefined, undefined]);
    expect([byId.get('called')!.cancelled, byId.get('called')!.postponed]).toEqual([true, undefined]);
  });

  it('names the missing field of a bad config before fetching anything', async () => {
    await expect(ticketmasterConnector.run(source('http://127.0.0.1:9', { city: 'Portland' }), testContext(new Date()))).rejects.toThrow(
      /^ticketmaster config: apiKey /,
    );
    await expect(ticketmasterConnector.run(source('http://127.0.0.1:9', { apiKey: 'k' }), testContext(new Date()))).rejects.toThrow(
      'ticketmaster config: city set city or latlong',
    );
  });
});
