import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import ICAL from 'ical.js';
import { parse as parseCsv } from 'csv-parse/sync';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it, vi } from 'vitest';
import { CONNECTOR_IDS } from '../../../../contract/ingestion.ts';
import { PORTLAND } from '../../../city.ts';
import { CONNECTORS } from '../connectors/index.ts';
import type { FetchResult, SafeFetch } from '../ingestion.types.ts';
import { parseFeed } from '../parse/feed.parse.ts';
import { parseIcal } from '../parse/ical.parse.ts';
import { compareEvents, titleRelation, type Comparable } from '../pipeline/dedupe.ts';
import { findNeighbourhood, normalise } from '../pipeline/normalise.ts';
import { createDemoFetch, DEFAULT_DEMO_DIR, DEMO_BASE_MONDAY, DEMO_SOURCES, shiftDemoDates, weeksToShift } from './demo-fetch.ts';

const LA = 'America/Los_Angeles';
const read = (name: string) => readFileSync(join(DEFAULT_DEMO_DIR, name), 'utf8');

describe('weeksToShift', () => {
  it('is 0 in the base week and counts whole weeks after it', () => {
    expect(DEMO_BASE_MONDAY).toBe('2026-01-05');
    expect(weeksToShift(new Date('2026-01-05T08:00:00Z'), LA)).toBe(0); // Monday 00:00 PST
    expect(weeksToShift(new Date('2026-01-11T20:00:00Z'), LA)).toBe(0); // Sunday noon
    expect(weeksToShift(new Date('2026-02-20T20:00:00Z'), LA)).toBe(6);
    expect(weeksToShift(new Date('2025-12-31T20:00:00Z'), LA)).toBe(-1);
  });

  it('turns over at Monday 00:00 local time, not UTC', () => {
    // Sunday 23:30 PST is already Monday in UTC.
    expect(weeksToShift(new Date('2026-01-12T07:30:00Z'), LA)).toBe(0);
    // Monday 00:30 PST.
    expect(weeksToShift(new Date('2026-01-12T08:30:00Z'), LA)).toBe(1);
    // Monday 00:30 in Berlin is still Sunday in UTC.
    expect(weeksToShift(new Date('2026-01-11T23:30:00Z'), 'Europe/Berlin')).toBe(1);
  });

  it('counts calendar weeks across daylight-saving changes', () => {
    // Clocks go forward on Sunday 2026-03-08.
    expect(weeksToShift(new Date('2026-03-08T10:30:00Z'), LA)).toBe(8); // Sunday 03:30 PDT
    expect(weeksToShift(new Date('2026-03-09T06:30:00Z'), LA)).toBe(8); // Sunday 23:30 PDT
    expect(weeksToShift(new Date('2026-03-09T07:30:00Z'), LA)).toBe(9); // Monday 00:30 PDT
    // Clocks go back on Sunday 2026-11-01.
    expect(weeksToShift(new Date('2026-11-02T07:30:00Z'), LA)).toBe(42); // Sunday 23:30 PST
    expect(weeksToShift(new Date('2026-11-02T08:30:00Z'), LA)).toBe(43); // Monday 00:30 PST
  });
});

const ICS_SAMPLE = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'BEGIN:VTIMEZONE',
  'TZID:America/Los_Angeles',
  'BEGIN:STANDARD',
  'DTSTART:19701101T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU;UNTIL=20061105T090000Z',
  'TZOFFSETFROM:-0700',
  'TZOFFSETTO:-0800',
  'END:STANDARD',
  'END:VTIMEZONE',
  'BEGIN:VEVENT',
  'UID:jam@demo.townbeat.local',
  'DTSTAMP:20251215T170000Z',
  'CREATED:20251201T180000Z',
  'LAST-MODIFIED:20260102T180000Z',
  'DTSTART;TZID=America/Los_Angeles:20260106T190000',
  'DTEND;TZID=America/Los_Angeles:20260106T220000',
  'RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20260213T075959Z',
  'EXDATE;TZID=America/Los_Angeles:20260120T190000,20260127T190000',
  'RDATE;VALUE=DATE:20260131',
  'RECURRENCE-ID;TZID=America/Los_Angeles:20260113T190000',
  'SUMMARY:Jam 20260106 (not a date property)',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'DTSTART;VALUE=DATE:20260207',
  'DTEND;VALUE=DATE:20260209',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

