// A date the source writes that does not exist (30 February, 31 September, 29 February outside a
// leap year, 25:00, 19:61) is an unreadable date: the entry is skipped and noted like any other
// date that cannot be read, never moved to the day Date.UTC rolls it over to.
import { describe, expect, it } from 'vitest';
import { mapOpenDataRecord } from '../connectors/socrata.connector.ts';
import { toCandidate as tmCandidate } from '../connectors/ticketmaster.connector.ts';
import { parseCsv } from './csv.parse.ts';
import { parseIsoDate } from './common.ts';
import { parseFeed } from './feed.parse.ts';
import { parseIcal } from './ical.parse.ts';
import { parseJsonLd } from './jsonld.parse.ts';

const zone = 'America/Los_Angeles';
const ctx = { now: new Date('2026-11-23T18:00:00Z'), timeZone: zone, horizonDays: 1000, maxOccurrences: 500 };
const NO_START = { kind: 'skipped', reason: 'had no start date that could be read' };

describe('parseIsoDate', () => {
  it.each(['2027-02-30', '2027-09-31', '2027-02-29', '2027-04-31T19:00', '2027-02-30T19:00-07:00', '2027-03-01T25:00', '2027-03-01T19:61', '2027-03-01T24:30'])('refuses %s, a date or time that does not exist', (text) => {
    expect(parseIsoDate(text, zone)).toBeNull();
  });

  it('reads 29 February in a leap year, and 24:00 as the end of the day', () => {
    expect(parseIsoDate('2028-02-29 19:00', zone)?.date.toISOString()).toBe('2028-03-01T03:00:00.000Z');
    expect(parseIsoDate('2028-02-29', zone)).toMatchObject({ allDay: true });
    expect(parseIsoDate('2027-02-28T24:00Z', zone)?.date.toISOString()).toBe('2027-03-01T00:00:00.000Z');
  });
});

describe('CSV', () => {
  it('skips a row whose date does not exist with the unreadable-date note, and keeps 29 February 2028', () => {
    const csv = ['Title,Start,Time', 'Feb 30,2027-02-30 19:00,', 'Sep 31,31/09/2027,19:00', 'Not leap,29.02.2027 19:00,', 'Leap,2028-02-29 19:00,', 'Late,2027-03-01,25:00'].join('\n');
    const { candidates, errors } = parseCsv(csv, { title: 'Title', start: 'Start', startTime: 'Time' }, { timeZone: zone, dateFormat: 'eu' });
    expect(candidates.map((c) => [c.title, c.start.toISOString(), c.allDay ?? false])).toEqual([
      ['Leap', '2028-03-01T03:00:00.000Z', false],
      // A start time no clock shows is not read as the next morning: kept as all-day, and said so.
      ['Late', '2027-03-01T08:00:00.000Z', true],
    ]);
    expect(errors.map(({ row, kind, reason }) => [row, kind, reason])).toEqual([
      [2, 'skipped', 'had a start date that could not be read (expected DD/MM/YYYY HH:MM)'],
      [3, 'skipped', 'had a start date that could not be read (expected DD/MM/YYYY HH:MM)'],
      [4, 'skipped', 'had a start date that could not be read (expected DD/MM/YYYY HH:MM)'],
      [6, 'kept', 'had a start time that could not be read; kept as all-day'],
    ]);
  });

  it('refuses 30 February in US order too', () => {
    const { candidates, errors } = parseCsv('Title,Start\nFeb 30,02/30/2027 7:00 PM\nLeap,02/29/2028 7:00 PM', { title: 'Title', start: 'Start' }, { timeZone: zone, dateFormat: 'us' });
    expect(candidates.map((c) => c.title)).toEqual(['Leap']);
    expect(errors.map((e) => e.row)).toEqual([2]);
  });
});

describe('JSON-LD', () => {
  const page = (...events: object[]) => `<html><head>${events.map((e) => `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'Event', ...e })}</script>`).join('')}</head></html>`;

  it('skips an event whose start does not exist with the no-start note, and keeps 29 February 2028', () => {
    const out = parseJsonLd({
      ...ctx,
      text: page(
        { name: 'Sep 31', startDate: '2027-09-31T19:00-07:00' },
        { name: 'Feb 30', startDate: '2027-02-30' },
        { name: 'Not leap', startDate: '2027-02-29T19:00' },
        { name: 'Leap', startDate: '2028-02-29T19:00-08:00' },
      ),
    });
    expect(out.candidates.map((c) => [c.title, c.start.toISOString()])).toEqual([['Leap', '2028-03-01T03:00:00.000Z']]);
    expect(out.notes).toEqual([{ ...NO_START, count: 3, examples: ['Sep 31', 'Feb 30', 'Not leap'] }]);
  });

  it('drops an end that does not exist rather than moving it', () => {
    const out = parseJsonLd({ ...ctx, text: page({ name: 'Gala', startDate: '2027-09-30T19:00-07:00', endDate: '2027-09-31T01:00-07:00' }) });
    expect(out.candidates[0]).toMatchObject({ title: 'Gala' });
    expect(out.candidates[0]!.end).toBeUndefined();
  });

  it('lists no dates for a schedule whose start time no clock shows', () => {
    const schedule = (startTime: string) => page({ name: 'Choir', eventSchedule: { '@type': 'Schedule', repeatFrequency: 'P1W', byDay: 'https://schema.org/Monday', startDate: '2026-11-23', startTime } });
    expect(parseJsonLd({ ...ctx, text: schedule('25:00') }).candidates).toEqual([]);
    expect(parseJsonLd({ ...ctx, text: schedule('19:00') }).candidates.length).toBeGreaterThan(0);
  });
});

