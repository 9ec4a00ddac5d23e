import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFeedServer, serveText, type Route } from '../../../test/feed-server.ts';
import { createSafeFetch } from '../fetch/safe-fetch.ts';
import { SourceError, type CandidateEvent, type ConnectorContext, type SourceSpec } from '../ingestion.types.ts';
import { closeSharedSandbox, parseInSandbox } from '../parse/sandbox.ts';
import { rssConnector } from './rss.connector.ts';

// Our own samples (see __samples__/PROVENANCE.md): no RSS/Atom event fixtures exist in ../shared.
const sample = (name: string) => readFileSync(new URL(`./__samples__/rss/${name}`, import.meta.url));

const fetch = createSafeFetch({ allowPrivate: true });
const ctx = (now: string, timeZone: string): ConnectorContext => ({ fetch, now: new Date(now), timeZone, horizonDays: 180, listAheadDays: 730, maxOccurrences: 500 });
const source = (url: string): SourceSpec => ({ id: 's', name: 'Feed', connector: 'rss', url, sourceType: 'rss', config: {} });
const iso = (d: Date | undefined) => d?.toISOString();
const find = (list: CandidateEvent[], title: string) => list.find((c) => c.title === title)!;

const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<rss version="2.0"><channel><title>&lol9;</title><item><title>&lol9;</title><pubDate>Mon, 02 Mar 2026 09:00:00 +0000</pubDate></item></channel></rss>`;

const EXTERNAL_ENTITY = `<?xml version="1.0"?>
<!doctype rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<rss version="2.0"><channel><item><title>&xxe;</title></item></channel></rss>`;

const RSS1_XCAL = `<?xml version="1.0" encoding="utf-8"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:x="urn:ietf:params:xml:ns:xcal" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel rdf:about="https://club.example/"><title>Club nights</title><link>https://club.example/</link></channel>
  <item rdf:about="https://club.example/nights/42">
    <title>Techno &amp; Tea</title>
    <link>https://club.example/nights/42</link>
    <dc:subject>Clubbing</dc:subject>
    <x:dtstart>20260320T220000</x:dtstart>
    <x:dtend>20260321T040000</x:dtend>
    <x:location>Basement, 3 Mill Lane</x:location>
  </item>
