import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startFeedServer, type Route } from '../../../test/feed-server.ts';
import { SourceError, type SourceSpec } from '../ingestion.types.ts';
import { mobilizonConnector } from './mobilizon.connector.ts';
import { testContext } from './test-fetch.ts';

// Samples written by us from Mobilizon's GraphQL schema (see __samples__/API-PROVENANCE.md).
const sample = (name: string) => readFileSync(new URL(`./__samples__/mobilizon/${name}`, import.meta.url), 'utf8');
const NOW = new Date('2026-06-01T07:00:00Z');

const json = (body: string, status = 200): Route => (_req, res) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(body);
};

function source(url: string | null, config: Record<string, unknown> = {}): SourceSpec {
  return { id: 'src-mobilizon', name: 'Mobilizon PDX', connector: 'mobilizon', url, sourceType: 'agenda', config };
}

interface GqlRequest {
  query: string;
  variables: Record<string, unknown>;
}

let server: Awaited<ReturnType<typeof startFeedServer>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('mobilizon connector', () => {
  it("searches the instance's events in the window, page by page, and maps them", async () => {
    server = await startFeedServer({
      '/api': (req, res, body) => {
        const { variables } = JSON.parse(body) as GqlRequest;
        return json(sample(variables.page === 1 ? 'search-events-page1.json' : 'search-events-page2.json'))(req, res, body);
      },
    });
    const result = await mobilizonConnector.run(source(server.url('/events/b3f0d6a2-4c1e-4a8b-9f27-6d5e8c3a1b90'), { pageSize: 2 }), testContext(NOW));

    expect(server.hits).toHaveLength(2);
    const requests = server.hits.map((h) => JSON.parse(h.body) as GqlRequest);
    expect(server.hits[0]!.method).toBe('POST');
    expect(server.hits[0]!.headers['content-type']).toBe('application/json');
    expect(server.hits[0]!.headers.authorization).toBeUndefined();
    expect(requests[0]!.query).toMatch(/searchEvents\(beginsOn: \$beginsOn, endsOn: \$endsOn, page: \$page, limit: \$limit\)/);
    expect(requests[0]!.variables).toEqual({ beginsOn: '2026-06-01T07:00:00.000Z', endsOn: '2026-07-31T07:00:00.000Z', page: 1, limit: 2 });
    expect(requests[1]!.variables.page).toBe(2);

    expect(result.candidates.map((c) => c.externalId)).toEqual([
      'b3f0d6a2-4c1e-4a8b-9f27-6d5e8c3a1b90',
      '0c9e2f41-7a3b-4d6c-8e15-2b4f6a8d0c37',
      '7d2a5b80-3e6f-4c19-a4d7-91c0e5b2f648',
    ]);
    const [tools, potluck, choir] = result.candidates;
    expect(tools).toMatchObject({
      title: 'Kenton Neighborhood Tool Library Open House',
      url: 'https://mobilizon.pdx.example/events/b3f0d6a2-4c1e-4a8b-9f27-6d5e8c3a1b90',
      imageUrl: 'https://mobilizon.pdx.example/media/5e1c7a9d2b3f4e6a8c0d.jpg',
      venueName: 'Kenton Tool Library',
      address: '8226 N Denver Ave, 97217 Portland, Oregon, United States',
      lat: 45.5826,
      lng: -122.6865,
      categories: ['community', 'Tools', 'Sharing economy'],
      attendeeCount: 23,
    });
    expect(tools!.start.toISOString()).toBe('2026-06-12T01:00:00.000Z');
    expect(tools!.end?.toISOString()).toBe('2026-06-12T03:00:00.000Z');
    expect(tools!.price).toBeUndefined();
    expect(tools!.description).toContain('<p>Tour the shelves');

    expect(potluck).toMatchObject({ price: 0, isFree: true, currency: 'USD', lat: 45.5709, lng: -122.6521 });
    // Two offers, $10 and $5: the lowest and the highest.
    expect(choir).toMatchObject({ cancelled: true, price: 5, priceMax: 10, currency: 'USD', categories: ['music', 'Choir'] });
    expect(potluck!.priceMax).toBeUndefined();
  });

  it("reads one group's organized events", async () => {
    server = await startFeedServer({ '/api': json(sample('group-organized-events.json')) });
    const result = await mobilizonConnector.run(source(server.url('/@pdx_tool_library'), { groupSlug: 'pdx_tool_library' }), testContext(NOW));
    expect(server.hits).toHaveLength(1);
    const request = JSON.parse(server.hits[0]!.body) as GqlRequest;
    expect(request.query).toMatch(/group\(preferredUsername: \$slug\)/);
    expect(request.query).toMatch(/organizedEvents\(afterDatetime: \$after, page: \$page, limit: \$limit\)/);
    expect(request.variables).toEqual({ slug: 'pdx_tool_library', after: '2026-06-01T07:00:00.000Z', page: 1, limit: 50 });
    expect(result.candidates).toHaveLength(2);
  });

  it('reports an unknown group, a private instance and malformed JSON', async () => {
    server = await startFeedServer({
      '/a/api': json('{"data":{"group":null},"errors":[{"message":"Group not found","locations":[{"line":2,"column":3}],"path":["group"],"status_code":404}]}'),
      '/b/api': json('{"data":{"searchEvents":null},"errors":[{"message":"You need to be logged in","path":["searchEvents"],"status_code":401}]}'),
      '/c/api': json('<html><body>Welcome to nginx!</body></html>'),
    });
    await expect(mobilizonConnector.run(source(server.url('/a'), { groupSlug: 'nobody' }), testContext(NOW))).rejects.toThrow('Mobilizon GraphQL error: Group not found');
    const refused = mobilizonConnector.run(source(server.url('/b')), testContext(NOW));
    await expect(refused).rejects.toBeInstanceOf(SourceError);
    await expect(refused).rejects.toThrow('credentials refused by Mobilizon (HTTP 401: You need to be logged in)');
    await expect(mobilizonConnector.run(source(server.url('/c')), testContext(NOW))).rejects.toThrow(
      'Mobilizon sent malformed JSON (HTTP 200); is the source URL a Mobilizon instance?',
    );
  });

  it('rejects a bad config or a missing instance URL', async () => {
    await expect(mobilizonConnector.run(source(null), testContext(NOW))).rejects.toThrow('mobilizon: the source URL (the instance) is required');
    await expect(mobilizonConnector.run(source('https://mobilizon.example.org', { groupSlug: 'Tool Library!' }), testContext(NOW))).rejects.toThrow(
      /^mobilizon config: groupSlug must be a group name/,
    );
  });
});
