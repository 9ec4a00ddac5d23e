import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startFeedServer, type Route } from '../../../test/feed-server.ts';
import { SourceError, type SourceSpec } from '../ingestion.types.ts';
import { eventbriteConnector } from './eventbrite.connector.ts';
import { testContext } from './test-fetch.ts';

// Samples written by us from Eventbrite's documented Event object (see __samples__/API-PROVENANCE.md).
const sample = (name: string) => readFileSync(new URL(`./__samples__/eventbrite/${name}`, import.meta.url), 'utf8');
const NOW = new Date('2026-06-01T07:00:00Z'); // midnight in Portland

const json = (body: string, status = 200): Route => (_req, res) => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(body);
};

function source(url: string | null, config: Record<string, unknown>): SourceSpec {
  return { id: 'src-eb', name: 'Eventbrite', connector: 'eventbrite', url, sourceType: 'api', config };
}

let server: Awaited<ReturnType<typeof startFeedServer>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('eventbrite connector', () => {
  it("pages through an organizer's live events with the bearer token and maps them", async () => {
    server = await startFeedServer({
      '/v3/organizers/40211928374/events/': (req, res, body) => {
        const continuation = new URL(req.url ?? '/', 'http://x').searchParams.get('continuation');
        return json(sample(continuation ? 'organizer-events-page2.json' : 'organizer-events-page1.json'))(req, res, body);
      },
    });
    const result = await eventbriteConnector.run(source(server.url('/v3/'), { token: 'PRIVATE-TOKEN', organizerId: '40211928374' }), testContext(NOW));

    expect(server.hits).toHaveLength(2);
    for (const hit of server.hits) expect(hit.headers.authorization).toBe('Bearer PRIVATE-TOKEN');
    const first = new URL(server.hits[0]!.url, 'http://x').searchParams;
    expect(first.get('status')).toBe('live');
    expect(first.get('order_by')).toBe('start_asc');
    expect(first.get('expand')).toBe('venue,ticket_availability,category,subcategory,format');
    expect(first.has('continuation')).toBe(false);
    expect(new URL(server.hits[1]!.url, 'http://x').searchParams.get('continuation')).toBe('eyJwYWdlIjogMn0');

    // The fourth event (26 September) is past the 60-day horizon.
    expect(result.candidates.map((c) => c.externalId)).toEqual(['918273645501', '918273645502', '918273645503']);
    const [fair, walk, online] = result.candidates;
    expect(fair).toMatchObject({
      title: 'Sellwood Summer Print Fair',
      url: 'https://www.eventbrite.com/e/sellwood-summer-print-fair-tickets-918273645501',
      timeZone: 'America/Los_Angeles',
      venueName: 'Oaks Park Dance Pavilion',
      address: '7805 SE Oaks Park Way, Portland, OR 97202',
      lat: 45.4727151,
      lng: -122.6617482,
      price: 12,
      currency: 'USD',
      categories: ['Performing & Visual Arts', 'Fine Art', 'Festival or Fair'],
    });
    expect(fair!.start.toISOString()).toBe('2026-06-13T17:00:00.000Z');
    expect(fair!.end?.toISOString()).toBe('2026-06-13T23:00:00.000Z');
    expect(fair!.isFree).toBeUndefined();
    // ticket_availability minimum $12.00, maximum $20.00.
    expect(fair!.priceMax).toBe(20);
    expect(fair!.description).toContain('<strong>Kids under 12 free.</strong>');
    expect(fair!.imageUrl).toMatch(/^https:\/\/img\.evbuc\.com\/.*original\.jpg/);

    expect(walk).toMatchObject({ title: 'Tryon Creek Bird Walk', isFree: true, price: 0, lat: 45.4418022, lng: -122.6745117 });
    expect(walk!.start.toISOString()).toBe('2026-06-20T14:30:00.000Z');

    // Online: no venue, even though Eventbrite would accept one.
    expect(online).toMatchObject({ title: 'Backyard Composting 101 (Online)', isFree: true });
    expect(online!.venueName).toBeUndefined();
    expect(online!.lat).toBeUndefined();
    expect(online!.start.toISOString()).toBe('2026-07-09T01:00:00.000Z');
  });

  it("lists a venue's events and follows page numbers when there is no continuation", async () => {
    const page1 = JSON.parse(sample('organizer-events-page1.json')) as { pagination: Record<string, unknown> };
    page1.pagination.continuation = null;
    server = await startFeedServer({
      '/v3/venues/287364519/events/': (req, res, body) => {
        const page = new URL(req.url ?? '/', 'http://x').searchParams.get('page');
        return json(page === '2' ? sample('organizer-events-page2.json') : JSON.stringify(page1))(req, res, body);
      },
    });
    const result = await eventbriteConnector.run(source(server.url('/v3'), { token: 't', venueId: 287364519 }), testContext(NOW));
    expect(server.hits.map((h) => new URL(h.url, 'http://x').searchParams.get('page'))).toEqual([null, '2']);
    expect(result.candidates).toHaveLength(3);
  });

  it('marks a canceled event and falls back to the local time in its zone', async () => {
    const page = JSON.parse(sample('organizer-events-page1.json')) as { pagination: Record<string, unknown>; events: Record<string, unknown>[] };
    page.pagination.has_more_items = false;
    page.events[0]!.status = 'canceled';
    page.events[0]!.start = { timezone: 'America/Los_Angeles', local: '2026-06-13T10:00:00' };
    server = await startFeedServer({ '/v3/organizers/1/events/': json(JSON.stringify(page)) });
    const result = await eventbriteConnector.run(source(server.url('/v3'), { token: 't', organizerId: '1' }), testContext(NOW));
    expect(result.candidates[0]).toMatchObject({ cancelled: true });
    expect(result.candidates[0]!.start.toISOString()).toBe('2026-06-13T17:00:00.000Z');
  });

  it('reports a refused token with the status and Eventbrite\'s reason', async () => {
    server = await startFeedServer({
      '/v3/organizers/1/events/': json('{"status_code": 401, "error_description": "The OAuth token you provided was invalid.", "error": "INVALID_AUTH"}', 401),
    });
    const run = eventbriteConnector.run(source(server.url('/v3'), { token: 'bad', organizerId: '1' }), testContext(NOW));
    await expect(run).rejects.toBeInstanceOf(SourceError);
    await expect(run).rejects.toThrow('credentials refused by Eventbrite (HTTP 401: The OAuth token you provided was invalid.)');
  });

  it('reports other HTTP errors and malformed JSON', async () => {
    server = await startFeedServer({
      '/v3/organizers/404/events/': json('{"status_code": 404, "error_description": "The organizer you requested does not exist.", "error": "NOT_FOUND"}', 404),
      '/v3/organizers/2/events/': json('<html>maintenance</html>'),
    });
    await expect(eventbriteConnector.run(source(server.url('/v3'), { token: 't', organizerId: '404' }), testContext(NOW))).rejects.toThrow(
      'Eventbrite answered HTTP 404: The organizer you requested does not exist.',
    );
    await expect(eventbriteConnector.run(source(server.url('/v3'), { token: 't', organizerId: '2' }), testContext(NOW))).rejects.toThrow(
      'Eventbrite sent malformed JSON (HTTP 200)',
    );
  });

  it('rejects a bad config, naming the field', async () => {
    const run = (config: Record<string, unknown>) => eventbriteConnector.run(source(null, config), testContext(NOW));
    await expect(run({ organizerId: '1' })).rejects.toThrow(/^eventbrite config: token /);
    await expect(run({ token: 't' })).rejects.toThrow('eventbrite config: organizerId set organizerId or venueId (exactly one)');
    await expect(run({ token: 't', organizerId: '1', venueId: '2' })).rejects.toThrow(/organizerId set organizerId or venueId/);
    await expect(run({ token: 't', organizerId: '../users/me' })).rejects.toThrow('eventbrite config: organizerId must be a numeric Eventbrite id');
  });
});
