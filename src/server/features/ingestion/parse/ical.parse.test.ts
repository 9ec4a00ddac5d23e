// The recurrence set of RFC 5545: DTSTART, the RRULE's instances and the RDATEs, less the
// EXDATEs, each date once. DTSTART is always the first instance, with or without an RRULE (a run
// of shows written as its opening night plus RDATEs was listed without the opening night).
import { describe, expect, it } from 'vitest';
import type { CandidateEvent } from '../ingestion.types.ts';
import { parseIcal } from './ical.parse.ts';

const LA = 'TZID=America/Los_Angeles';
// Monday 2026-01-05, 00:00 in Los Angeles.
const ctx = { now: new Date('2026-01-05T08:00:00Z'), timeZone: 'America/Los_Angeles', horizonDays: 120, maxOccurrences: 100 };
const vevent = (...lines: string[]) => ['BEGIN:VEVENT', 'DTSTAMP:20251215T170000Z', ...lines, 'END:VEVENT'];
const calendar = (...events: string[][]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Townbeat tests//EN', ...events.flat(), 'END:VCALENDAR'].join('\r\n');
const parse = (...events: string[][]) => parseIcal({ ...ctx, text: calendar(...events) });
const iso = (d: Date | undefined) => d?.toISOString();
const starts = (list: CandidateEvent[], uid: string) => list.filter((c) => c.externalId.startsWith(`${uid}@`)).map((c) => iso(c.start));

// Friday 2026-01-16 19:30 PST, then Saturday 17, Friday 23 and Friday 30 at 19:30.
const FRI = '2026-01-17T03:30:00.000Z';
const SAT = '2026-01-18T03:30:00.000Z';
const FRI2 = '2026-01-24T03:30:00.000Z';
const FRI3 = '2026-01-31T03:30:00.000Z';

describe('parseIcal: DTSTART in the recurrence set', () => {
  it('lists DTSTART first for a series of RDATEs without an RRULE, with the same end and kind of id as the RDATE dates', () => {
    const { candidates, notes } = parse(
      vevent('UID:play', `DTSTART;${LA}:20260116T193000`, `DTEND;${LA}:20260116T220000`, `RDATE;${LA}:20260117T193000,20260123T193000,20260130T193000`, 'SUMMARY:Twelfth Night'),
    );
    expect(candidates.map((c) => [c.externalId, iso(c.start), iso(c.end), c.timeZone])).toEqual([
      [`play@${FRI}`, FRI, '2026-01-17T06:00:00.000Z', 'America/Los_Angeles'],
      // The RDATE dates keep the ids they always had.
      [`play@${SAT}`, SAT, '2026-01-18T06:00:00.000Z', 'America/Los_Angeles'],
      [`play@${FRI2}`, FRI2, '2026-01-24T06:00:00.000Z', 'America/Los_Angeles'],
      [`play@${FRI3}`, FRI3, '2026-01-31T06:00:00.000Z', 'America/Los_Angeles'],
    ]);
    expect(notes).toEqual([]);
  });

  it('lists DTSTART once when an RDATE repeats it or a date of the RRULE, without a note of repeats', () => {
    const { candidates, notes } = parse(
      vevent('UID:rdates', `DTSTART;${LA}:20260116T193000`, `RDATE;${LA}:20260116T193000,20260117T193000`, `RDATE;${LA}:20260117T193000`, 'SUMMARY:RDATEs'),
      vevent('UID:ruled', `DTSTART;${LA}:20260116T193000`, 'RRULE:FREQ=WEEKLY;COUNT=3', `RDATE;${LA}:20260116T193000,20260117T193000,20260123T193000`, 'SUMMARY:Ruled'),
    );
    expect(starts(candidates, 'rdates')).toEqual([FRI, SAT]);
    expect(starts(candidates, 'ruled')).toEqual([FRI, SAT, FRI2, FRI3]);
    expect(notes).toEqual([]);
  });

  it('reads RDATE;VALUE=PERIOD as dates with ends of their own, after DTSTART with its DTEND', () => {
    const { candidates } = parse(
      vevent(
        'UID:matinee',
        `DTSTART;${LA}:20260116T193000`,
        `DTEND;${LA}:20260116T220000`,
        `RDATE;${LA};VALUE=PERIOD:20260117T140000/20260117T163000,20260124T140000/PT3H`,
        'SUMMARY:Matinees',
      ),
    );
    expect(candidates.map((c) => [iso(c.start), iso(c.end)])).toEqual([
      [FRI, '2026-01-17T06:00:00.000Z'],
      ['2026-01-17T22:00:00.000Z', '2026-01-18T00:30:00.000Z'],
      ['2026-01-24T22:00:00.000Z', '2026-01-25T01:00:00.000Z'],
    ]);
  });

  it('lists an all-day DTSTART with its RDATE;VALUE=DATE days', () => {
    const { candidates } = parse(vevent('UID:fair', 'DTSTART;VALUE=DATE:20260116', 'RDATE;VALUE=DATE:20260120,20260125', 'SUMMARY:Fair'));
    expect(candidates.map((c) => [iso(c.start), iso(c.end), c.allDay])).toEqual([
      ['2026-01-16T08:00:00.000Z', '2026-01-17T08:00:00.000Z', true],
      ['2026-01-20T08:00:00.000Z', '2026-01-21T08:00:00.000Z', true],
      ['2026-01-25T08:00:00.000Z', '2026-01-26T08:00:00.000Z', true],
    ]);
  });

  it('lists DTSTART in its own zone next to RDATEs written in another zone or in UTC, once when one of them is DTSTART', () => {
    const { candidates } = parse(
      // 04:30 in Berlin is 19:30 the evening before in Los Angeles.
      vevent('UID:tour', `DTSTART;${LA}:20260116T193000`, 'RDATE;TZID=Europe/Berlin:20260118T043000', 'RDATE:20260124T033000Z', 'SUMMARY:Tour'),
      vevent('UID:again', `DTSTART;${LA}:20260116T193000`, 'RDATE;TZID=Europe/Berlin:20260117T043000,20260118T043000', 'SUMMARY:Again'),
    );
    expect(candidates.filter((c) => c.title === 'Tour').map((c) => [iso(c.start), c.timeZone])).toEqual([
      [FRI, 'America/Los_Angeles'],
      [SAT, 'America/Los_Angeles'],
      [FRI2, 'America/Los_Angeles'],
    ]);
    expect(starts(candidates, 'again')).toEqual([FRI, SAT]);
  });

  it('leaves DTSTART out when an EXDATE names it (its time, or its day), and only then', () => {
    const { candidates } = parse(
      vevent('UID:kept', `DTSTART;${LA}:20260116T193000`, `RDATE;${LA}:20260117T193000`, 'SUMMARY:Kept'),
      vevent('UID:ex-time', `DTSTART;${LA}:20260116T193000`, `RDATE;${LA}:20260117T193000`, `EXDATE;${LA}:20260116T193000`, 'SUMMARY:Ex time'),
      vevent('UID:ex-day', `DTSTART;${LA}:20260116T193000`, `RDATE;${LA}:20260117T193000`, 'EXDATE;VALUE=DATE:20260116', 'SUMMARY:Ex day'),
      // An RDATE that repeats the excluded DTSTART does not bring it back, with an RRULE or without.
      vevent('UID:ex-rdate', `DTSTART;${LA}:20260116T193000`, `RDATE;${LA}:20260116T193000,20260117T193000`, `EXDATE;${LA}:20260116T193000`, 'SUMMARY:Ex RDATE'),
      vevent('UID:ex-ruled', `DTSTART;${LA}:20260116T193000`, 'RRULE:FREQ=WEEKLY;COUNT=3', `RDATE;${LA}:20260116T193000`, `EXDATE;${LA}:20260116T193000`, 'SUMMARY:Ex ruled'),
      // Mozilla's "faked master": its only date is excluded, so it has none.
      vevent('UID:faked', 'DTSTART;VALUE=DATE:20260116', 'RDATE;VALUE=DATE:20260116', 'EXDATE;VALUE=DATE:20260116', 'SUMMARY:Faked', 'X-MOZ-FAKED-MASTER:1'),
    );
    expect(starts(candidates, 'kept')).toEqual([FRI, SAT]);
    expect(starts(candidates, 'ex-time')).toEqual([SAT]);
    expect(starts(candidates, 'ex-day')).toEqual([SAT]);
    expect(starts(candidates, 'ex-rdate')).toEqual([SAT]);
    expect(starts(candidates, 'ex-ruled')).toEqual([FRI2, FRI3]);
    expect(starts(candidates, 'faked')).toEqual([]);
  });

  it('lets a RECURRENCE-ID override of DTSTART replace it, under the id of the date it replaces', () => {
    const override = vevent('UID:gala', `RECURRENCE-ID;${LA}:20260116T193000`, `DTSTART;${LA}:20260116T200000`, `DTEND;${LA}:20260116T230000`, 'SUMMARY:Opening gala');
    const series = vevent('UID:gala', `DTSTART;${LA}:20260116T193000`, `DTEND;${LA}:20260116T220000`, `RDATE;${LA}:20260117T193000`, 'SUMMARY:Play');
    // The override may come before its series in the file, or after it.
    for (const events of [
      [override, series],
      [series, override],
    ]) {
      const { candidates } = parse(...events);
      expect(candidates.map((c) => [c.externalId, c.title, iso(c.start), iso(c.end)])).toEqual([
        [`gala@${FRI}`, 'Opening gala', '2026-01-17T04:00:00.000Z', '2026-01-17T07:00:00.000Z'],
        [`gala@${SAT}`, 'Play', SAT, '2026-01-18T06:00:00.000Z'],
      ]);
    }
  });

  it('lists a DTSTART that is still running and not one that is over, with the RDATEs ahead', () => {
    // Friday 2026-01-16 20:30 PST: the opening night (19:30 to 22:00) is on.
    const now = new Date('2026-01-17T04:30:00.000Z');
    const { candidates } = parseIcal({
      ...ctx,
      now,
      text: calendar(
        vevent('UID:running', `DTSTART;${LA}:20260116T193000`, `DTEND;${LA}:20260116T220000`, `RDATE;${LA}:20260123T193000`, 'SUMMARY:Running'),
        vevent('UID:over', `DTSTART;${LA}:20260109T193000`, `DTEND;${LA}:20260109T220000`, `RDATE;${LA}:20260123T193000`, 'SUMMARY:Over'),
      ),
    });
    expect(starts(candidates, 'running')).toEqual([FRI, FRI2]);
    expect(starts(candidates, 'over')).toEqual([FRI2]);
  });
});

describe('parseIcal: a time the clocks skip', () => {
  it('reads 2:30 AM on the spring-forward day with the offset before the change (RFC 5545): 3:30 PDT, the other dates as written', () => {
    // Sundays at 2:30 AM from Mar 7, 2027; on Mar 14 Los Angeles clocks go from 2:00 to 3:00.
    const { candidates } = parseIcal({ ...ctx, now: new Date('2027-03-01T08:00:00Z'), text: calendar(vevent('UID:owls', `DTSTART;${LA}:20270307T023000`, `DTEND;${LA}:20270307T033000`, 'RRULE:FREQ=WEEKLY;COUNT=3', 'SUMMARY:Owl Walk')) });
    expect(candidates.map((c) => [iso(c.start), iso(c.end)])).toEqual([
      ['2027-03-07T10:30:00.000Z', '2027-03-07T11:30:00.000Z'],
      ['2027-03-14T10:30:00.000Z', '2027-03-14T11:30:00.000Z'],
      ['2027-03-21T09:30:00.000Z', '2027-03-21T10:30:00.000Z'],
    ]);
  });
});