describe('iCalendar', () => {
  const vevent = (...lines: string[]) => ['BEGIN:VEVENT', 'DTSTAMP:20261101T000000Z', ...lines, 'END:VEVENT'];
  const calendar = (...events: string[][]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Townbeat tests//EN', ...events.flat(), 'END:VCALENDAR'].join('\r\n');

  it('skips an event whose DTSTART does not exist with the no-start note, and keeps 29 February 2028', () => {
    const out = parseIcal({
      ...ctx,
      text: calendar(
        vevent('UID:feb30', 'DTSTART;TZID=America/Los_Angeles:20270230T190000', 'SUMMARY:Feb 30'),
        vevent('UID:sep31', 'DTSTART;VALUE=DATE:20270931', 'SUMMARY:Sep 31'),
        vevent('UID:feb29', 'DTSTART:20270229T190000Z', 'SUMMARY:Not leap'),
        vevent('UID:late', 'DTSTART;TZID=America/Los_Angeles:20270301T250000', 'SUMMARY:Late'),
        vevent('UID:leap', 'DTSTART;TZID=America/Los_Angeles:20280229T190000', 'SUMMARY:Leap'),
      ),
    });
    expect(out.candidates.map((c) => [c.title, c.start.toISOString()])).toEqual([['Leap', '2028-03-01T03:00:00.000Z']]);
    expect(out.notes).toEqual([{ ...NO_START, count: 4, examples: ['Feb 30', 'Sep 31', 'Not leap'] }]);
  });

  it('keeps an event without an end that does not exist, and leaves out repeat dates that do not exist', () => {
    const out = parseIcal({
      ...ctx,
      text: calendar(
        vevent('UID:gala', 'DTSTART;TZID=America/Los_Angeles:20270930T190000', 'DTEND;TZID=America/Los_Angeles:20270931T010000', 'SUMMARY:Gala'),
        vevent('UID:series', 'DTSTART;TZID=America/Los_Angeles:20270225T190000', 'RDATE;TZID=America/Los_Angeles:20270230T190000,20270304T190000', 'SUMMARY:Series'),
      ),
    });
    expect(out.candidates.find((c) => c.title === 'Gala')?.end).toBeUndefined();
    // DTSTART (25 February) and the real RDATE; 30 February is not moved to 2 March.
    expect(out.candidates.filter((c) => c.title === 'Series').map((c) => c.start.toISOString())).toEqual(['2027-02-26T03:00:00.000Z', '2027-03-05T03:00:00.000Z']);
  });
});

describe('RSS', () => {
  it('does not take an event extension date that does not exist', () => {
    const rss = `<?xml version="1.0"?><rss version="2.0" xmlns:ev="http://purl.org/rss/1.0/modules/event/"><channel><title>Events</title>
      <item><title>Feb 30</title><ev:startdate>2027-02-30T19:00:00-08:00</ev:startdate><guid>a</guid></item>
      <item><title>Not leap</title><ev:startdate>2027-02-29</ev:startdate><guid>b</guid></item>
      <item><title>Leap</title><ev:startdate>2028-02-29T19:00:00-08:00</ev:startdate><guid>c</guid></item>
    </channel></rss>`;
    const out = parseFeed({ ...ctx, text: rss });
    expect(out.candidates.map((c) => [c.title, c.start.toISOString()])).toEqual([['Leap', '2028-03-01T03:00:00.000Z']]);
    expect(out.notes).toEqual([{ ...NO_START, count: 2, examples: ['Feb 30', 'Not leap'] }]);
  });
});

describe('API connectors', () => {
  it('Socrata: a record whose date does not exist has no usable start', () => {
    const read = (start: string) => mapOpenDataRecord({ t: 'Market', s: start }, { title: 't', start: 's' }, zone)?.start.toISOString();
    expect(read('2027-02-30T19:00:00')).toBeUndefined();
    expect(read('02/29/2027 7:00 PM')).toBeUndefined();
    expect(read('2027-09-31T19:00:00Z')).toBeUndefined();
    expect(read('2028-02-29T19:00:00')).toBe('2028-03-01T03:00:00.000Z');
  });

  it('Ticketmaster: a local date that does not exist is not a start', () => {
    const read = (start: object) => tmCandidate({ id: 'x', name: 'Show', dates: { start } }, zone)?.start.toISOString();
    expect(read({ localDate: '2027-02-30', localTime: '19:00:00' })).toBeUndefined();
    expect(read({ localDate: '2027-03-01', localTime: '25:00:00' })).toBeUndefined();
    expect(read({ dateTime: '2027-09-31T02:00:00Z' })).toBeUndefined();
    expect(read({ localDate: '2028-02-29', localTime: '19:00:00' })).toBe('2028-03-01T03:00:00.000Z');
  });
});
