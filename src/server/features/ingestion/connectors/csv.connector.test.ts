import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFeedServer, serveText } from '../../../test/feed-server.ts';
import { createSafeFetch } from '../fetch/safe-fetch.ts';
import { SourceError, type ConnectorContext, type SourceSpec } from '../ingestion.types.ts';
import { parseCsv } from '../parse/csv.parse.ts';
import { closeSharedSandbox, parseInSandbox } from '../parse/sandbox.ts';
import { csvConnector, type CsvConnectorResult } from './csv.connector.ts';

const fetch = createSafeFetch({ allowPrivate: true });
const ctx = (now = '2026-01-01T00:00:00Z', timeZone = 'Europe/Berlin'): ConnectorContext => ({ fetch, now: new Date(now), timeZone, horizonDays: 180, listAheadDays: 730, maxOccurrences: 500 });
const iso = (d: Date | undefined) => d?.toISOString();

const mapping = { title: 'Event', start: 'Start', end: 'End', venue: 'Venue', address: 'Address', description: 'Details', url: 'Link', price: 'Price', category: 'Tags', lat: 'Lat', lng: 'Lng' };

// A BOM, quoted fields with commas, doubled quotes and a newline, a bad date, an end given as a time.
const CSV = [
  '\uFEFFEvent,Start,End,Venue,Address,Details,Link,Price,Tags,Lat,Lng',
  'Jazz im Hof,2026-03-14 19:30,22:00,"Hof, Kulturhaus","Hauptstraße 1, 04109 Leipzig","Quartet with ""special"" guests",https://example.org/jazz,12.50,"Music; Jazz",51.34,12.37',
  '"Lesung: Neue Stimmen",2026-03-20T18:00,2026-03-20T19:30,Stadtbibliothek,,"Line one',
  'line two",,Free,Literature,,',
  'Broken date,next tuesday-ish,,Somewhere,,,,,,,',
  'Flohmarkt,2026-04-05,,Marktplatz,,,,0,,,',
  ',2026-04-06,,Nowhere,,,,,,,',
  'Past party,2025-12-31 22:00,,Club,,,,,,,',
].join('\r\n');

