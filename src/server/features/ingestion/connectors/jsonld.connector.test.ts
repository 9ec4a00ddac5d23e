import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFeedServer, serveText, type Route } from '../../../test/feed-server.ts';
import { createSafeFetch } from '../fetch/safe-fetch.ts';
import type { CandidateEvent, ConnectorContext, SourceSpec } from '../ingestion.types.ts';
import { closeSharedSandbox, parseInSandbox } from '../parse/sandbox.ts';
import { jsonldConnector } from './jsonld.connector.ts';

const FIX = resolve(process.cwd(), '../shared/fixtures');
const JSONLD = join(FIX, 'jsonld');
const has = existsSync(JSONLD);

const fetch = createSafeFetch({ allowPrivate: true });
const ctx = (now: string, timeZone: string, extra: Partial<ConnectorContext> = {}): ConnectorContext => ({ fetch, now: new Date(now), timeZone, horizonDays: 180, listAheadDays: 730, maxOccurrences: 500, ...extra });
const source = (url: string): SourceSpec => ({ id: 's', name: 'Page', connector: 'jsonld', url, sourceType: 'jsonld', config: {} });
const iso = (d: Date | undefined) => d?.toISOString();
const page = (...blocks: string[]) => `<!doctype html><html><head><title>Events</title>${blocks.map((b) => `<script type="application/ld+json">${b}</script>`).join('\n')}</head><body><p>What's on</p></body></html>`;

const inline: Record<string, string> = {};
let server: Awaited<ReturnType<typeof startFeedServer>>;

beforeAll(async () => {
  const routes: Record<string, Route> = {
    '/inline': (req, res) => {
      const name = new URL(req.url ?? '/', 'http://x').searchParams.get('name') ?? '';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(inline[name] ?? '');
    },
  };
  if (has) for (const f of readdirSync(JSONLD)) routes[`/jsonld/${f}`] = serveText(readFileSync(join(JSONLD, f)), f.endsWith('.html') ? 'text/html; charset=utf-8' : 'application/json');
  server = await startFeedServer(routes);
  // Start the parser process now, so the first test does not pay for it.
  await parseInSandbox('jsonld', { text: '<html></html>', now: new Date(), timeZone: 'UTC', horizonDays: 1, maxOccurrences: 1 });
});

afterAll(async () => {
  await server.close();
  await closeSharedSandbox();
});

function runInline(name: string, html: string, now = '2026-01-10T00:00:00Z', timeZone = 'Europe/Berlin', extra: Partial<ConnectorContext> = {}) {
  inline[name] = html;
  return jsonldConnector.run(source(server.url(`/inline?name=${name}`)), ctx(now, timeZone, extra));
}

// extruct's expected output: JSON-LD objects, or microdata items as { type, properties }.
type Extruct = { [k: string]: unknown };
const EVENT_TYPES = /(^|\/)(Event|MusicEvent|TheaterEvent|SportsEvent|Festival)$/;
function expectedEvents(value: unknown, out: Extruct[] = []): Extruct[] {
  if (Array.isArray(value)) for (const v of value) expectedEvents(v, out);
  else if (value && typeof value === 'object') {
    const o = value as Extruct;
    const type = String(o['@type'] ?? o.type ?? '');
    if (EVENT_TYPES.test(type)) out.push((o.properties as Extruct | undefined) ?? o);
    for (const v of Object.values(o.properties ?? o)) if (v && typeof v === 'object') expectedEvents(v, out);
  }
  return out;
}