</rdf:RDF>`;

let server: Awaited<ReturnType<typeof startFeedServer>>;

beforeAll(async () => {
  const routes: Record<string, Route> = {
    '/mod-event.xml': serveText(sample('rss-mod-event.xml'), 'application/rss+xml'),
    '/atom.xml': serveText(sample('atom-events.xml'), 'application/atom+xml'),
    '/plain.xml': serveText(sample('rss-plain-text-dates.xml'), 'application/rss+xml'),
    '/lol.xml': serveText(BILLION_LAUGHS, 'application/rss+xml'),
    '/xxe.xml': serveText(EXTERNAL_ENTITY, 'application/rss+xml'),
    '/rss1.xml': serveText(RSS1_XCAL, 'application/rdf+xml'),
    '/huge.xml': serveText(Buffer.concat([Buffer.from('<rss version="2.0"><channel>'), Buffer.alloc(20 * 1024 * 1024, ' '), Buffer.from('</channel></rss>')]), 'application/rss+xml'),
    '/broken.xml': serveText('<rss version="2.0"><channel><item><title>Unclosed</channel>', 'application/rss+xml'),
    '/page.html': serveText('<!doctype html><html><head><title>Not a feed</title></head></html>', 'text/html'),
  };
  server = await startFeedServer(routes);
  // Start the parser process now, so timings in the tests are of parsing, not of starting it.
  await parseInSandbox('feed', { text: '<rss version="2.0"><channel></channel></rss>', now: new Date(), timeZone: 'UTC', horizonDays: 1, maxOccurrences: 1 });
});

afterAll(async () => {
  await server.close();
  await closeSharedSandbox();
});

const run = (path: string, now = '2026-03-01T00:00:00Z', timeZone = 'Europe/London') => rssConnector.run(source(server.url(path)), ctx(now, timeZone));

describe('rss connector', () => {
  it('RSS 2.0 with the event module: ev:startdate/enddate, location, W3C geo, categories', async () => {
    const { candidates } = await run('/mod-event.xml');
    expect(candidates.map((c) => c.title)).toEqual(['Spring Chamber Concert', 'Life Drawing Workshop', 'Easter Family Fun Day']); // the January lecture is over
    const concert = find(candidates, 'Spring Chamber Concert');
    expect([iso(concert.start), iso(concert.end)]).toEqual(['2026-03-14T19:30:00.000Z', '2026-03-14T21:30:00.000Z']);
    expect(concert.externalId).toBe('riverside-2026-0314-chamber');
    expect(concert.url).toBe('https://riverside-arts.example/events/spring-chamber-concert');
    expect(concert.venueName).toBe('Riverside Arts Centre');
    expect(concert.address).toBe('Main Hall, 12 Quay Street, Bristol BS1 4RT');
    expect([concert.lat, concert.lng]).toEqual([51.451, -2.597]);
    expect(concert.categories).toEqual(['Music', 'Classical', 'concert']);
    expect(concert.description).toContain('<b>Dvořák</b>');
    // No offset: the city's zone, in summer time by April.
    expect(iso(find(candidates, 'Life Drawing Workshop').start)).toBe('2026-04-02T17:00:00.000Z');
    const easter = find(candidates, 'Easter Family Fun Day');
    expect([iso(easter.start), iso(easter.end), easter.allDay]).toEqual(['2026-04-04T23:00:00.000Z', '2026-04-05T23:00:00.000Z', true]);
  });

  it('Atom with gd:when, gd:where, GeoRSS, enclosure image; entries without a date are skipped', async () => {
    const { candidates } = await run('/atom.xml', '2026-03-01T00:00:00Z', 'Europe/Berlin');
    expect(candidates.map((c) => c.title)).toEqual(['Lesung: Neue Stimmen aus Berlin', 'Repair Café']);
    const reading = candidates[0]!;
    expect([iso(reading.start), iso(reading.end)]).toEqual(['2026-03-26T18:00:00.000Z', '2026-03-26T20:00:00.000Z']);
    expect(reading.externalId).toBe('urn:uuid:1a0a5f52-0d1f-4f69-9a1e-6a9f3b1c0001');
    expect(reading.url).toBe('https://bibliothek.example/veranstaltungen/lesung-neue-stimmen');
    expect(reading.imageUrl).toBe('https://bibliothek.example/img/lesung.jpg');
    expect(reading.venueName).toBe('Stadtbibliothek');
    expect(reading.address).toBe('Lesesaal, Breite Straße 30, 10178 Berlin');
    expect([reading.lat, reading.lng]).toEqual([52.5148, 13.4034]);
    expect(reading.categories).toEqual(['Literatur', 'Lesung']);
    expect(iso(candidates[1]!.start)).toBe('2026-04-11T12:00:00.000Z'); // 14:00 CEST, no offset given
  });

  it('plain RSS: dates read from the text in the city zone, relative to the publication date', async () => {
    const { candidates } = await run('/plain.xml', '2026-03-01T00:00:00Z', 'America/Chicago');
    expect(candidates.map((c) => c.title)).toEqual(['Pancake Breakfast Fundraiser', 'Square Dance Night – April 3rd at 7pm']);
    const pancakes = candidates[0]!;
    // "Saturday, March 21 from 8:00 am to 11:00 am", after the change to CDT on 8 March.
    expect([iso(pancakes.start), iso(pancakes.end)]).toEqual(['2026-03-21T13:00:00.000Z', '2026-03-21T16:00:00.000Z']);
    expect(iso(candidates[1]!.start)).toBe('2026-04-04T00:00:00.000Z'); // 7pm CDT on 3 April
    // "The sign-up sheet is now online" has no date: not an event.
  });

  it('RSS 1.0 (RDF) with xCal dates and another prefix bound to the xCal namespace', async () => {
    const { candidates } = await run('/rss1.xml', '2026-03-01T00:00:00Z', 'Europe/London');
    expect(candidates).toHaveLength(1);
    const night = candidates[0]!;
    expect(night.title).toBe('Techno & Tea');
    expect([iso(night.start), iso(night.end)]).toEqual(['2026-03-20T22:00:00.000Z', '2026-03-21T04:00:00.000Z']);
    expect(night.venueName).toBe('Basement, 3 Mill Lane');
    expect(night.categories).toEqual(['Clubbing']);
    expect(night.externalId).toBe('https://club.example/nights/42');
  });

  it('refuses a billion-laughs feed without expanding it', async () => {
    const started = Date.now();
    const err = await run('/lol.xml').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceError);
    expect((err as Error).message).toBe('XML with a DOCTYPE or entities is refused');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('refuses external entities', async () => {
    await expect(run('/xxe.xml')).rejects.toThrow('XML with a DOCTYPE or entities is refused');
  });

  it('refuses a 20 MB feed', async () => {
    await expect(run('/huge.xml')).rejects.toThrow('response larger than 10 MB');
  });

  it('fails malformed XML and non-feeds with a clear error', async () => {
    const broken = await run('/broken.xml').catch((e: unknown) => e);
    expect(broken).toBeInstanceOf(SourceError);
    expect((broken as Error).message).toMatch(/^invalid XML: /);
    await expect(run('/page.html')).rejects.toThrow('not an RSS or Atom feed');
  });
});
