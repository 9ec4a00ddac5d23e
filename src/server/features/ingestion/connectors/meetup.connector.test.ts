import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startFeedServer, type Route } from '../../../test/feed-server.ts';
import { SourceError, type SourceSpec } from '../ingestion.types.ts';
import { meetupConnector } from './meetup.connector.ts';
import { testContext } from './test-fetch.ts';

// Samples written by us from Meetup's GraphQL schema (see __samples__/API-PROVENANCE.md).
const sample = (name: string) => readFileSync(new URL(`./__samples__/meetup/${name}`, import.meta.url), 'utf8');
const NOW = new Date('2026-06-01T07:00:00Z');

const json = (body: string, status = 200): Route => (_req, res) => {
  res.writeHead(status, { 'content-type': 'application/json;charset=utf-8' }).end(body);
};

function source(url: string | null, config: Record<string, unknown>): SourceSpec {
  return { id: 'src-mu', name: 'Meetup', connector: 'meetup', url, sourceType: 'api', config };
}

interface GqlRequest {
  query: string;
  variables: { urlname: string; first: number; after: string | null; from: string; to: string };
}

let server: Awaited<ReturnType<typeof startFeedServer>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('meetup connector', () => {
  it("posts the group query with the bearer token, follows the cursor and maps the group's events", async () => {
    server = await startFeedServer({
      '/gql-ext': (req, res, body) => {
        const { variables } = JSON.parse(body) as GqlRequest;
        return json(sample(variables.after ? 'group-events-page2.json' : 'group-events-page1.json'))(req, res, body);
      },
    });
    const result = await meetupConnector.run(
      source(server.url('/gql-ext'), { token: 'ACCESS-TOKEN', groupUrlname: 'portland-urban-sketchers' }),
      testContext(NOW),
    );

    expect(server.hits).toHaveLength(2);
    const [first, second] = server.hits.map((h) => ({ ...h, request: JSON.parse(h.body) as GqlRequest }));
    expect(first!.method).toBe('POST');
    expect(first!.headers.authorization).toBe('Bearer ACCESS-TOKEN');
    expect(first!.headers['content-type']).toBe('application/json');
    expect(first!.request.query).toMatch(/groupByUrlname\(urlname: \$urlname\)/);
    expect(first!.request.query).toMatch(/status: \[UPCOMING, CANCELLED\]/);
    expect(first!.request.variables).toEqual({
      urlname: 'portland-urban-sketchers',
      first: 50,
      after: null,
      from: '2026-06-01T07:00:00.000Z',
      to: '2026-07-31T07:00:00.000Z',
    });
    expect(second!.request.variables.after).toBe('MzA1MTEyMjQwOjE3ODE3NDYyMDAwMDA=');

    expect(result.candidates.map((c) => c.externalId)).toEqual(['305112233', '305112240', '305112251']);
    const [crawl, workshop, critique] = result.candidates;
    expect(crawl).toMatchObject({
      title: 'Sketch Crawl: Pioneer Courthouse Square',
      url: 'https://www.meetup.com/portland-urban-sketchers/events/305112233/',
      venueName: 'Pioneer Courthouse Square',
      address: '701 SW 6th Ave, Portland, OR 97204',
      lat: 45.518669,
      lng: -122.679167,
      isFree: true,
      price: 0,
      attendeeCount: 18,
      imageUrl: 'https://secure-content.meetupstatic.com/images/classic-events/521334455/676x380.webp',
    });
    expect(crawl!.start.toISOString()).toBe('2026-06-06T17:00:00.000Z');
    expect(crawl!.end?.toISOString()).toBe('2026-06-06T20:00:00.000Z');
    expect(crawl!.cancelled).toBeUndefined();

    expect(workshop).toMatchObject({ title: 'Watercolor Basics Workshop', price: 15, currency: 'USD', venueName: 'Multnomah Arts Center' });
    expect(workshop!.isFree).toBeUndefined();
    expect(workshop!.start.toISOString()).toBe('2026-06-18T01:30:00.000Z');

    // Online: Meetup's placeholder venue (and its coordinates in the Pacific) is not a place.
    expect(critique).toMatchObject({ cancelled: true, attendeeCount: 4 });
    expect(critique!.venueName).toBeUndefined();
    expect(critique!.lat).toBeUndefined();
    expect(critique!.end!.getTime() - critique!.start.getTime()).toBe(90 * 60_000);
  });

  it('defaults to the public endpoint when the source URL is the group page', async () => {
    const calls: string[] = [];
    const ctx = testContext(NOW, {
      fetch: async (url) => {
        calls.push(url);
        const body = Buffer.from(sample('group-events-page2.json'));
        return { status: 200, url, headers: {}, body, text: () => body.toString('utf8') };
      },
    });
    const result = await meetupConnector.run(source('https://www.meetup.com/portland-urban-sketchers/', { token: 't', groupUrlname: 'portland-urban-sketchers' }), ctx);
    expect(calls).toEqual(['https://api.meetup.com/gql-ext']);
    expect(result.candidates).toHaveLength(1);
  });

  it('reports a refused token', async () => {
    server = await startFeedServer({ '/gql-ext': json('{"errors":[{"message":"Invalid or expired token"}]}', 401) });
    const run = meetupConnector.run(source(server.url('/gql-ext'), { token: 'expired', groupUrlname: 'g' }), testContext(NOW));
    await expect(run).rejects.toBeInstanceOf(SourceError);
    await expect(run).rejects.toThrow('credentials refused by Meetup (HTTP 401: Invalid or expired token)');
  });

  it('reports an unknown group, GraphQL errors and malformed JSON', async () => {
    server = await startFeedServer({
      '/missing': json('{"data":{"groupByUrlname":null}}'),
      '/errors': json('{"data":null,"errors":[{"message":"Cannot query field \\"venues\\" on type \\"Event\\".","extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}'),
      '/broken': json('{"data":{"groupByUrlname":'),
    });
    const run = (path: string) => meetupConnector.run(source(server!.url(path), { token: 't', groupUrlname: 'no-such-group' }), testContext(NOW));
    await expect(run('/missing')).rejects.toThrow('Meetup group "no-such-group" was not found');
    await expect(run('/errors')).rejects.toThrow('Meetup GraphQL error: Cannot query field "venues" on type "Event".');
    await expect(run('/broken')).rejects.toThrow('Meetup sent malformed JSON (HTTP 200)');
  });

  it('rejects a bad config, naming the field', async () => {
    const run = (config: Record<string, unknown>) => meetupConnector.run(source(null, config), testContext(NOW));
    await expect(run({ groupUrlname: 'g' })).rejects.toThrow(/^meetup config: token /);
    await expect(run({ token: 't' })).rejects.toThrow(/^meetup config: groupUrlname /);
    await expect(run({ token: 't', groupUrlname: 'https://www.meetup.com/g/' })).rejects.toThrow('meetup config: groupUrlname must be the group URL name');
  });
});
