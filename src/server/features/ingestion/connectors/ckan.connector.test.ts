import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startFeedServer, type Route } from '../../../test/feed-server.ts';
import { SourceError, type SourceSpec } from '../ingestion.types.ts';
import { ckanConnector } from './ckan.connector.ts';
import { testContext } from './test-fetch.ts';

// Samples written by us from CKAN's DataStore API documentation (see __samples__/API-PROVENANCE.md).
const sample = (name: string) => readFileSync(new URL(`./__samples__/ckan/${name}`, import.meta.url), 'utf8');
const NOW = new Date('2026-06-01T07:00:00Z'); // midnight in Portland
const RESOURCE = '6b1c3e52-9a4f-4f0e-8d6b-2e7c1a5f9d31';

const json = (body: string, status = 200): Route => (_req, res) => {
  res.writeHead(status, { 'content-type': 'application/json;charset=utf-8' }).end(body);
};

const MAPPING = {
  id: 'Event ID',
  title: 'Title',
  start: 'Starts',
  end: 'Ends',
  venue: 'Branch',
  address: 'Street Address',
  lat: 'Lat',
  lng: 'Lon',
  price: 'Cost',
  url: 'Web Page',
  description: 'Summary',
  category: 'Audience',
};

function source(url: string | null, config: Record<string, unknown>): SourceSpec {
  return { id: 'src-ckan', name: 'Library events', connector: 'ckan', url, sourceType: 'open-data', config };
}

let server: Awaited<ReturnType<typeof startFeedServer>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('ckan connector', () => {
  it('pages through datastore_search sorted by start and stops past the horizon', async () => {
    server = await startFeedServer({
      '/api/3/action/datastore_search': (req, res, body) => {
        const offset = new URL(req.url ?? '/', 'http://x').searchParams.get('offset');
        return json(sample(offset === '0' ? 'datastore_search-offset0.json' : 'datastore_search-offset2.json'))(req, res, body);
      },
    });
    const result = await ckanConnector.run(
      source(server.url('/dataset/library-events'), { resourceId: RESOURCE, pageSize: 2, apiKey: 'CKAN-KEY', filters: { Audience: 'Adults' }, mapping: MAPPING }),
      testContext(NOW),
    );

    // total is 5, but the second page already sorts past the 60-day horizon (a September sale).
    expect(server.hits).toHaveLength(2);
    const q = new URL(server.hits[0]!.url, 'http://x').searchParams;
    expect(Object.fromEntries(q)).toEqual({ resource_id: RESOURCE, limit: '2', offset: '0', sort: 'Starts asc', filters: '{"Audience":"Adults"}' });
    expect(new URL(server.hits[1]!.url, 'http://x').searchParams.get('offset')).toBe('2');
    expect(server.hits[0]!.headers.authorization).toBe('CKAN-KEY');

    expect(result.candidates.map((c) => c.externalId)).toEqual(['MCL-88120', 'MCL-88131', 'MCL-88150']);
    const [anime, seeds, talk] = result.candidates;
    expect(anime).toMatchObject({
      title: 'Teen Anime Club',
      venueName: 'Hollywood Library',
      address: '4040 NE Tillamook St, Portland, OR 97212',
      lat: 45.538912,
      lng: -122.621504,
      isFree: true,
      price: 0,
      url: 'https://multcolib.example.org/events/mcl-88120',
      categories: ['Teens'],
      timeZone: 'America/Los_Angeles',
    });
    expect(anime!.start.toISOString()).toBe('2026-06-10T23:00:00.000Z');
    expect(anime!.end?.toISOString()).toBe('2026-06-11T00:30:00.000Z');

    expect(seeds!.price).toBeUndefined(); // Cost is null
    expect(seeds!.isFree).toBeUndefined();
    expect(seeds!.categories).toEqual(['Adults', 'Families']);

    // Cost "$5 suggested donation".
    expect(talk).toMatchObject({ title: 'Author Talk: Rivers of the Willamette Valley', price: 5, priceNote: 'suggested donation', lat: 45.519018 });
    expect(talk!.start.toISOString()).toBe('2026-06-25T01:30:00.000Z');
  });

  it('reads the site from an API URL and goes on to result.total when the start column is text', async () => {
    const page2 = JSON.parse(sample('datastore_search-offset2.json')) as { result: { fields: { id: string; type: string }[] } };
    for (const f of page2.result.fields) if (f.id === 'Starts') f.type = 'text';
    server = await startFeedServer({
      '/ckan/api/3/action/datastore_search': (req, res, body) => {
        const offset = new URL(req.url ?? '/', 'http://x').searchParams.get('offset');
        const page = offset === '0' ? sample('datastore_search-offset0.json') : offset === '2' ? JSON.stringify(page2) : '{"success": true, "result": {"records": [], "total": 5}}';
        return json(page)(req, res, body);
      },
    });
    const result = await ckanConnector.run(
      source(server.url('/ckan/api/3/action/datastore_search?resource_id=x'), { resourceId: RESOURCE, pageSize: 2, q: 'library', mapping: MAPPING }),
      testContext(NOW),
    );
    expect(server.hits.map((h) => new URL(h.url, 'http://x').searchParams.get('offset'))).toEqual(['0', '2', '4']);
    expect(new URL(server.hits[0]!.url, 'http://x').searchParams.get('q')).toBe('library');
    expect(server.hits[0]!.headers.authorization).toBeUndefined();
    expect(result.candidates).toHaveLength(3);
  });

  it('reports refused access, CKAN errors and malformed JSON', async () => {
    server = await startFeedServer({
      '/denied/api/3/action/datastore_search': json('{"help": "...", "success": false, "error": {"message": "Access denied: User  not authorized to read resource", "__type": "Authorization Error"}}', 403),
      '/missing/api/3/action/datastore_search': json(`{"help": "...", "success": false, "error": {"message": "Not found: Resource \\"${RESOURCE}\\" was not found.", "__type": "Not Found Error"}}`, 404),
      '/broken/api/3/action/datastore_search': json('{"success": true, "result": {"records": [{"Title": '),
    });
    const run = (site: string) => ckanConnector.run(source(server!.url(site), { resourceId: RESOURCE, mapping: MAPPING }), testContext(NOW));
    await expect(run('/denied')).rejects.toBeInstanceOf(SourceError);
    await expect(run('/denied')).rejects.toThrow('credentials refused by CKAN (HTTP 403: Access denied: User  not authorized to read resource)');
    await expect(run('/missing')).rejects.toThrow(`CKAN answered HTTP 404: Not found: Resource "${RESOURCE}" was not found.`);
    await expect(run('/broken')).rejects.toThrow('CKAN sent malformed JSON (HTTP 200)');
  });

  it('rejects a bad config, naming the field', async () => {
    const run = (config: Record<string, unknown>, url: string | null = 'http://127.0.0.1:9') => ckanConnector.run(source(url, config), testContext(NOW));
    await expect(run({ mapping: MAPPING })).rejects.toThrow(/^ckan config: resourceId /);
    await expect(run({ resourceId: RESOURCE, mapping: { ...MAPPING, title: '' } })).rejects.toThrow(/^ckan config: mapping\.title /);
    await expect(run({ resourceId: RESOURCE, mapping: MAPPING, filters: { Audience: ['a'] } })).rejects.toThrow(/^ckan config: filters\.Audience /);
    await expect(run({ resourceId: RESOURCE, mapping: MAPPING }, null)).rejects.toThrow('ckan: the source URL (the CKAN site) is required');
  });
});