describe.skipIf(!has)('jsonld connector on real pages (needs ../shared/fixtures)', () => {
  const run = (file: string, now = '2016-01-01T00:00:00Z', timeZone = 'America/New_York') => jsonldConnector.run(source(server.url(`/jsonld/${file}`)), ctx(now, timeZone));
  const expectedFor = (file: string) => {
    const json = JSON.parse(readFileSync(join(JSONLD, file), 'utf8')) as Extruct | Extruct[];
    return expectedEvents(Array.isArray(json) ? json : [json['json-ld'], json.microdata]);
  };

  it('songkick (several MusicEvent blocks): every JSON-LD event extruct finds, with venue, address and coordinates', async () => {
    const { candidates } = await run('extruct__songkick_elysianfields.html');
    const expected = expectedFor('extruct__songkick_elysianfields.json');
    expect(expected).toHaveLength(4);
    expect(candidates.map((c) => c.url).sort()).toEqual(expected.map((e) => String(e.url)).sort());
    for (const e of expected) {
      const c = candidates.find((x) => x.url === e.url)!;
      const location = e.location as Extruct;
      const geo = location.geo as Extruct;
      expect(c.title).toBe(e.name);
      expect(c.venueName).toBe(location.name);
      expect([c.lat, c.lng]).toEqual([geo.latitude, geo.longitude]);
      expect(c.categories).toContain('MusicEvent');
    }
    const owl = candidates.find((c) => c.venueName === 'The Owl Music Parlor')!;
    expect(iso(owl.start)).toBe('2017-06-10T23:30:00.000Z'); // "2017-06-10T19:30:00-0400"
    expect(owl.address).toBe('497 Rogers Ave, Brooklyn, NY 11225, US');
    expect(iso(candidates.find((c) => c.venueName === 'Le VIP')!.start)).toBe('2016-10-29T19:00:00.000Z'); // +0200
  });

  it('two snapshots of the same songkick page give the same external ids', async () => {
    const a = await run('extruct__songkick_elysianfields.html');
    const b = await run('extruct__songkick_elysianfields_1.html');
    expect(b.candidates.map((c) => c.externalId).sort()).toEqual(a.candidates.map((c) => c.externalId).sort());
  });

  it('songkick tovestyrke: entities decoded, PostalAddress joined', async () => {
    const { candidates } = await run('extruct__songkick_tovestyrke.html', '2016-01-01T00:00:00Z', 'Europe/London');
    expect(candidates).toHaveLength(1);
    const c = candidates[0]!;
    expect(c.title).toBe('Tove Styrke');
    expect(iso(c.start)).toBe('2017-06-12T19:00:00.000Z');
    expect(c.venueName).toBe('Hoxton Square Bar & Kitchen');
    expect(c.address).toBe('2-4 Hoxton Square, London, N1 6NU, UK');
  });

  it('a page whose JSON-LD blocks hold no events (and one holds `false`) gives none', async () => {
    const { candidates } = await run('extruct__songkick_jsonld_empty_item_test.html');
    expect(candidates).toEqual([]);
  });

  it('schema.org microdata examples: the events extruct finds', async () => {
    for (const n of ['001', '002', '003', '004', '008']) {
      const { candidates } = await run(`extruct__schema.org_Event.${n}.html`, '2010-01-01T00:00:00Z');
      const expected = expectedFor(`extruct__schema.org_Event.${n}.json`);
      expect(candidates.map((c) => c.title).sort(), n).toEqual(expected.map((e) => String(e.name)).sort());
    }
  });

  it('schema.org microdata: times in the city zone, AggregateOffer lowPrice, Offer with currency, cancelled, relative URLs', async () => {
    const nba = (await run('extruct__schema.org_Event.001.html', '2010-01-01T00:00:00Z')).candidates[0]!;
    expect(iso(nba.start)).toBe('2016-04-22T00:00:00.000Z'); // 20:00 EDT
    expect([nba.price, nba.isFree]).toEqual([35, false]);
    expect(nba.url).toBe(server.url('/jsonld/nba-miami-philidelphia-game3.html'));
    expect(nba.address).toBe('Philadelphia, PA');
    const typhoon = (await run('extruct__schema.org_Event.003.html', '2010-01-01T00:00:00Z', 'America/Denver')).candidates[0]!;
    expect(iso(typhoon.start)).toBe('2013-09-15T03:30:00.000Z'); // 21:30 MDT
    expect([typhoon.price, typhoon.currency, typhoon.venueName, typhoon.address]).toEqual([13, 'USD', 'The Hi-Dive', '7 S. Broadway, Denver, CO 80209']);
    expect(typhoon.cancelled).toBeUndefined();
    expect((await run('extruct__schema.org_Event.004.html', '2010-01-01T00:00:00Z')).candidates[0]!.cancelled).toBe(true);
    const globe = (await run('extruct__schema.org_Event.008.html', '2010-01-01T00:00:00Z', 'Europe/London')).candidates[0]!;
    expect([globe.venueName, globe.address, globe.categories]).toEqual(["Shakespeare's Globe", 'London, UK', ['TheaterEvent']]);
    const foo = (await run('extruct__schema.org_Event.002.html', '2010-01-01T00:00:00Z', 'America/Chicago')).candidates;
    expect(foo.map((c) => [c.title, iso(c.start), c.allDay])).toEqual([
      ['FedExForum', '2011-05-20T05:00:00.000Z', true],
      ['Mid America Center', '2011-05-23T05:00:00.000Z', true],
    ]);
  });
});