describe('parseCsv', () => {
  it('reads quoted fields, commas and newlines in quotes, a BOM, and reports bad rows by number', () => {
    const { candidates, errors } = parseCsv(CSV, mapping, { timeZone: 'Europe/Berlin' });
    expect(candidates.map((c) => c.title)).toEqual(['Jazz im Hof', 'Lesung: Neue Stimmen', 'Flohmarkt', 'Past party']);
    const jazz = candidates[0]!;
    expect([iso(jazz.start), iso(jazz.end)]).toEqual(['2026-03-14T18:30:00.000Z', '2026-03-14T21:00:00.000Z']);
    expect([jazz.venueName, jazz.address, jazz.description, jazz.url]).toEqual(['Hof, Kulturhaus', 'Hauptstraße 1, 04109 Leipzig', 'Quartet with "special" guests', 'https://example.org/jazz']);
    expect([jazz.price, jazz.isFree, jazz.categories, jazz.lat, jazz.lng]).toEqual([12.5, false, ['Music', 'Jazz'], 51.34, 12.37]);
    const reading = candidates[1]!;
    expect(reading.description).toBe('Line one\nline two');
    expect([reading.price, reading.isFree]).toEqual([0, true]);
    expect(iso(reading.end)).toBe('2026-03-20T18:30:00.000Z');
    const market = candidates[2]!;
    expect([iso(market.start), iso(market.end), market.allDay, market.isFree]).toEqual(['2026-04-04T22:00:00.000Z', '2026-04-05T22:00:00.000Z', true, true]);
    // Row 1 is the header; the quoted newline keeps "Lesung" one row (row 3).
    expect(errors.map(({ row, message }) => ({ row, message }))).toEqual([
      { row: 4, message: 'cannot read the start date "next tuesday-ish" (expected YYYY-MM-DD HH:MM)' },
      { row: 6, message: 'no title' },
    ]);
    // Ids are stable across uploads of the same rows.
    expect(parseCsv(CSV, mapping, { timeZone: 'Europe/Berlin' }).candidates.map((c) => c.externalId)).toEqual(candidates.map((c) => c.externalId));
  });

  it('reads price columns as organisers fill them: ranges, notes, free words, decimal commas', () => {
    const rows = ['Title,Start,Price', 'A,2026-05-01 19:00,$12-15', 'B,2026-05-02 19:00,$5 suggested donation', 'C,2026-05-03 19:00,Free with RSVP', 'D,2026-05-04 19:00,"8,50"', 'E,2026-05-05 19:00,Pay what you can', 'F,2026-05-06 19:00,See website'];
    const { candidates } = parseCsv(rows.join('\n'), { title: 'Title', start: 'Start', price: 'Price' }, { timeZone: 'UTC' });
    const by = (t: string) => candidates.find((c) => c.title === t)!;
    expect(by('A')).toMatchObject({ price: 12, priceMax: 15, isFree: false });
    expect(by('B')).toMatchObject({ price: 5, priceNote: 'suggested donation', isFree: false });
    expect(by('C')).toMatchObject({ price: 0, isFree: true, priceNote: 'with RSVP' });
    expect(by('D')).toMatchObject({ price: 8.5, isFree: false });
    expect(by('E')).toMatchObject({ priceNote: 'pay what you can', isFree: false });
    expect(by('E').price).toBeUndefined();
    expect([by('F').price, by('F').isFree]).toEqual([undefined, undefined]);
  });

  it('reads US and European dates, semicolon-separated files, and an id column', () => {
    const us = parseCsv('Name,When,Id\nBBQ,07/04/2026 5:30 PM,bbq-1\nBad,13/01/2026,x\n', { title: 'Name', start: 'When', id: 'Id' }, { timeZone: 'America/New_York', dateFormat: 'us' });
    expect(us.candidates.map((c) => [c.externalId, iso(c.start)])).toEqual([['bbq-1', '2026-07-04T21:30:00.000Z']]);
    expect(us.errors).toEqual([
      { row: 3, message: 'cannot read the start date "13/01/2026" (expected MM/DD/YYYY h:mm AM)', kind: 'skipped', reason: 'had a start date that could not be read (expected MM/DD/YYYY h:mm AM)', value: '13/01/2026' },
    ]);
    const eu = parseCsv('Titel;Beginn\nStadtfest;04.07.2026 18:00\n', { title: 'titel', start: 'beginn' }, { timeZone: 'Europe/Berlin', dateFormat: 'eu' });
    expect(eu.candidates.map((c) => [c.title, iso(c.start)])).toEqual([['Stadtfest', '2026-07-04T16:00:00.000Z']]);
  });

  it('keeps an event whose end or coordinates cannot be read, and reports the field it left out', () => {
    const csv = ['Event,Start,End,Lat,Lng', 'Quiz,2026-03-14 19:30,sometime late,,', 'Choir,2026-03-15 19:30,2026-03-15 18:00,,', 'Market,2026-03-16 09:00,,north,12.3'].join('\n');
    const { candidates, errors } = parseCsv(csv, { title: 'Event', start: 'Start', end: 'End', lat: 'Lat', lng: 'Lng' }, { timeZone: 'Europe/Berlin' });
    expect(candidates.map((c) => [c.title, iso(c.start), c.end, c.lat])).toEqual([
      ['Quiz', '2026-03-14T18:30:00.000Z', undefined, undefined],
      ['Choir', '2026-03-15T18:30:00.000Z', undefined, undefined],
      ['Market', '2026-03-16T08:00:00.000Z', undefined, undefined],
    ]);
    expect(errors.map(({ row, message, kind }) => ({ row, message, kind }))).toEqual([
      { row: 2, message: 'cannot read the end date "sometime late"; the event is kept without it', kind: 'kept' },
      { row: 3, message: 'the end is before the start; the event is kept without it', kind: 'kept' },
      { row: 4, message: 'invalid coordinates "north, 12.3"; the event is kept without them', kind: 'kept' },
    ]);
  });

  it('keeps rows that share an id but not their start or title, and keeps an exact repeat once', () => {
    const csv = ['Id,Event,Start', 'choir,Choir practice,2026-03-14 19:30', 'choir,Choir practice,2026-03-21 19:30', 'choir,Choir concert,2026-03-21 19:30', 'choir,Choir practice,2026-03-21 19:30'].join('\n');
    const { candidates, notes } = parseCsv(csv, { id: 'Id', title: 'Event', start: 'Start' }, { timeZone: 'Europe/Berlin' });
    expect(candidates.map((c) => [c.title, iso(c.start)])).toEqual([
      ['Choir practice', '2026-03-14T18:30:00.000Z'],
      ['Choir practice', '2026-03-21T18:30:00.000Z'],
      ['Choir concert', '2026-03-21T18:30:00.000Z'],
    ]);
    expect(new Set(candidates.map((c) => c.externalId)).size).toBe(3);
    expect(notes).toEqual([{ kind: 'repeated', reason: 'repeated another entry exactly (kept once)', count: 1, examples: ['Choir practice'] }]);
  });

  it('reads a start from a date column and a time column, as parks departments publish them', () => {
    const csv = ['Event,Date,Start Time,End Time', 'Park Yoga,03/14/2026,7:30 PM,8:30 PM', 'Night Hike,03/15/2026,9:00 PM,12:30 AM', 'Kite Day,03/16/2026,,', 'Bird Walk,03/17/2026,early,'].join('\n');
    const { candidates, errors } = parseCsv(csv, { title: 'Event', start: 'Date', startTime: 'Start Time', end: 'End Time' }, { timeZone: 'America/Los_Angeles', dateFormat: 'us' });
    expect(candidates.map((c) => [c.title, iso(c.start), iso(c.end), c.allDay])).toEqual([
      ['Park Yoga', '2026-03-15T02:30:00.000Z', '2026-03-15T03:30:00.000Z', undefined],
      // An end time before the start time is after midnight.
      ['Night Hike', '2026-03-16T04:00:00.000Z', '2026-03-16T07:30:00.000Z', undefined],
      ['Kite Day', '2026-03-16T07:00:00.000Z', '2026-03-17T07:00:00.000Z', true],
      ['Bird Walk', '2026-03-17T07:00:00.000Z', '2026-03-18T07:00:00.000Z', true],
    ]);
    expect(errors).toEqual([
      { row: 5, message: 'cannot read the start time "early"; the event is kept as all-day', kind: 'kept', reason: 'had a start time that could not be read; kept as all-day', value: 'early' },
    ]);
  });

  it('reads dates typed with the month as a word, with the year written, whatever the date format', () => {
    const csv = [
      'Event;Start;End',
      'Gala;March 14, 2026 7:30 PM;March 14, 2026 11:00 PM',
      'Fair;Sat 14 Mar 2026;',
      'Brunch;Mar. 15, 2026, 10 a.m.;',
      'Fair Weekend;March 14 - 15, 2026;',
      'Concert;March 14, 2026 7:00 PM - 10:00 PM;',
      'Someday;March 16;',
      'Note;see March 14, 2026 flyer for details about the time and place;',
    ].join('\n');
    const { candidates, errors } = parseCsv(csv, { title: 'Event', start: 'Start', end: 'End' }, { timeZone: 'America/Los_Angeles', dateFormat: 'eu' });
    expect(candidates.map((c) => [c.title, iso(c.start), iso(c.end), c.allDay])).toEqual([
      ['Gala', '2026-03-15T02:30:00.000Z', '2026-03-15T06:00:00.000Z', undefined],
      ['Fair', '2026-03-14T07:00:00.000Z', '2026-03-15T07:00:00.000Z', true],
      ['Brunch', '2026-03-15T17:00:00.000Z', undefined, undefined],
      // A range in the start cell gives the end (a day range runs to the end of its last day).
      ['Fair Weekend', '2026-03-14T07:00:00.000Z', '2026-03-16T07:00:00.000Z', true],
      ['Concert', '2026-03-15T02:00:00.000Z', '2026-03-15T05:00:00.000Z', undefined],
    ]);
    // Without a year there is nothing to count from, and a note that mentions a date is not one.
    expect(errors.map((e) => [e.row, e.kind])).toEqual([
      [7, 'skipped'],
      [8, 'skipped'],
    ]);
  });

  it('finds the header below a title line and a blank row, as sheets are exported', () => {
    const csv = ['Portland Parks: Spring 2026,,', ',,', 'Event,Date,Park', 'Park Yoga,2026-03-14 09:00,Laurelhurst Park', ',2026-03-15 09:00,Laurelhurst Park'].join('\r\n');
    const { candidates, errors } = parseCsv(csv, { title: 'Event', start: 'Date', venue: 'Park' }, { timeZone: 'America/Los_Angeles' });
    expect(candidates.map((c) => [c.title, c.venueName])).toEqual([['Park Yoga', 'Laurelhurst Park']]);
    // Row numbers are the sheet's own, title line included.
    expect(errors.map(({ row, message }) => ({ row, message }))).toEqual([{ row: 5, message: 'no title' }]);
  });

  it('refuses a mapping to a column the file does not have', () => {
    expect(() => parseCsv('A,B\n1,2\n', { title: 'Title', start: 'B' }, { timeZone: 'UTC' })).toThrow(SourceError);
    expect(() => parseCsv('A,B\n1,2\n', { title: 'Title', start: 'B' }, { timeZone: 'UTC' })).toThrow('the CSV has no column "Title" (mapped to title); its columns are: A, B');
  });
});

