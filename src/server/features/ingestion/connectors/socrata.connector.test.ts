import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startFeedServer, type Route } from '../../../test/feed-server.ts';
import { SourceError, type SourceSpec } from '../ingestion.types.ts';
import { mapOpenDataRecord, socrataConnector } from './socrata.connector.ts';
import { testContext } from './test-fetch.ts';

// Samples written by us from the SODA 2.x documentation (see __samples__/API-PROVENANCE.md).
const sample = (name: string) => readFileSync(new URL(`./__samples__/socrata/${name}`, import.meta.url), 'utf8');
const NOW = new Date('2026-06-01T07:00:00Z'); // midnight in Portland

const json = (body: string, status = 200): Route => (_req, res) => {
  res.writeHead(status, { 'content-type': 'application/json;charset=utf-8' }).end(body);
};

const MAPPING = {
  id: 'event_id',
  title: 'event_name',
  start: 'start_date',
  end: 'end_date',
  venue: 'park_name',
  address: 'address',
  location: 'location',
  price: 'fee',
  category: 'category',
  url: 'event_url',
  description: 'description',
  status: 'status',
};

function source(url: string | null, config: Record<string, unknown>): SourceSpec {
  return { id: 'src-soda', name: 'Portland Parks events', connector: 'socrata', url, sourceType: 'open-data', config };
}