describe('shiftDemoDates', () => {
  it('moves ICS event dates by whole weeks and keeps times, stamps and time-zone rules', () => {
    const out = shiftDemoDates(ICS_SAMPLE, 2);
    expect(out).toContain('DTSTART;TZID=America/Los_Angeles:20260120T190000\r\n');
    expect(out).toContain('DTEND;TZID=America/Los_Angeles:20260120T220000\r\n');
    expect(out).toContain('RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20260227T075959Z\r\n');
    expect(out).toContain('EXDATE;TZID=America/Los_Angeles:20260203T190000,20260210T190000\r\n');
    expect(out).toContain('RDATE;VALUE=DATE:20260214\r\n');
    expect(out).toContain('RECURRENCE-ID;TZID=America/Los_Angeles:20260127T190000\r\n');
    expect(out).toContain('DTSTART;VALUE=DATE:20260221\r\nDTEND;VALUE=DATE:20260223\r\n');
    // Untouched: stamps, VTIMEZONE rules, text.
    expect(out).toContain('DTSTAMP:20251215T170000Z\r\n');
    expect(out).toContain('CREATED:20251201T180000Z\r\n');
    expect(out).toContain('LAST-MODIFIED:20260102T180000Z\r\n');
    expect(out).toContain('DTSTART:19701101T020000\r\n');
    expect(out).toContain('UNTIL=20061105T090000Z\r\n');
    expect(out).toContain('SUMMARY:Jam 20260106 (not a date property)\r\n');
    expect(out.length).toBe(ICS_SAMPLE.length);
  });

  it('shifts a date property folded over two lines and keeps the fold', () => {
    const folded = 'BEGIN:VEVENT\r\nEXDATE;TZID=America/Los_Angeles:20260121T193000,202601\r\n 28T193000\r\nEND:VEVENT\r\n';
    expect(shiftDemoDates(folded, 1)).toBe('BEGIN:VEVENT\r\nEXDATE;TZID=America/Los_Angeles:20260128T193000,202602\r\n 04T193000\r\nEND:VEVENT\r\n');
  });

  it('moves ISO dates (JSON-LD, RSS mod_event) across month, year and leap days', () => {
    expect(shiftDemoDates('"startDate": "2026-01-08T18:00"', 2)).toBe('"startDate": "2026-01-22T18:00"');
    expect(shiftDemoDates('<ev:startdate>2026-02-14T09:30:00</ev:startdate>', 3)).toBe('<ev:startdate>2026-03-07T09:30:00</ev:startdate>');
    expect(shiftDemoDates('"endDate": "2026-12-28"', 1)).toBe('"endDate": "2027-01-04"');
    expect(shiftDemoDates('2028-02-26T10:00', 1)).toBe('2028-03-04T10:00');
    expect(shiftDemoDates('2026-01-12', -1)).toBe('2026-01-05');
    // Not dates: left alone.
    expect(shiftDemoDates('"startTime": "09:00", "repeatFrequency": "P1W", 2026-13-45', 4)).toBe('"startTime": "09:00", "repeatFrequency": "P1W", 2026-13-45');
  });

  it('moves CSV local date-times and RSS pubDates', () => {
    const csv = 'PR-2601,Yoga,2026-01-10 09:00,2026-01-10 10:00,Tidewater Park\r\n';
    expect(shiftDemoDates(csv, 5)).toBe('PR-2601,Yoga,2026-02-14 09:00,2026-02-14 10:00,Tidewater Park\r\n');
    // Whole weeks keep the weekday right.
    expect(shiftDemoDates('<pubDate>Mon, 15 Dec 2025 17:00:00 GMT</pubDate>', 3)).toBe('<pubDate>Mon, 05 Jan 2026 17:00:00 GMT</pubDate>');
  });

  it('leaves the text alone for a shift of 0', () => {
    expect(shiftDemoDates(ICS_SAMPLE, 0)).toBe(ICS_SAMPLE);
  });
});

const okResult = (url: string): FetchResult => ({ status: 200, url, headers: {}, body: Buffer.from('next'), text: () => 'next' });

