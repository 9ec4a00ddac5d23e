import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startFeedServer, type Route } from '../../../test/feed-server.ts';
import { SourceError, type SourceSpec } from '../ingestion.types.ts';
import { gancioConnector } from './gancio.connector.ts';
import { testContext } from './test-fetch.ts';

// Samples written by us from Gancio's events API (see __samples__/API-PROVENANCE.md).
const sample = (name: string) => readFileSync(new URL(`./__samples__/gancio/${name}`, import.meta.url), 'utf8');
const NOW = new Date('2026-06-01T07:00:00Z');

const json = (body: string, status = 200, type = 'application/json; charset=utf-8'): Route => (_req, res) => {
  res.writeHead(status, { 'content-type': type }).end(body);
};

function source(url: string | null, config: Record<string, unknown> = {}): SourceSpec {
  return { id: 'src-gancio', name: 'Gancio PDX', connector: 'gancio', url, sourceType: 'agenda', config };
}

let server: Awaited<ReturnType<typeof startFeedServer>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('gancio connector', () => {
  it('asks for the window page by page and maps the events, without a token', async () => {
    server = await startFeedServer({
      '/api/events': (req, res, body) => {
        const page = new URL(req.url ?? '/', 'http://x').searchParams.get('page');
        return json(page === '0' ? sample('events-page0.json') : page === '1' ? sample('events-page1.json') : '[]')(req, res, body);
      },
    });
    const instance = server.url('');
    const result = await gancioConnector.run(source(`${instance}/`, { pageSize: 2 }), testContext(NOW));

    expect(server.hits).toHaveLength(3);
    const q = new URL(server.hits[0]!.url, 'http://x').searchParams;
    expect(Object.fromEntries(q)).toEqual({ start: '1780297200', end: '1785481200', show_recurrent: 'true', max: '2', page: '0' });
    expect(server.hits.map((h) => new URL(h.url, 'http://x').searchParams.get('page'))).toEqual(['0', '1', '2']);
    expect(server.hits[0]!.headers.authorization).toBeUndefined();

    expect(result.candidates.map((c) => c.externalId)).toEqual(['214', '219', '231', '240']);
    const [repair, punk, bikes, zines] = result.candidates;
    expect(repair).toMatchObject({
      title: 'Repair Café at St. Johns',
      url: `${instance}/event/repair-cafe-at-st-johns`,
      imageUrl: `${instance}/media/3f9a1c2e7b5d4e8f9a0b1c2d3e4f5a6b.jpg`,
      venueName: 'St. Johns Community Center',
      address: '8427 N Central St, Portland, OR 97203',
      lat: 45.5893,
      lng: -122.7543,
      categories: ['repair', 'community', 'free'],
    });
    expect(repair!.start.toISOString()).toBe('2026-06-07T20:00:00.000Z');
    expect(repair!.end?.toISOString()).toBe('2026-06-07T23:00:00.000Z');
    expect(repair!.price).toBeUndefined(); // Gancio has no prices

    expect(punk).toMatchObject({ venueName: 'Rose City Grange Hall', lat: 45.517118, lng: -122.654341 });
    expect(punk!.imageUrl).toBeUndefined();

    // An occurrence of a recurring event, at a place without coordinates.
    expect(bikes).toMatchObject({ venueName: 'Bikes for Humanity Shop', url: `${instance}/event/weekly-bike-fix-it-night-2` });
    expect(bikes!.lat).toBeUndefined();
    expect(bikes!.start.toISOString()).toBe('2026-06-18T01:00:00.000Z');

    expect(zines!.venueName).toBeUndefined();
    expect(zines!.end).toBeUndefined();
  });

  it('filters by tags and stops when an old instance repeats the same list', async () => {
    server = await startFeedServer({ '/gancio/api/events': json(sample('events-page0.json')) });
    const result = await gancioConnector.run(source(server.url('/gancio/event/some-event'), { tags: ['repair', 'music'], pageSize: 2 }), testContext(NOW));
    expect(server.hits).toHaveLength(2);
    expect(new URL(server.hits[0]!.url, 'http://x').searchParams.get('tags')).toBe('repair,music');
    expect(result.candidates).toHaveLength(2);
  });

  it('notes the records it cannot read and an instance with more pages than one run reads', async () => {
    const start = 1780297200 + 86_400;
    server = await startFeedServer({
      '/api/events': (req, res, body) => {
        const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page'));
        return json(JSON.stringify([{ id: page, title: `Show ${page}`, start_datetime: start + page * 3600 }, { id: `untitled-${page}`, start_datetime: start }]))(req, res, body);
      },
    });
    const result = await gancioConnector.run(source(server.url(''), { pageSize: 2 }), testContext(NOW));
    expect(server.hits).toHaveLength(20);
    expect(result.candidates).toHaveLength(20);
    expect(result.notes).toEqual([
      { kind: 'skipped', reason: 'had no id, title or start date that could be read', count: 20, examples: ['untitled-0', 'untitled-1', 'untitled-2'] },
      { kind: 'unread', reason: 'had been read when the run reached its page limit (20 pages); the source lists more, not read this run', count: 20, examples: [] },
    ]);
  });

  it('reports HTTP errors and a page that is not JSON', async () => {
    server = await startFeedServer({
      '/down/api/events': json('<h1>502 Bad Gateway</h1>', 502, 'text/html'),
      '/wordpress/api/events': json('<!doctype html><title>Not a Gancio</title>', 200, 'text/html'),
    });
    await expect(gancioConnector.run(source(server.url('/down')), testContext(NOW))).rejects.toThrow('Gancio answered HTTP 502');
    const run = gancioConnector.run(source(server.url('/wordpress')), testContext(NOW));
    await expect(run).rejects.toBeInstanceOf(SourceError);
    await expect(run).rejects.toThrow('Gancio sent malformed JSON (HTTP 200); is the source URL a Gancio instance?');
  });

  it('rejects a bad config or a missing instance URL', async () => {
    await expect(gancioConnector.run(source(null), testContext(NOW))).rejects.toThrow('gancio: the source URL (the instance) is required');
    await expect(gancioConnector.run(source('https://gancio.example.org', { tags: 'music' }), testContext(NOW))).rejects.toThrow(/^gancio config: tags /);
  });
});