let server: Awaited<ReturnType<typeof startFeedServer>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('socrata connector', () => {
  it('asks for the date window page by page with the app token and maps the rows', async () => {
    server = await startFeedServer({
      '/resource/x7qp-4kfe.json': (req, res, body) => {
        const offset = new URL(req.url ?? '/', 'http://x').searchParams.get('$offset');
        return json(offset === '0' ? sample('x7qp-4kfe-offset0.json') : offset === '2' ? sample('x7qp-4kfe-offset2.json') : '[]')(req, res, body);
      },
    });
    const result = await socrataConnector.run(
      source(server.url('/'), { dataset: 'x7qp-4kfe', appToken: 'APP-TOKEN', pageSize: 2, where: "status != 'Draft'", mapping: MAPPING }),
      testContext(NOW),
    );

    expect(server.hits).toHaveLength(3); // two full pages, then an empty one
    for (const hit of server.hits) expect(hit.headers['x-app-token']).toBe('APP-TOKEN');
    const q = new URL(server.hits[0]!.url, 'http://x').searchParams;
    expect(q.get('$where')).toBe(
      "(start_date >= '2026-05-31T00:00:00' OR end_date >= '2026-05-31T00:00:00') AND start_date <= '2026-07-31T00:00:00' AND (status != 'Draft')",
    );
    expect(q.get('$order')).toBe('start_date,:id');
    expect(q.get('$limit')).toBe('2');
    expect(server.hits.map((h) => new URL(h.url, 'http://x').searchParams.get('$offset'))).toEqual(['0', '2', '4']);

    expect(result.candidates.map((c) => c.externalId)).toEqual(['PPR-26-0187', 'PPR-26-0412', 'PPR-26-0455', 'PPR-26-0501']);
    const [tennis, concert, movie, ivy] = result.candidates;
    expect(tennis).toMatchObject({
      title: 'Summer Tennis Clinic (ages 8-12)',
      venueName: 'Portland Tennis Center',
      address: '324 NE 12th Ave, Portland, OR 97232',
      lat: 45.525471,
      lng: -122.653512,
      price: 25,
      categories: ['Sports', 'Youth'],
      url: 'https://www.portland.gov/parks/tennis/summer-clinics',
      timeZone: 'America/Los_Angeles',
    });
    expect(tennis!.start.toISOString()).toBe('2026-06-20T16:00:00.000Z'); // 9 am PDT
    expect(tennis!.end?.toISOString()).toBe('2026-06-20T18:00:00.000Z');
    expect(tennis!.isFree).toBeUndefined();

    expect(concert).toMatchObject({ isFree: true, price: 0, categories: ['Music', 'Family'] });
    expect(concert!.description).toContain('<p>Big-band jazz');
    expect(concert!.start.toISOString()).toBe('2026-07-10T01:30:00.000Z');

    expect(movie).toMatchObject({ title: 'Movies in the Park: The Goonies', cancelled: true });

    // A date column stored as midnight: an all-day event on that local date.
    expect(ivy).toMatchObject({ allDay: true, venueName: 'Forest Park' });
    expect(ivy!.start.toISOString()).toBe('2026-07-25T07:00:00.000Z');
    expect(ivy!.url).toBeUndefined();
  });

  it('uses https://{domain} without a source URL, and can leave the dates out of $where', async () => {
    const calls: string[] = [];
    const ctx = testContext(NOW, {
      fetch: async (url, init) => {
        calls.push(url);
        expect(init?.headers?.['x-app-token']).toBeUndefined();
        const body = Buffer.from(sample('x7qp-4kfe-offset2.json'));
        return { status: 200, url, headers: {}, body, text: () => body.toString('utf8') };
      },
    });
    const result = await socrataConnector.run(
      source(null, { domain: 'data.portlandoregon.gov', dataset: 'x7qp-4kfe', filterDates: false, mapping: { title: 'event_name', start: 'start_date' } }),
      ctx,
    );
    expect(calls).toHaveLength(1);
    const url = new URL(calls[0]!);
    expect(url.origin + url.pathname).toBe('https://data.portlandoregon.gov/resource/x7qp-4kfe.json');
    expect(Object.fromEntries(url.searchParams)).toEqual({ $order: 'start_date,:id', $limit: '1000', $offset: '0' });
    // No id column: the id is the title and the start.
    expect(result.candidates.map((c) => c.externalId)).toEqual([
      'Movies in the Park: The Goonies@2026-07-19T04:00:00.000Z',
      'Volunteer Day: Ivy Pull at Forest Park@2026-07-25T07:00:00.000Z',
    ]);
  });

  it('reports refused credentials and SoQL errors with the status', async () => {
    server = await startFeedServer({
      '/resource/aaaa-0001.json': json('{"code":"authentication_required","error":true,"message":"You must be logged in to access this resource"}', 403),
      '/resource/aaaa-0002.json': json('{"code":"query.soql.no-such-column","error":true,"message":"No such column: start_date"}', 400),
      '/resource/aaaa-0003.json': json('[{"event_name": "x", '),
    });
    const run = (dataset: string) => socrataConnector.run(source(server!.url('/'), { dataset, mapping: MAPPING }), testContext(NOW));
    await expect(run('aaaa-0001')).rejects.toBeInstanceOf(SourceError);
    await expect(run('aaaa-0001')).rejects.toThrow('credentials refused by Socrata (HTTP 403: You must be logged in to access this resource)');
    await expect(run('aaaa-0002')).rejects.toThrow('Socrata answered HTTP 400: No such column: start_date');
    await expect(run('aaaa-0003')).rejects.toThrow('Socrata sent malformed JSON (HTTP 200)');
  });

  it('rejects a bad config, naming the field', async () => {
    const run = (config: Record<string, unknown>, url: string | null = 'http://127.0.0.1:9') => socrataConnector.run(source(url, config), testContext(NOW));
    await expect(run({ dataset: 'x7qp-4kfe' })).rejects.toThrow(/^socrata config: mapping /);
    await expect(run({ dataset: 'x7qp-4kfe', mapping: { title: 'event_name' } })).rejects.toThrow(/^socrata config: mapping\.start /);
    await expect(run({ dataset: 'x7qp-4kfe', mapping: { title: 'name; DROP', start: 's' } })).rejects.toThrow('socrata config: mapping.title must be a Socrata column name');
    await expect(run({ dataset: 'events', mapping: MAPPING })).rejects.toThrow('socrata config: dataset must be a dataset id such as ydr8-5enu');
    await expect(run({ dataset: 'x7qp-4kfe', timeZone: 'Portland', mapping: MAPPING })).rejects.toThrow('socrata config: timeZone must be an IANA time zone');
    await expect(run({ dataset: 'x7qp-4kfe', mapping: MAPPING }, null)).rejects.toThrow('socrata config: domain is required when the source has no URL');
  });
});