describe('createDemoFetch', () => {
  const now = () => new Date('2026-01-21T20:00:00Z'); // Wednesday of the base window's third week

  it('serves a demo file with its dates moved into the current weeks', async () => {
    const next = vi.fn<SafeFetch>();
    const fetch = createDemoFetch({ now, timeZone: LA, next });
    const res = await fetch('demo://feeds/pdx-music-venues.ics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/calendar/);
    const text = res.text();
    expect(text).toBe(res.body.toString('utf8'));
    expect(text).toContain('DTSTART;TZID=America/Los_Angeles:20260120T193000'); // the jazz jam, two weeks on
    expect(text).toContain('DTSTAMP:20251215T170000Z');
    expect(text).toContain('DTSTART:19701101T020000');
    expect(next).not.toHaveBeenCalled();

    const csv = await fetch('demo://feeds/pdx-parks-and-rec.csv');
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.text()).toContain('2026-01-24 09:00'); // yoga in Tidewater Park, base 2026-01-10
  });

  it('answers 304 when the body has not changed', async () => {
    const fetch = createDemoFetch({ now, timeZone: LA, next: vi.fn<SafeFetch>() });
    const first = await fetch('demo://feeds/pdx-community-news.rss');
    expect(first.headers['content-type']).toMatch(/^application\/rss\+xml/);
    const etag = first.headers.etag!;
    expect((await fetch('demo://feeds/pdx-community-news.rss', { headers: { 'If-None-Match': etag } })).status).toBe(304);
    const later = createDemoFetch({ now: () => new Date('2026-02-04T20:00:00Z'), timeZone: LA, next: vi.fn<SafeFetch>() });
    expect((await later('demo://feeds/pdx-community-news.rss', { headers: { 'if-none-match': etag } })).status).toBe(200);
  });

  it('refuses names outside the demo folder or of the wrong shape with 404', async () => {
    const next = vi.fn<SafeFetch>();
    const fetch = createDemoFetch({ now, timeZone: LA, next });
    for (const name of ['../etc/passwd', '..%2Fetc%2Fpasswd', 'sub/dir.ics', '.hidden.ics', 'README.md', 'Upper.ics', 'missing-file.ics', '', 'a..b.ics']) {
      const res = await fetch(`demo://feeds/${name}`);
      expect(res.status, name).toBe(404);
    }
    expect(next).not.toHaveBeenCalled();
  });

  it('passes every other URL to the next fetch', async () => {
    const next = vi.fn<SafeFetch>(async (url) => okResult(url));
    const fetch = createDemoFetch({ now, timeZone: LA, next });
    const res = await fetch('https://example.org/feed.ics', { headers: { accept: 'text/calendar' } });
    expect(res.text()).toBe('next');
    expect(next).toHaveBeenCalledWith('https://example.org/feed.ics', { headers: { accept: 'text/calendar' } });
    await fetch('demo://other/pdx-music-venues.ics');
    expect(next).toHaveBeenCalledTimes(2);
  });
});

// ---- The feeds themselves ----

const WINDOW = { first: '2026-01-05', last: '2026-02-15' };
const inWindow = (isoDate: string) => isoDate >= WINDOW.first && isoDate <= WINDOW.last;
const LOCAL_NO_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;
/** The deliberate possible duplicate: the community feed's item names no place (README, Deduplication). */
const PROPOSED_PAIR = {
  rssGuid: 'community-eastside-murals-talk@demo.townbeat.local',
  rssLink: 'https://demo.townbeat.local/community/eastside-murals-talk',
  icsUid: 'eastside-murals-talk@demo.townbeat.local',
};

describe('DEMO_SOURCES', () => {
  it('lists one valid source per file in demo/feeds, and every file it names exists', () => {
    const files = readdirSync(DEFAULT_DEMO_DIR).filter((f) => f !== 'README.md').sort();
    const named = DEMO_SOURCES.map((s) => s.url.replace('demo://feeds/', '')).sort();
    expect(named).toEqual(files);
    for (const s of DEMO_SOURCES) {
      expect(existsSync(join(DEFAULT_DEMO_DIR, s.url.replace('demo://feeds/', '')))).toBe(true);
      expect(CONNECTOR_IDS).toContain(s.connector);
      expect(s.sourceType).toMatch(/^[a-z0-9_-]+$/);
      expect(s.trusted).toBe(true);
      expect(s.intervalMinutes).toBe(15);
    }
    expect(new Set(DEMO_SOURCES.map((s) => s.name)).size).toBe(DEMO_SOURCES.length);
    // Each is one its connector can run, as a source saved through the admin API must be.
    for (const s of DEMO_SOURCES) expect(CONNECTORS[s.connector].check(s), s.name).toBeUndefined();
    expect(existsSync(join(DEFAULT_DEMO_DIR, 'README.md'))).toBe(true);
  });

  it('gives the CSV source the column mapping of the parks file', () => {
    const src = DEMO_SOURCES.find((s) => s.connector === 'csv')!;
    const header = read('pdx-parks-and-rec.csv').split('\r\n')[0]!.split(',');
    const mapping = (src.config as { mapping: Record<string, string> }).mapping;
    for (const column of Object.values(mapping)) expect(header).toContain(column);
  });
});