describe('jsonld connector on inline pages', () => {
  it('@graph with @id references, offers, ImageObject, isAccessibleForFree, @type arrays, and a broken block skipped', async () => {
    const graph = JSON.stringify({
      '@context': 'https://schema.org',
      '@graph': [
        { '@type': 'Place', '@id': '#hall', name: 'Town Hall', address: { '@type': 'PostalAddress', streetAddress: 'Marktplatz 1', addressLocality: 'Leipzig', postalCode: '04109', addressCountry: { '@type': 'Country', name: 'DE' } }, geo: { '@type': 'GeoCoordinates', latitude: '51.3406', longitude: '12.3747' } },
        {
          '@type': ['Event', 'Festival'],
          '@id': 'https://example.org/e/lichtfest',
          name: 'Lichtfest &amp; Konzert',
          startDate: '2026-02-14T18:00',
          endDate: '2026-02-14T22:00',
          location: { '@id': '#hall' },
          offers: [
            { '@type': 'Offer', price: '18.50', priceCurrency: 'EUR' },
            { '@type': 'Offer', price: '9', priceCurrency: 'EUR' },
          ],
          image: [{ '@type': 'ImageObject', url: '/img/lichtfest.jpg' }],
          keywords: 'Licht, Musik',
        },
        { '@type': 'SocialEvent', name: 'Open Day', startDate: '2026-02-20', isAccessibleForFree: true, eventStatus: 'https://schema.org/EventScheduled', url: 'https://example.org/e/open-day' },
        { '@type': 'ComedyEvent', name: 'Called off', startDate: '2026-02-21T20:00:00+01:00', eventStatus: 'https://schema.org/EventCancelled', url: 'https://example.org/e/off' },
      ],
    });
    const { candidates } = await runInline('graph', page('{ "this is": not json', graph));
    const fest = candidates.find((c) => c.externalId === 'https://example.org/e/lichtfest')!;
    expect(fest.title).toBe('Lichtfest & Konzert');
    expect([iso(fest.start), iso(fest.end)]).toEqual(['2026-02-14T17:00:00.000Z', '2026-02-14T21:00:00.000Z']);
    expect([fest.venueName, fest.address, fest.lat, fest.lng]).toEqual(['Town Hall', 'Marktplatz 1, Leipzig, 04109, DE', 51.3406, 12.3747]);
    expect([fest.price, fest.priceMax, fest.currency, fest.isFree]).toEqual([9, 18.5, 'EUR', false]);
    expect(fest.imageUrl).toBe(server.url('/img/lichtfest.jpg'));
    expect(fest.categories).toEqual(['Festival', 'Licht', 'Musik']);
    const open = candidates.find((c) => c.title === 'Open Day')!;
    expect([open.price, open.isFree, open.allDay, iso(open.start), iso(open.end)]).toEqual([0, true, true, '2026-02-19T23:00:00.000Z', '2026-02-20T23:00:00.000Z']);
    expect(candidates.find((c) => c.title === 'Called off')!.cancelled).toBe(true);
  });

  it('EventPostponed marks an event postponed; EventRescheduled is read at its new startDate', async () => {
    const events = JSON.stringify([
      { '@context': 'https://schema.org', '@type': 'MusicEvent', name: 'Put off', startDate: '2026-02-21T20:00:00+01:00', eventStatus: 'https://schema.org/EventPostponed', url: 'https://example.org/e/put-off' },
      { '@context': 'https://schema.org', '@type': 'MusicEvent', name: 'Moved on', startDate: '2026-03-07T20:00:00+01:00', previousStartDate: '2026-02-22T20:00:00+01:00', eventStatus: 'EventRescheduled', url: 'https://example.org/e/moved' },
      { '@context': 'https://schema.org', '@type': 'MusicEvent', name: 'As planned', startDate: '2026-02-23T20:00:00+01:00', eventStatus: 'http://schema.org/EventScheduled', url: 'https://example.org/e/on' },
    ]);
    const { candidates } = await runInline('statuses', page(events));
    const by = (title: string) => candidates.find((c) => c.title === title)!;
    expect([by('Put off').postponed, by('Put off').cancelled]).toEqual([true, undefined]);
    expect([by('Moved on').postponed, by('Moved on').cancelled, iso(by('Moved on').start)]).toEqual([undefined, undefined, '2026-03-07T19:00:00.000Z']);
    expect([by('As planned').postponed, by('As planned').cancelled]).toEqual([undefined, undefined]);
  });

  it('price ranges: AggregateOffer low/highPrice, PriceSpecification min/maxPrice, a free tier beside paid ones', async () => {
    const events = JSON.stringify([
      { '@context': 'https://schema.org', '@type': 'MusicEvent', name: 'Range', startDate: '2026-03-01T20:00:00Z', url: 'https://example.org/e/range', offers: { '@type': 'AggregateOffer', lowPrice: '12', highPrice: '15', priceCurrency: 'USD' } },
      { '@context': 'https://schema.org', '@type': 'Event', name: 'Spec', startDate: '2026-03-02T20:00:00Z', url: 'https://example.org/e/spec', offers: { '@type': 'Offer', priceSpecification: { '@type': 'PriceSpecification', minPrice: 10, maxPrice: 20, priceCurrency: 'USD' } } },
      { '@context': 'https://schema.org', '@type': 'Event', name: 'Tiers', startDate: '2026-03-03T20:00:00Z', url: 'https://example.org/e/tiers', offers: [{ '@type': 'Offer', price: 0 }, { '@type': 'Offer', price: '15.00' }] },
      { '@context': 'https://schema.org', '@type': 'Event', name: 'Paid', startDate: '2026-03-04T20:00:00Z', url: 'https://example.org/e/paid', isAccessibleForFree: false },
    ]);
    const { candidates } = await runInline('ranges', page(events));
    const by = (title: string) => candidates.find((c) => c.title === title)!;
    expect([by('Range').price, by('Range').priceMax, by('Range').isFree]).toEqual([12, 15, false]);
    expect([by('Spec').price, by('Spec').priceMax]).toEqual([10, 20]);
    expect([by('Tiers').price, by('Tiers').priceMax, by('Tiers').isFree]).toEqual([0, 15, false]);
    expect([by('Paid').price, by('Paid').isFree]).toEqual([undefined, false]);
  });

  it('VirtualLocation is an online event; a Place next to it wins', async () => {
    const online = JSON.stringify({ '@context': 'https://schema.org', '@type': 'EducationEvent', name: 'Webinar', startDate: '2026-02-01T10:00:00Z', eventAttendanceMode: 'https://schema.org/OnlineEventAttendanceMode', location: { '@type': 'VirtualLocation', url: 'https://meet.example/abc' } });
    const hybrid = JSON.stringify({ '@context': 'https://schema.org', '@type': 'Event', name: 'Hybrid talk', startDate: '2026-02-02T10:00:00Z', location: [{ '@type': 'VirtualLocation', url: 'https://meet.example/x' }, { '@type': 'Place', name: 'Library', address: 'Main St 1, Springfield' }] });
    const { candidates } = await runInline('virtual', page(online, hybrid));
    expect(candidates.find((c) => c.title === 'Webinar')!.venueName).toBe('Online');
    expect(candidates.find((c) => c.title === 'Hybrid talk')!.venueName).toBe('Library');
  });

  it('eventSchedule: weekly on a weekday at a time, exceptions, bounded by the horizon', async () => {
    const weekly = JSON.stringify({
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: 'Tuesday run club',
      url: 'https://example.org/run-club',
      location: { '@type': 'Place', name: 'Park gate' },
      eventSchedule: { '@type': 'Schedule', startDate: '2026-01-06', endDate: '2026-12-31', repeatFrequency: 'P1W', byDay: 'https://schema.org/Tuesday', startTime: '19:00:00', endTime: '20:00:00', exceptDate: '2026-01-20', scheduleTimezone: 'Europe/Berlin' },
    });
    const { candidates } = await runInline('schedule', page(weekly), '2026-01-10T00:00:00Z', 'Europe/London', { horizonDays: 30 });
    expect(candidates.map((c) => iso(c.start))).toEqual(['2026-01-13T18:00:00.000Z', '2026-01-27T18:00:00.000Z', '2026-02-03T18:00:00.000Z']);
    expect(iso(candidates[0]!.end)).toBe('2026-01-13T19:00:00.000Z');
    expect(candidates[0]!.timeZone).toBe('Europe/Berlin');
    expect(candidates[0]!.externalId).toBe('https://example.org/run-club@2026-01-13T18:00:00.000Z');
    const daily = JSON.stringify({ '@context': 'https://schema.org', '@type': 'ExhibitionEvent', name: 'Daily tour', eventSchedule: { '@type': 'Schedule', repeatFrequency: 'Daily', startTime: '11:00' } });
    const many = await runInline('daily', page(daily), '2026-01-10T00:00:00Z', 'Europe/Berlin', { maxOccurrences: 500 });
    expect(many.candidates).toHaveLength(180); // one a day over the 180-day horizon
    expect(iso(many.candidates[0]!.start)).toBe('2026-01-10T10:00:00.000Z');
  });

  it("an event's own startDate that is its schedule's first occurrence is one item, not two", async () => {
    const market = JSON.stringify({
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: 'Saturday market',
      url: 'https://example.org/market',
      startDate: '2026-01-10T10:00:00+01:00',
      eventSchedule: { '@type': 'Schedule', startDate: '2026-01-10', repeatFrequency: 'P1W', byDay: 'https://schema.org/Saturday', startTime: '10:00:00', endTime: '14:00:00', scheduleTimezone: 'Europe/Berlin' },
    });
    const { candidates } = await runInline('market', page(market), '2026-01-09T00:00:00Z', 'Europe/Berlin', { horizonDays: 14 });
    expect(candidates.map((c) => c.externalId)).toEqual(['https://example.org/market@2026-01-10T09:00:00.000Z', 'https://example.org/market@2026-01-17T09:00:00.000Z']);
  });

  it('a bare JSON-LD document (application/ld+json) is read too', async () => {
    const local = await startFeedServer({ '/events.jsonld': serveText(JSON.stringify([{ '@context': 'https://schema.org', '@type': 'MusicEvent', name: 'Choir', startDate: '2026-03-01T19:00:00+01:00', url: 'https://example.org/choir' }]), 'application/ld+json') });
    try {
      const { candidates } = await jsonldConnector.run(source(local.url('/events.jsonld')), ctx('2026-01-01T00:00:00Z', 'Europe/Berlin'));
      expect(candidates.map((c: CandidateEvent) => [c.title, iso(c.start)])).toEqual([['Choir', '2026-03-01T18:00:00.000Z']]);
    } finally {
      await local.close();
    }
  });
});
