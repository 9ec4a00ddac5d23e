import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFeedServer, serveText, type Route } from '../../../test/feed-server.ts';
import { createSafeFetch } from '../fetch/safe-fetch.ts';
import { SourceError, type CandidateEvent, type ConnectorContext, type SourceSpec } from '../ingestion.types.ts';
import { closeSharedSandbox, parseInSandbox } from '../parse/sandbox.ts';
import { icalConnector, unfoldBytes } from './ical.connector.ts';

const FIX = resolve(process.cwd(), '../shared/fixtures');
const ICS = join(FIX, 'ics');
const has = existsSync(ICS);

const fetch = createSafeFetch({ allowPrivate: true });
const ctx = (now: string, timeZone: string, extra: Partial<ConnectorContext> = {}): ConnectorContext => ({
  fetch,
  now: new Date(now),
  timeZone,
  horizonDays: 180,
  listAheadDays: 730,
  maxOccurrences: 500,
  ...extra,
});
const source = (url: string, extra: Partial<SourceSpec> = {}): SourceSpec => ({
  id: 'src-1',
  name: 'Test calendar',
  connector: 'ical',
  url,
  sourceType: 'ical',
  config: {},
  ...extra,
});
const ics = (...lines: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Townbeat tests//EN', ...lines, 'END:VCALENDAR'].join('\r\n');
const iso = (d: Date | undefined) => d?.toISOString();
const byTitle = (list: CandidateEvent[], title: string) => list.filter((c) => c.title === title);

const inline: Record<string, string> = {};
let server: Awaited<ReturnType<typeof startFeedServer>>;
let etagHits = 0;

beforeAll(async () => {
  const routes: Record<string, Route> = {};
  if (has) {
    for (const f of readdirSync(ICS)) routes[`/ics/${f}`] = serveText(readFileSync(join(ICS, f)), 'text/calendar; charset=utf-8');
  }
  routes['/inline'] = (req, res) => {
    const name = new URL(req.url ?? '/', 'http://x').searchParams.get('name') ?? '';
    res.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(inline[name] ?? '');
  };
  routes['/etag'] = (req, res) => {
    etagHits++;
    if (req.headers['if-none-match'] === '"v1"') {
      res.writeHead(304, { etag: '"v1"' }).end();
      return;
    }
    res
      .writeHead(200, { 'content-type': 'text/calendar', etag: '"v1"', 'last-modified': 'Wed, 01 Jul 2026 10:00:00 GMT' })
      .end(ics('BEGIN:VEVENT', 'UID:e1', 'DTSTART:20260710T180000Z', 'SUMMARY:Cached', 'END:VEVENT'));
  };
  routes['/missing'] = (_req, res) => res.writeHead(404).end('nope');
  routes['/html'] = serveText('<!doctype html><html><body>Calendar moved</body></html>', 'text/html');
  server = await startFeedServer(routes);
  // Start the parser process now, so timings in the tests are of parsing, not of starting it.
  await parseInSandbox('ical', { text: ics(), now: new Date(), timeZone: 'UTC', horizonDays: 1, maxOccurrences: 1 });
});

afterAll(async () => {
  await server.close();
  await closeSharedSandbox();
});

async function runInline(name: string, text: string, now: string, timeZone: string, extra: Partial<ConnectorContext> = {}) {
  inline[name] = text;
  return icalConnector.run(source(server.url(`/inline?name=${name}`)), ctx(now, timeZone, extra));
}

describe.skipIf(!has)('ical connector on real calendars (needs ../shared/fixtures)', () => {
  const run = (file: string, now: string, timeZone: string) => icalConnector.run(source(server.url(`/ics/${file}`)), ctx(now, timeZone));

  it('Packers (Apple iCal, VTIMEZONE US/Central, DURATION): CDT and CST games', async () => {
    const { candidates } = await run('ical4j__Packers.ics', '2004-09-01T00:00:00Z', 'America/Chicago');
    const giants = byTitle(candidates, 'New York Giants at Green Bay. Loss. 7-14. (1-3).')[0]!;
    expect(iso(giants.start)).toBe('2004-10-03T17:00:00.000Z'); // 12:00 CDT
    expect(iso(giants.end)).toBe('2004-10-03T20:00:00.000Z'); // DURATION:PT3H
    expect(giants.timeZone).toBe('America/Chicago');
    expect(giants.externalId).toBe('08FD195E-9464-11D8-B8E3-0003933EE0D6-RID');
    const texans = byTitle(candidates, 'Packers at Houston Texans.  Win.  16-14. (6-4).')[0]!;
    expect(iso(texans.start)).toBe('2004-11-22T01:30:00.000Z'); // 19:30 CST
    // Games before `now` (the 2003 season) are not candidates.
    expect(candidates.every((c) => c.start >= new Date('2004-09-01T00:00:00Z'))).toBe(true);
    expect(candidates).toHaveLength(41);
  });

  it('THFC (Apple iCal 1.0): TZID without VTIMEZONE, yearly RRULE limited to the horizon, non-ASCII', async () => {
    const { candidates } = await run('ical4j__THFC.ics', '2002-08-01T00:00:00Z', 'Europe/London');
    const everton = candidates.find((c) => c.title.startsWith('Everton (2) v Spurs (2)'))!;
    // 00:00 on 18 August in Sydney is 15:00 BST on the 17th, when the match kicked off.
    expect(iso(everton.start)).toBe('2002-08-17T14:00:00.000Z');
    expect(everton.timeZone).toBe('Australia/Sydney');
    expect(everton.description).toContain('Everton: Wright, Stubbs');
    // A yearly birthday: only the occurrence within 180 days, identified by UID and start.
    const keller = byTitle(candidates, 'Kasey Keller 29.11.69');
    expect(keller).toHaveLength(1);
    expect(keller[0]!.allDay).toBe(true);
    expect(keller[0]!.externalId).toBe('08A2C181-963D-11D7-ABA4-003065B8B7E6@2002-11-28T13:00:00.000Z');
  });

  it('EstoniaHolidays (Mozilla): RRULE with COUNT, an RDATE removed by EXDATE, all-day across DST, non-ASCII', async () => {
    const { candidates } = await run('ical4j__EstoniaHolidays.ics', '2009-03-01T00:00:00Z', 'Europe/Tallinn');
    const fools = byTitle(candidates, 'Naljapäev');
    expect(fools.map((c) => iso(c.start))).toEqual(['2009-03-31T21:00:00.000Z']); // midnight EEST, once in 180 days
    expect(fools[0]!.allDay).toBe(true);
    expect(iso(fools[0]!.end)).toBe('2009-04-01T21:00:00.000Z');
    // The Mozilla "faked master" whose only RDATE is also its EXDATE has no occurrence.
    expect(candidates.some((c) => c.externalId.startsWith('6d6d35c2-7bec-47d7-8dcb-28280b7ea7fd'))).toBe(false);
    // Palm Sunday 2010 spans the night clocks went forward: a 23-hour day.
    const palm = byTitle(candidates, 'Palmipuudepüha').find((c) => iso(c.start) === '2009-04-04T21:00:00.000Z');
    expect(palm).toBeDefined();
    expect(candidates.some((c) => c.title === '2. ülestõusmispüha')).toBe(true);
  });

  it('recurring_events_moved (Thunderbird): RECURRENCE-ID overrides replace their occurrence; UNTIL in UTC is inclusive', async () => {
    const { candidates } = await run('recurring__recurring_events_moved.ics', '2019-03-01T00:00:00Z', 'Europe/Berlin');
    const test7 = candidates.filter((c) => c.externalId.startsWith('5d4c6843-9300-4f91-8d88-6094d4b0b840@'));
    expect(test7.map((c) => [c.title, iso(c.start), c.venueName ?? null])).toEqual([
      ['test7', '2019-03-18T03:00:00.000Z', null],
      ['test7 - edited', '2019-03-19T03:00:00.000Z', 'location'],
      ['test7', '2019-03-20T03:00:00.000Z', null],
    ]);
    const moved = candidates.filter((c) => c.externalId.startsWith('a0c78729-30b1-4ba3-a86e-6aedd995d788@'));
    expect(moved.map((c) => [c.externalId.split('@')[1], iso(c.start)])).toEqual([
      ['2019-03-07T01:00:00.000Z', '2019-03-07T01:00:00.000Z'],
      ['2019-03-08T01:00:00.000Z', '2019-03-08T00:00:00.000Z'], // moved an hour earlier, same id
      ['2019-03-09T01:00:00.000Z', '2019-03-09T02:00:00.000Z'], // moved an hour later
      ['2019-03-10T01:00:00.000Z', '2019-03-10T01:00:00.000Z'],
    ]);
  });

  it('google_birthday: all-day RDATEs and RECURRENCE-ID instances whose series is not in the file', async () => {
    const { candidates } = await run('icaljs__google_birthday.ics', '2012-12-01T00:00:00Z', 'America/Los_Angeles');
    const overrides = candidates.filter((c) => c.externalId.startsWith('BIRTHDAY_79d389868f96182e@google.com@'));
    // Single instances (their series is missing) are kept whenever they are, like any single event.
    expect(overrides.map((c) => iso(c.start))).toEqual(['2012-12-10T08:00:00.000Z', '2013-12-10T08:00:00.000Z', '2014-12-10T08:00:00.000Z']);
    expect(overrides.map((c) => c.externalId.split('@google.com@')[1])).toEqual(['2012-12-10T08:00:00.000Z', '2013-12-10T08:00:00.000Z', '2014-12-10T08:00:00.000Z']);
    expect(overrides[0]!.description).toBe("Today is PErson #2's birthday!");
    expect(overrides[0]!.allDay).toBe(true);
    expect(overrides[0]!.timeZone).toBe('America/Los_Angeles'); // X-WR-TIMEZONE for dates
  });

  it('ms_timezones (Exchange): Windows TZIDs with VTIMEZONE, a mis-quoted TZID, EXDATE lists', async () => {
    const { candidates } = await run('nodeical__ms_timezones.ics', '2020-06-01T00:00:00Z', 'Europe/Berlin');
    const test = byTitle(candidates, 'test')[0]!;
    expect(iso(test.start)).toBe('2020-09-10T07:00:00.000Z'); // W. Europe Standard Time 09:00 CEST
    expect(test.timeZone).toBe('Europe/Berlin');
    // DTSTART;TZID="W. Europe Standard Time:20200609T090000" (quote closed after the value) is repaired.
    const jira = byTitle(candidates, "Log Yesterday's Jira time");
    expect(iso(jira[0]!.start)).toBe('2020-06-09T07:00:00.000Z');
    const pacific = byTitle(candidates, 'Not the actual summary either').map((c) => iso(c.start));
    expect(pacific[0]).toBe('2020-07-07T19:00:00.000Z'); // 12:00 PDT
    for (const excluded of ['2020-07-21', '2020-07-23', '2020-07-28', '2020-08-13']) expect(pacific).not.toContain(`${excluded}T19:00:00.000Z`);
    expect(pacific).toContain('2020-07-26T19:00:00.000Z');
    expect(byTitle(candidates, 'Not the actual summary either')[0]!.venueName).toBe('Online'); // LOCATION is a meeting link
  });

  it('Office-2012-owa: Windows display-name TZIDs without VTIMEZONE', async () => {
    const { candidates } = await run('nodeical__Office-2012-owa.ics', '2020-10-20T00:00:00Z', 'Australia/Sydney');
    const syd = byTitle(candidates, 'TEST Syd')[0]!;
    expect(iso(syd.start)).toBe('2020-10-28T02:30:00.000Z'); // 13:30 AEDT
    expect(syd.timeZone).toBe('Australia/Sydney');
    expect(iso(byTitle(candidates, 'TEST')[0]!.start)).toBe('2020-10-28T17:30:00.000Z'); // 13:30 EDT
    expect(iso(byTitle(candidates, 'TEST 3')[0]!.start)).toBe('2020-11-02T18:30:00.000Z'); // 13:30 EST
    const weekly = byTitle(candidates, 'TEST2');
    expect(weekly.slice(0, 3).map((c) => iso(c.start))).toEqual(['2020-11-05T18:30:00.000Z', '2020-11-06T18:30:00.000Z', '2020-11-12T18:30:00.000Z']);
  });

  it('meetup-timed-tz: America/Phoenix, GEO, a location with its address in parentheses, URL', async () => {
    const { candidates } = await run('nodeical__meetup-timed-tz.ics', '2011-11-01T00:00:00Z', 'America/Phoenix');
    expect(candidates).toHaveLength(1);
    const ev = candidates[0]!;
    expect(ev.title).toBe('Phoenix Drupal User Group Monthly Meetup');
    expect(iso(ev.start)).toBe('2011-11-10T02:00:00.000Z'); // 19:00 MST
    expect(iso(ev.end)).toBe('2011-11-10T04:00:00.000Z');
    expect([ev.lat, ev.lng]).toEqual([33.56, -111.9]);
    expect(ev.venueName).toBe('Open Source Project Tempe');
    expect(ev.address).toBe('1415 E University Dr. #103A, Tempe, AZ 85281');
    expect(ev.url).toBe('http://www.meetup.com/Phoenix-Drupal-User-Group/events/33627272/');
    expect(ev.description).toContain('Wednesday, November 9 at 7:00 PM');
  });

  it('discourse_no_dtend: events without DTEND have no end', async () => {
    const { candidates } = await run('recurring__discourse_no_dtend.ics', '2019-01-01T00:00:00Z', 'Europe/Berlin');
    const openLab = byTitle(candidates, '2019-01-17 openLab')[0]!;
    expect(iso(openLab.start)).toBe('2019-01-17T17:00:25.000Z');
    expect(openLab.end).toBeUndefined();
    expect(candidates.map((c) => c.title)).toContain('Potsdamer Tag der Wissenschaften 11.5.2019');
  });

  it('schedule-unstable (Evolution): a start written as a date but declared VALUE=DATE-TIME is read as that date', async () => {
    const { candidates } = await run('ical4j__schedule-unstable.ics', '2006-01-01T00:00:00Z', 'America/New_York');
    const summit = byTitle(candidates, 'Boston Summit 2006')[0]!;
    expect(summit).toMatchObject({ allDay: true });
    expect(iso(summit.start)).toBe('2006-10-07T04:00:00.000Z');
    expect(summit.end!.getTime()).toBeGreaterThan(summit.start.getTime());
  });

  it('fablab_cottbus (iCalcreator): umlauts, monthly RRULE, GEO, venue and address', async () => {
    const { candidates } = await run('recurring__fablab_cottbus.ics', '2018-06-01T00:00:00Z', 'Europe/Berlin');
    expect(candidates.some((c) => c.title === 'Lab geschlossen: Wir sind auf dem Karlstraßenfest')).toBe(true);
    const repair = candidates.filter((c) => c.externalId.startsWith('ai1ec-1887@blog.fablab-cottbus.de@'));
    expect(repair.every((c) => c.title === 'Repair Café')).toBe(true);
    // First Saturday of the month, 14:00 local: 12:00 UTC in summer, 13:00 UTC in November.
    expect(repair.map((c) => iso(c.start))).toEqual(['2018-06-02T12:00:00.000Z', '2018-07-07T12:00:00.000Z', '2018-08-04T12:00:00.000Z', '2018-09-01T12:00:00.000Z', '2018-10-06T12:00:00.000Z', '2018-11-03T13:00:00.000Z']);
    expect(repair[0]!.venueName).toBe('FabLab Cottbus @ Walther-Pauer-Straße 5');
    expect(repair[0]!.address).toBe('03044 Cottbus, Deutschland');
    expect(repair[0]!.lat).toBeCloseTo(51.76882);
    expect(repair[0]!.description).not.toMatch(/\uFFFD/);
  });

  it('tripit-location-escaping: escaped commas and semicolons, all-day ranges, floating times', async () => {
    const { candidates } = await run('nodeical__tripit-location-escaping.ics', '2011-10-01T00:00:00Z', 'America/Los_Angeles');
    const trip = candidates.find((c) => c.externalId === 'c32a5eaba2354bb29e012ec18da827db90550a3b@tripit.com')!;
    expect(trip.title).toBe('South San Francisco, CA, October 2011;');
    expect(trip.venueName).toBe('South San Francisco, CA');
    expect(trip.allDay).toBe(true);
    expect([iso(trip.start), iso(trip.end)]).toEqual(['2011-10-11T07:00:00.000Z', '2011-10-14T07:00:00.000Z']);
    const directions = candidates.find((c) => c.title.startsWith('Directions from SFO'))!;
    expect(directions.address).toBe('250 GATEWAY BLVD, South San Francisco, CA, 94080');
    expect(iso(directions.start)).toBe('2011-10-11T17:05:00.000Z'); // floating 10:05 in the city's zone (PDT)
  });

  it('tv-show-episode: floating times in X-WR-TIMEZONE (US/Eastern), duplicate UIDs', async () => {
    const { candidates } = await run('nodeical__tv-show-episode.ics', '2011-03-25T00:00:00Z', 'Europe/Berlin');
    const bbt = byTitle(candidates, 'The Big Bang Theory - S04E24 - The Roomate Transmogrfication')[0]!;
    expect(iso(bbt.start)).toBe('2011-05-20T00:00:00.000Z'); // 20:00 EDT, not Berlin
    expect(bbt.timeZone).toBe('America/New_York');
    expect(new Set(candidates.map((c) => c.externalId)).size).toBe(candidates.length);
    // Two episodes aired back to back under one UID (the feed derives it from the start): both kept.
    expect(candidates.filter((c) => c.title.startsWith('30 Rock - S05E2') && c.title.includes('100th Episode')).map((c) => c.title).sort()).toEqual([
      '30 Rock - S05E20 - 100th Episode Part 1 of 2',
      '30 Rock - S05E21 - 100th Episode Part 2 of 2',
    ]);
  });

  it('issue_127: CATEGORIES with escaped commas', async () => {
    const { candidates } = await run('icalendar__issue_127_categories_with_commas.ics', '2014-01-01T00:00:00Z', 'UTC');
    expect(candidates[0]!.categories).toEqual(['Meeting, John', 'Work, Sarah', 'Project']);
  });

  it('every fixture either parses or fails with a SourceError', async () => {
    for (const f of readdirSync(ICS)) {
      try {
        const result = await run(f, '2000-01-01T00:00:00Z', 'Europe/Berlin');
        expect(Array.isArray(result.candidates), f).toBe(true);
      } catch (err) {
        expect(err, f).toBeInstanceOf(SourceError);
      }
    }
  });
});

describe('ical connector: times, recurrences and failures', () => {
  it('a 19:00 Europe/Berlin event is at 18:00 UTC in winter and 17:00 UTC in summer', async () => {
    const { candidates } = await runInline(
      'berlin',
      ics(
        'BEGIN:VEVENT',
        'UID:winter@test',
        'DTSTART;TZID=Europe/Berlin:20260115T190000',
        'DTEND;TZID=Europe/Berlin:20260115T210000',
        'SUMMARY:Winter concert',
        'END:VEVENT',
        'BEGIN:VEVENT',
        'UID:summer@test',
        'DTSTART;TZID=Europe/Berlin:20260716T190000',
        'SUMMARY:Summer concert',
        'END:VEVENT',
        'BEGIN:VEVENT',
        'UID:weekly@test',
        'DTSTART;TZID=Europe/Berlin:20260319T190000',
        'DTEND;TZID=Europe/Berlin:20260319T200000',
        'RRULE:FREQ=WEEKLY;COUNT=3',
        'SUMMARY:Weekly choir',
        'END:VEVENT',
      ),
      '2026-01-01T00:00:00Z',
      'Europe/Berlin',
    );
    expect(iso(byTitle(candidates, 'Winter concert')[0]!.start)).toBe('2026-01-15T18:00:00.000Z');
    expect(iso(byTitle(candidates, 'Winter concert')[0]!.end)).toBe('2026-01-15T20:00:00.000Z');
    expect(iso(byTitle(candidates, 'Summer concert')[0]!.start)).toBe('2026-07-16T17:00:00.000Z');
    // A weekly rule keeps 19:00 local across the change to summer time (29 March 2026).
    expect(byTitle(candidates, 'Weekly choir').map((c) => iso(c.start))).toEqual(['2026-03-19T18:00:00.000Z', '2026-03-26T18:00:00.000Z', '2026-04-02T17:00:00.000Z']);
    expect(byTitle(candidates, 'Weekly choir').map((c) => c.externalId)).toEqual(['weekly@test@2026-03-19T18:00:00.000Z', 'weekly@test@2026-03-26T18:00:00.000Z', 'weekly@test@2026-04-02T17:00:00.000Z']);
  });

  it('floating times and dates are in the city zone; all-day events run to the next midnight', async () => {
    const { candidates } = await runInline(
      'floating',
      ics('BEGIN:VEVENT', 'UID:f1', 'DTSTART:20260115T190000', 'SUMMARY:Floating', 'END:VEVENT', 'BEGIN:VEVENT', 'UID:d1', 'DTSTART;VALUE=DATE:20260704', 'SUMMARY:Street fair', 'END:VEVENT', 'BEGIN:VEVENT', 'UID:u1', 'DTSTART:20260115T190000Z', 'SUMMARY:UTC', 'END:VEVENT'),
      '2026-01-01T00:00:00Z',
      'America/New_York',
    );
    expect(iso(byTitle(candidates, 'Floating')[0]!.start)).toBe('2026-01-16T00:00:00.000Z');
    const fair = byTitle(candidates, 'Street fair')[0]!;
    expect([iso(fair.start), iso(fair.end), fair.allDay]).toEqual(['2026-07-04T04:00:00.000Z', '2026-07-05T04:00:00.000Z', true]);
    expect(iso(byTitle(candidates, 'UTC')[0]!.start)).toBe('2026-01-15T19:00:00.000Z');
  });

  it('expands over the horizon only, at most maxOccurrences per event', async () => {
    const daily = ics('BEGIN:VEVENT', 'UID:daily', 'DTSTART;TZID=Europe/Berlin:20250101T100000', 'RRULE:FREQ=DAILY', 'SUMMARY:Daily', 'END:VEVENT');
    const { candidates } = await runInline('daily', daily, '2026-01-01T00:00:00Z', 'Europe/Berlin');
    expect(candidates).toHaveLength(180);
    expect(iso(candidates[0]!.start)).toBe('2026-01-01T09:00:00.000Z');
    expect(candidates.at(-1)!.start.getTime()).toBeLessThanOrEqual(new Date('2026-01-01T00:00:00Z').getTime() + 180 * 86_400_000);
    const capped = await runInline('daily', daily, '2026-01-01T00:00:00Z', 'Europe/Berlin', { maxOccurrences: 20 });
    expect(capped.candidates).toHaveLength(20);
  });

  it('a FREQ=SECONDLY rule that would expand to millions of occurrences returns at most 500, quickly', async () => {
    const started = Date.now();
    const { candidates } = await runInline(
      'secondly',
      ics('BEGIN:VEVENT', 'UID:spin', 'DTSTART:20100101T000000Z', 'RRULE:FREQ=SECONDLY', 'SUMMARY:Every second forever', 'END:VEVENT', 'BEGIN:VEVENT', 'UID:ok', 'DTSTART:20260105T180000Z', 'SUMMARY:Normal event', 'END:VEVENT'),
      '2026-01-01T00:00:00Z',
      'UTC',
    );
    const spin = candidates.filter((c) => c.title === 'Every second forever');
    expect(spin).toHaveLength(500);
    expect(iso(spin[0]!.start)).toBe('2026-01-01T00:00:00.000Z');
    expect(iso(spin[499]!.start)).toBe('2026-01-01T00:08:19.000Z');
    expect(candidates.some((c) => c.title === 'Normal event')).toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a sub-daily rule that can never match (BYMONTHDAY=30 in February) is dropped, not spun', async () => {
    const { candidates } = await runInline(
      'impossible',
      ics('BEGIN:VEVENT', 'UID:never', 'DTSTART:20260101T000000Z', 'RRULE:FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30', 'SUMMARY:Never', 'END:VEVENT'),
      '2026-01-01T00:00:00Z',
      'UTC',
    );
    expect(candidates).toEqual([]);
  });

  it('keeps non-ASCII text, also when a fold splits a UTF-8 character', async () => {
    const summary = Buffer.from('SUMMARY:Café-Konzert: Grüße aus Zürich 🎻 – 東京', 'utf8');
    // Fold inside the two bytes of "ü" (0xC3 0xBC) in "Grüße".
    const cut = summary.indexOf(Buffer.from('ü')) + 1;
    const folded = Buffer.concat([summary.subarray(0, cut), Buffer.from('\r\n '), summary.subarray(cut)]);
    expect(unfoldBytes(folded).toString('utf8')).toBe(summary.toString('utf8'));
    const body = Buffer.concat([
      Buffer.from('BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:u\r\nDTSTART:20260301T190000Z\r\nLOCATION:Tonhalle\\, Claridenstrasse 7\\, 8002 Zürich\r\n'),
      folded,
      Buffer.from('\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n'),
    ]);
    const local = await startFeedServer({ '/utf8.ics': serveText(body, 'text/calendar; charset=utf-8') });
    try {
      const res = await icalConnector.run(source(local.url('/utf8.ics')), ctx('2026-01-01T00:00:00Z', 'Europe/Zurich'));
      expect(res.candidates[0]!.title).toBe('Café-Konzert: Grüße aus Zürich 🎻 – 東京');
      expect(res.candidates[0]!.venueName).toBe('Tonhalle');
      expect(res.candidates[0]!.address).toBe('Claridenstrasse 7, 8002 Zürich');
    } finally {
      await local.close();
    }
  });

  it('STATUS:CANCELLED marks the event cancelled', async () => {
    const { candidates } = await runInline('cancelled', ics('BEGIN:VEVENT', 'UID:c', 'DTSTART:20260301T190000Z', 'STATUS:CANCELLED', 'SUMMARY:Called off', 'END:VEVENT'), '2026-01-01T00:00:00Z', 'UTC');
    expect(candidates[0]!.cancelled).toBe(true);
  });

  it('fails a malformed calendar with a clear SourceError', async () => {
    const broken = runInline('broken', 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:never closed\r\n', '2026-01-01T00:00:00Z', 'UTC');
    await expect(broken).rejects.toBeInstanceOf(SourceError);
    await expect(broken).rejects.toThrow(/^invalid iCalendar: /);
    await expect(icalConnector.run(source(server.url('/html')), ctx('2026-01-01T00:00:00Z', 'UTC'))).rejects.toThrow('not an iCalendar file (no BEGIN:VCALENDAR)');
    await expect(icalConnector.run(source(server.url('/missing')), ctx('2026-01-01T00:00:00Z', 'UTC'))).rejects.toThrow('the server answered HTTP 404 (not found)');
  });

  it('sends the validators of the last run and reports 304 as not modified', async () => {
    const first = await icalConnector.run(source(server.url('/etag')), ctx('2026-07-01T00:00:00Z', 'UTC'));
    expect(first.candidates.map((c) => c.title)).toEqual(['Cached']);
    expect(first.etag).toBe('"v1"');
    expect(first.lastModified).toBe('Wed, 01 Jul 2026 10:00:00 GMT');
    const second = await icalConnector.run(source(server.url('/etag'), { etag: first.etag, lastModified: first.lastModified }), ctx('2026-07-01T00:00:00Z', 'UTC'));
    expect(second).toEqual({ candidates: [], notModified: true, etag: '"v1"', lastModified: 'Wed, 01 Jul 2026 10:00:00 GMT' });
    const hit = server.hits.filter((h) => h.url === '/etag').at(-1)!;
    expect(hit.headers['if-none-match']).toBe('"v1"');
    expect(hit.headers['if-modified-since']).toBe('Wed, 01 Jul 2026 10:00:00 GMT');
    expect(etagHits).toBe(2);
  });
});