function icsEvents(text: string) {
  const comp = new ICAL.Component(ICAL.parse(text));
  for (const tz of comp.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
  return { comp, events: comp.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v)) };
}

describe('demo feed files', () => {
  it.each([
    ['pdx-music-venues.ics', 15],
    ['pdx-arts-calendar.ics', 15],
    ['pdx-tech-and-business.ics', 11],
  ])('%s is RFC 5545 (CRLF, folded to 75 octets) with %i events in the base window', (name, count) => {
    const text = read(name);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(text.endsWith('\r\n')).toBe(true);
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line, 'utf8'), line).toBeLessThanOrEqual(75);
    expect(text).not.toMatch(/^(DTSTART|DTEND|RDATE|EXDATE)[^\r\n]*\d{8}T\d{6}Z/m); // local times only
    const { comp, events } = icsEvents(text);
    expect(comp.getFirstPropertyValue('x-wr-calname')).toBeTruthy();
    expect(String(comp.getFirstPropertyValue('x-wr-caldesc'))).toMatch(/Townbeat demo content/);
    expect(events).toHaveLength(count);
    const uids = new Set<string>();
    for (const e of events) {
      expect(e.uid).toMatch(/@demo\.townbeat\.local$/);
      uids.add(e.uid);
      expect(e.summary).toBeTruthy();
      expect(e.location).toMatch(/Portland, OR/);
      expect(findNeighbourhood(PORTLAND, e.location, null, null), e.location).toBeDefined();
      if (!e.startDate.isDate) expect(e.startDate.zone?.tzid).toBe(LA);
      const it = e.iterator();
      let n = 0;
      for (let next = it.next(); next && n < 50; next = it.next(), n++) {
        expect(inWindow(next.toString().slice(0, 10)), `${e.summary} ${next.toString()}`).toBe(true);
      }
      expect(n).toBeGreaterThan(0);
    }
    expect(uids.size).toBe(count);
  });

  it('the shifted ICS still parses and keeps local times across a DST change', () => {
    const shifted = shiftDemoDates(read('pdx-music-venues.ics'), 9); // base week 1 -> the week of 2026-03-09 (PDT)
    const { events } = icsEvents(shifted);
    const jam = events.find((e) => e.uid.startsWith('tuesday-jazz-jam'))!;
    expect(jam.startDate.toString()).toBe('2026-03-10T19:30:00');
    expect(jam.startDate.toJSDate().toISOString()).toBe('2026-03-11T02:30:00.000Z'); // 19:30 PDT
    const karaoke = events.find((e) => e.uid.startsWith('karaoke-thursdays'))!;
    const dates: string[] = [];
    const it = karaoke.iterator();
    for (let next = it.next(); next; next = it.next()) dates.push(next.toString().slice(0, 10));
    // Weekly until the shifted UNTIL, without the shifted EXDATE (base: the third Thursday).
    expect(dates).toEqual(['2026-03-12', '2026-03-19', '2026-04-02', '2026-04-09', '2026-04-16']);
  });

  it('the RSS feed is well-formed RSS 2.0 with mod_event dates and no DOCTYPE', () => {
    const text = read('pdx-community-news.rss');
    expect(text).not.toMatch(/<!DOCTYPE/i);
    expect(XMLValidator.validate(text)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false }).parse(text) as {
      rss: { '@_version': string; '@_xmlns:ev': string; channel: { description: string; item: Record<string, string>[] } };
    };
    expect(doc.rss['@_version']).toBe('2.0');
    expect(doc.rss['@_xmlns:ev']).toBe('http://purl.org/rss/1.0/modules/event/');
    expect(doc.rss.channel.description).toMatch(/Townbeat demo content/);
    const items = doc.rss.channel.item;
    expect(items).toHaveLength(11);
    for (const item of items) {
      expect(item['ev:startdate']).toMatch(LOCAL_NO_OFFSET);
      expect(item['ev:enddate']).toMatch(LOCAL_NO_OFFSET);
      expect(inWindow(item['ev:startdate']!.slice(0, 10))).toBe(true);
      expect(item.link).toMatch(/^https:\/\/demo\.townbeat\.local\//);
      // One item deliberately names no place: the possible duplicate (see the README).
      if (item.link === PROPOSED_PAIR.rssLink) expect(item['ev:location']).toBeUndefined();
      else expect(findNeighbourhood(PORTLAND, item['ev:location']!, null, null)).toBeDefined();
    }
  });

  it('the food page holds one valid JSON-LD @graph of events with local times', () => {
    const text = read('pdx-food-and-markets.html');
    expect(text.startsWith('<!--')).toBe(true);
    const blocks = [...text.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)];
    expect(blocks).toHaveLength(1);
    const data = JSON.parse(blocks[0]![1]!) as { '@context': string; '@graph': Record<string, unknown>[] };
    expect(data['@context']).toBe('https://schema.org');
    const events = data['@graph'].filter((g) => g['@type'] === 'Event' || g['@type'] === 'FoodEvent');
    expect(events).toHaveLength(11);
    for (const e of events) {
      expect(e.startDate).toMatch(LOCAL_NO_OFFSET);
      expect(inWindow(String(e.startDate).slice(0, 10))).toBe(true);
      const loc = e.location as { '@type': string; geo: { latitude: number; longitude: number }; address: { '@type': string } };
      expect(loc['@type']).toBe('Place');
      expect(loc.address['@type']).toBe('PostalAddress');
      expect(findNeighbourhood(PORTLAND, '', loc.geo.latitude, loc.geo.longitude)).toBeDefined();
      const offer = e.offers as { price: number; priceCurrency: string };
      expect(offer.priceCurrency).toBe('USD');
      expect(typeof offer.price).toBe('number');
    }
    const scheduled = events.filter((e) => e.eventSchedule);
    expect(scheduled).toHaveLength(1);
    expect(scheduled[0]!.eventSchedule).toMatchObject({ repeatFrequency: 'P1W', byDay: 'https://schema.org/Saturday', startTime: '09:00', endTime: '14:00' });
  });

  it('the parks CSV has the municipal columns, local times and coordinates', () => {
    const rows = parseCsv(read('pdx-parks-and-rec.csv'), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(15);
    for (const r of rows) {
      expect(Object.keys(r)).toEqual(['event_id', 'title', 'start', 'end', 'park', 'address', 'description', 'cost', 'latitude', 'longitude']);
      expect(r.start).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
      expect(r.end).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
      expect(inWindow(r.start!.slice(0, 10))).toBe(true);
      expect(r.cost).toMatch(/^(Free|\d+(\.\d\d)?)$/);
      expect(findNeighbourhood(PORTLAND, `${r.park} ${r.address}`, Number(r.latitude), Number(r.longitude))).toBeDefined();
    }
  });

  it('lists the deliberate cross-source duplicates with similar titles at the same place and time', () => {
    const music = icsEvents(read('pdx-music-venues.ics')).events;
    const tech = icsEvents(read('pdx-tech-and-business.ics')).events;
    const rss = (new XMLParser().parse(read('pdx-community-news.rss')) as { rss: { channel: { item: Record<string, string>[] } } }).rss.channel.item;
    const html = read('pdx-food-and-markets.html');
    const graph = (JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]!) as { '@graph': Record<string, unknown>[] })['@graph'];
    const csv = parseCsv(read('pdx-parks-and-rec.csv'), { columns: true }) as Record<string, string>[];

    const beerIcs = music.find((e) => e.uid.startsWith('small-batch-beer-fest'))!;
    const beerWeb = graph.find((g) => String(g['@id']).includes('small-batch-beer-festival'))!;
    expect(['equal', 'contains']).toContain(titleRelation(beerIcs.summary, String(beerWeb.name)));
    expect(beerIcs.startDate.toString().slice(0, 16)).toBe(beerWeb.startDate);
    expect(beerIcs.location).toContain((beerWeb.location as { name: string }).name);

    const pitchIcs = tech.find((e) => e.uid.startsWith('startup-pitch-night'))!;
    const pitchRss = rss.find((i) => i.title!.startsWith('Startup Pitch Night'))!;
    expect(['equal', 'contains']).toContain(titleRelation(pitchIcs.summary, pitchRss.title!));
    expect(pitchIcs.startDate.toString().slice(0, 16)).toBe(pitchRss['ev:startdate']);
    expect(pitchIcs.location).toBe(pitchRss['ev:location']);

    const yogaCsv = csv.find((r) => r.title!.includes('Yoga in Tidewater'))!;
    const yogaRss = rss.find((i) => i.title!.includes('Yoga at Tidewater'))!;
    expect(['equal', 'contains']).toContain(titleRelation(yogaCsv.title!, yogaRss.title!));
    expect(yogaCsv.start!.replace(' ', 'T')).toBe(yogaRss['ev:startdate']);
    expect(yogaRss['ev:location']).toContain(yogaCsv.park!);

    // One the community news lists that the meetup calendar says is cancelled: the sources disagree.
    const openHouseIcs = tech.find((e) => e.uid.startsWith('coworking-open-house'))!;
    const openHouseRss = rss.find((i) => i.title!.startsWith("Freelancers' Co-working"))!;
    expect(titleRelation(openHouseIcs.summary, openHouseRss.title!)).toBe('equal');
    expect(openHouseIcs.startDate.toString().slice(0, 16)).toBe(openHouseRss['ev:startdate']);
    expect(openHouseIcs.location).toBe(openHouseRss['ev:location']);
    expect(openHouseIcs.component.getFirstPropertyValue('status')).toBe('CANCELLED');
  });

  it('proposes one pair to admins rather than merging it: same title and start, no place on one side', () => {
    // The real parsers and normalisation, then the real comparison the pipeline makes.
    const now = new Date(`${DEMO_BASE_MONDAY}T08:00:00Z`);
    const ctx = { now, timeZone: LA, horizonDays: 120, maxOccurrences: 100 };
    const norm = (c: Parameters<typeof normalise>[0] | undefined): Comparable => {
      expect(c).toBeDefined();
      const n = normalise(c!, { city: PORTLAND, now, venues: new Map() });
      if (typeof n === 'string') throw new Error(n);
      return { title: n.title, start: n.start, venueName: n.venueName, address: n.address, lat: n.lat, lng: n.lng, geoApprox: n.geoApprox };
    };
    const rss = parseFeed({ ...ctx, text: read('pdx-community-news.rss') }).candidates;
    const arts = parseIcal({ ...ctx, text: read('pdx-arts-calendar.ics') }).candidates;
    const news = norm(rss.find((c) => c.externalId === PROPOSED_PAIR.rssGuid));
    const calendar = norm(arts.find((c) => c.externalId?.startsWith(PROPOSED_PAIR.icsUid)));
    expect(news.title).toBe(calendar.title);
    expect(news.start.getTime()).toBe(calendar.start.getTime());
    expect(news.venueName).toBe('');
    expect(news.lat).toBeNull();
    expect(calendar.venueName).toBe('Foxglove Park');
    const c = compareEvents(news, calendar);
    expect(c.verdict).toBe('possible');
    expect(c.reason).toMatch(/^same title; venue unknown/);
    expect(compareEvents(calendar, news).verdict).toBe('possible');
  });

  it("lists Twelfth Night's opening night (its DTSTART) before the three RDATE performances", async () => {
    // As the app reads it: through the demo fetch, in the window's third week.
    const now = new Date('2026-01-19T20:00:00Z');
    const fetch = createDemoFetch({ now: () => now, timeZone: LA, next: vi.fn<SafeFetch>() });
    const text = (await fetch('demo://feeds/pdx-arts-calendar.ics')).text();
    const arts = parseIcal({ now, timeZone: LA, horizonDays: 120, maxOccurrences: 100, text }).candidates;
    const shows = arts.filter((c) => c.externalId.startsWith('twelfth-night@'));
    // Fridays and a Saturday at 19:30 PST, two weeks on from the files' dates.
    expect(shows.map((c) => c.start.toISOString())).toEqual(['2026-01-31T03:30:00.000Z', '2026-02-01T03:30:00.000Z', '2026-02-07T03:30:00.000Z', '2026-02-14T03:30:00.000Z']);
    expect(shows[0]!.externalId).toBe('twelfth-night@demo.townbeat.local@2026-01-31T03:30:00.000Z');
  });

  it('every file says it is Townbeat demo content', () => {
    for (const s of DEMO_SOURCES) {
      const name = s.url.replace('demo://feeds/', '');
      if (name.endsWith('.csv')) continue; // CSV has no comments: the README says it
      expect(read(name), name).toMatch(/Townbeat demo content/);
    }
    expect(read('README.md')).toMatch(/pdx-parks-and-rec\.csv/);
  });
});