describe('open-data record mapping', () => {
  const zone = 'America/Chicago';
  it('reads US dates with a separate time column, legacy locations and price ranges', () => {
    const c = mapOpenDataRecord(
      {
        name: 'Block Party',
        date: '07/04/2026',
        from: '6:30 PM',
        to: '9 p.m.',
        loc: { latitude: '41.8781', longitude: '-87.6298', human_address: '{"address": "50 W Washington St", "city": "Chicago", "state": "IL", "zip": "60602"}' },
        cost: '$5 - $10',
        tags: ['Music', 'Food', 'Music'],
      },
      { title: 'name', start: 'date', startTime: 'from', endTime: 'to', location: 'loc', price: 'cost', category: 'tags' },
      zone,
    )!;
    expect(c.start.toISOString()).toBe('2026-07-04T23:30:00.000Z');
    expect(c.end?.toISOString()).toBe('2026-07-05T02:00:00.000Z');
    expect(c).toMatchObject({ lat: 41.8781, lng: -87.6298, address: '50 W Washington St, Chicago, IL 60602', price: 5, priceMax: 10, categories: ['Music', 'Food'] });
    expect(c.allDay).toBeUndefined();
  });

  it('keeps offsets, reads WKT points and multi-day all-day ranges, and skips records without a date', () => {
    const zoned = mapOpenDataRecord({ t: 'Run', s: '2026-06-01T08:00:00-05:00', p: 'POINT (-87.62 41.88)' }, { title: 't', start: 's', location: 'p' }, zone)!;
    expect(zoned.start.toISOString()).toBe('2026-06-01T13:00:00.000Z');
    expect(zoned.timeZone).toBeUndefined();
    expect(zoned).toMatchObject({ lat: 41.88, lng: -87.62 });

    const fair = mapOpenDataRecord({ t: 'Fair', s: '2026-08-07', e: '2026-08-09' }, { title: 't', start: 's', end: 'e' }, zone)!;
    expect(fair.allDay).toBe(true);
    expect(fair.start.toISOString()).toBe('2026-08-07T05:00:00.000Z');
    expect(fair.end?.toISOString()).toBe('2026-08-10T05:00:00.000Z');

    expect(mapOpenDataRecord({ t: 'TBA', s: 'soon' }, { title: 't', start: 's' }, zone)).toBeUndefined();
    expect(mapOpenDataRecord({ s: '2026-08-07' }, { title: 't', start: 's' }, zone)).toBeUndefined();
  });

  it('reads a status column: "cancel..." cancels, text that starts "postpon..." postpones, other text lists', () => {
    const status = (text: string) => {
      const c = mapOpenDataRecord({ t: 'Concert in the Park', s: '2026-08-07T18:00:00', st: text }, { title: 't', start: 's', status: 'st' }, zone)!;
      return { cancelled: c.cancelled, postponed: c.postponed };
    };
    expect(status('Postponed')).toEqual({ cancelled: undefined, postponed: true });
    expect(status('  POSTPONED - new date TBA')).toEqual({ cancelled: undefined, postponed: true });
    expect(status('Postponement announced')).toEqual({ cancelled: undefined, postponed: true });
    expect(status('Cancelled')).toEqual({ cancelled: true, postponed: undefined });
    expect(status('Postponed, then cancelled')).toEqual({ cancelled: true, postponed: undefined });
    expect(status('Not postponed')).toEqual({ cancelled: undefined, postponed: undefined });
    expect(status('Scheduled')).toEqual({ cancelled: undefined, postponed: undefined });
  });
});