describe('csv connector', () => {
  let server: Awaited<ReturnType<typeof startFeedServer>>;
  beforeAll(async () => {
    server = await startFeedServer({
      '/events.csv': serveText(CSV, 'text/csv; charset=utf-8'),
      // A sheet saved by Excel on Windows and served without a charset: Windows-1252 bytes.
      '/excel.csv': serveText(Buffer.from([...'Title,Start\nF\xeate \x96 Caf\xe9 du Parc,2026-03-20 18:00\n'].map((c) => c.charCodeAt(0))), 'text/csv'),
    });
    // Start the parser process now, so the first test does not pay for it.
    await parseInSandbox('csv', { text: 'a,b\n', mapping: { title: 'a', start: 'b' }, options: { timeZone: 'UTC' } });
  });
  afterAll(async () => {
    await server.close();
    await closeSharedSandbox();
  });
  const spec = (config: Record<string, unknown>, url: string | null = null): SourceSpec => ({ id: 'csv-1', name: 'Upload', connector: 'csv', url, sourceType: 'csv', config });

  it('parses an uploaded CSV (config.csv) in the sandbox, drops past events and reports bad rows', async () => {
    const result = (await csvConnector.run(spec({ csv: CSV, mapping }), ctx())) as CsvConnectorResult;
    expect(result.candidates.map((c) => c.title)).toEqual(['Jazz im Hof', 'Lesung: Neue Stimmen', 'Flohmarkt']);
    expect(result.rowErrors.map((e) => e.row)).toEqual([4, 6]);
    // The rows left out reach the run as notes, grouped by reason, with the row (and cell) to find them.
    expect(result.notes).toEqual([
      { kind: 'skipped', reason: 'had a start date that could not be read (expected YYYY-MM-DD HH:MM)', count: 1, examples: ['row 4: next tuesday-ish'] },
      { kind: 'skipped', reason: 'had no title', count: 1, examples: ['row 6'] },
    ]);
  });

  it('fetches the CSV from the source URL when nothing was uploaded', async () => {
    const result = await csvConnector.run(spec({ mapping }, server.url('/events.csv')), ctx());
    expect(result.candidates).toHaveLength(3);
  });

  it('reads a fetched CSV in Windows-1252 without a declared charset, accents and dashes intact', async () => {
    const result = await csvConnector.run(spec({ mapping: { title: 'Title', start: 'Start' } }, server.url('/excel.csv')), ctx());
    expect(result.candidates.map((c) => c.title)).toEqual(['Fête – Café du Parc']);
  });

  it('fails clearly without a mapping, with a bad format, or when no row can be read', async () => {
    await expect(csvConnector.run(spec({ csv: CSV }), ctx())).rejects.toThrow('the CSV source has no column mapping (config.mapping)');
    await expect(csvConnector.run(spec({ csv: CSV, mapping: { title: 'Event' } }), ctx())).rejects.toThrow('the CSV column mapping needs at least "title" and "start"');
    await expect(csvConnector.run(spec({ csv: CSV, mapping, dateFormat: 'klingon' }), ctx())).rejects.toThrow('the CSV date format must be "iso", "us" or "eu"');
    await expect(csvConnector.run(spec({ csv: 'Event,Start\nA,soon\nB,later\n', mapping: { title: 'Event', start: 'Start' } }), ctx())).rejects.toThrow(
      'no row of the CSV could be read (row 2: cannot read the start date "soon" (expected YYYY-MM-DD HH:MM); row 3: cannot read the start date "later" (expected YYYY-MM-DD HH:MM))',
    );
  });
});
