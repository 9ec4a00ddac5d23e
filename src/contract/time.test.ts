import { describe, expect, it } from 'vitest';
import { daysInMonth, formatEventWhen, isRealTimeOfDay, isRealWallClock, readTimestamp, zonedDayBounds, zonedToUtc, wallClock } from './time.ts';

describe('zoned time', () => {
  it('converts a 19:00 Europe/Berlin wall clock to 18:00 UTC in winter and 17:00 in summer', () => {
    expect(zonedToUtc({ year: 2026, month: 1, day: 15, hour: 19 }, 'Europe/Berlin').toISOString()).toBe('2026-01-15T18:00:00.000Z');
    expect(zonedToUtc({ year: 2026, month: 7, day: 15, hour: 19 }, 'Europe/Berlin').toISOString()).toBe('2026-07-15T17:00:00.000Z');
  });

  it('reads a time the clocks skip with the offset before the change (RFC 5545), and an hour they repeat as its first', () => {
    // 2:30 AM on Mar 14, 2027 does not exist in Los Angeles: 2:30 PST, shown as 3:30 PDT.
    expect(zonedToUtc({ year: 2027, month: 3, day: 14, hour: 2, minute: 30 }, 'America/Los_Angeles').toISOString()).toBe('2027-03-14T10:30:00.000Z');
    expect(zonedToUtc({ year: 2027, month: 3, day: 14, hour: 1, minute: 30 }, 'America/Los_Angeles').toISOString()).toBe('2027-03-14T09:30:00.000Z');
    expect(zonedToUtc({ year: 2027, month: 3, day: 14, hour: 3, minute: 30 }, 'America/Los_Angeles').toISOString()).toBe('2027-03-14T10:30:00.000Z');
    // 1:30 AM on Nov 7, 2027 comes twice: the first, in PDT.
    expect(zonedToUtc({ year: 2027, month: 11, day: 7, hour: 1, minute: 30 }, 'America/Los_Angeles').toISOString()).toBe('2027-11-07T08:30:00.000Z');
    // East of UTC too: 2:30 AM on Mar 28, 2027 in Berlin is 3:30 CEST.
    expect(zonedToUtc({ year: 2027, month: 3, day: 28, hour: 2, minute: 30 }, 'Europe/Berlin').toISOString()).toBe('2027-03-28T01:30:00.000Z');
  });

  it('says the days an all-day event spans when it is more than one', () => {
    const tz = 'America/Los_Angeles';
    const now = new Date('2026-11-28T18:00:00Z');
    // Dec 11 to 13 in Portland: the end is midnight starting Dec 14.
    expect(formatEventWhen({ startDate: '2026-12-11T08:00:00.000Z', endDate: '2026-12-14T08:00:00.000Z', allDay: true }, tz, 'en-US', now)).toBe('Fri, Dec 11 – Sun, Dec 13 · All day');
    expect(formatEventWhen({ startDate: '2026-12-11T08:00:00.000Z', endDate: '2026-12-12T08:00:00.000Z', allDay: true }, tz, 'en-US', now)).toBe('Fri, Dec 11 · All day');
    expect(formatEventWhen({ startDate: '2026-12-11T08:00:00.000Z', allDay: true }, tz, 'en-US', now)).toBe('Fri, Dec 11 · All day');
  });

  it('gives a 23-hour day on the spring-forward date in Los Angeles', () => {
    const { start, end } = zonedDayBounds(new Date('2026-03-08T20:00:00Z'), 'America/Los_Angeles');
    expect(start.toISOString()).toBe('2026-03-08T08:00:00.000Z');
    expect(end.toISOString()).toBe('2026-03-09T07:00:00.000Z');
  });

  it('counts 23:30 local as the same local day', () => {
    const lateEvening = zonedToUtc({ year: 2026, month: 11, day: 22, hour: 23, minute: 30 }, 'America/Los_Angeles');
    expect(lateEvening.toISOString()).toBe('2026-11-23T07:30:00.000Z');
    const { start, end } = zonedDayBounds(new Date('2026-11-22T18:00:00Z'), 'America/Los_Angeles');
    expect(lateEvening >= start && lateEvening < end).toBe(true);
    expect(wallClock(lateEvening, 'America/Los_Angeles').day).toBe(22);
  });
});

describe('real wall clocks', () => {
  it('knows the days of each month, 29 February in leap years only', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((m) => daysInMonth(2027, m))).toEqual([31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]);
    expect([2028, 2000, 1900, 2100].map((y) => daysInMonth(y, 2))).toEqual([29, 29, 28, 28]);
  });

  it('refuses days a month does not have, which Date.UTC would roll over', () => {
    expect(isRealWallClock({ year: 2027, month: 2, day: 30, hour: 19 })).toBe(false);
    expect(isRealWallClock({ year: 2027, month: 9, day: 31 })).toBe(false);
    expect(isRealWallClock({ year: 2027, month: 2, day: 29 })).toBe(false);
    expect(isRealWallClock({ year: 2026, month: 13, day: 1 })).toBe(false);
    expect(isRealWallClock({ year: 2027, month: 3, day: 0 })).toBe(false);
    expect(isRealWallClock({ year: 2028, month: 2, day: 29, hour: 19 })).toBe(true);
    expect(isRealWallClock({ year: 2027, month: 12, day: 31, hour: 23, minute: 59, second: 59 })).toBe(true);
  });

  it('refuses times no clock shows; 24:00:00 ends a day and :60 is a leap second', () => {
    expect(isRealWallClock({ year: 2027, month: 3, day: 1, hour: 25 })).toBe(false);
    expect(isRealWallClock({ year: 2027, month: 3, day: 1, hour: 19, minute: 61 })).toBe(false);
    expect(isRealTimeOfDay(24, 30)).toBe(false);
    expect(isRealTimeOfDay(19, 30.5)).toBe(false);
    expect(isRealTimeOfDay(-1, 0)).toBe(false);
    expect(isRealTimeOfDay(24, 0, 0)).toBe(true);
    expect(isRealTimeOfDay(23, 59, 60)).toBe(true);
  });

  it('reads a timestamp as new Date does, but not one whose ISO date does not exist', () => {
    expect(readTimestamp('2027-03-02T19:00:00Z')?.toISOString()).toBe('2027-03-02T19:00:00.000Z');
    expect(readTimestamp('2028-02-29T19:00:00.000-08:00')?.toISOString()).toBe('2028-03-01T03:00:00.000Z');
    expect(readTimestamp('Tue, 02 Mar 2027 19:00:00 GMT')?.toISOString()).toBe('2027-03-02T19:00:00.000Z');
    expect(readTimestamp('2027-02-30T19:00:00Z')).toBeUndefined();
    expect(readTimestamp('2027-09-31')).toBeUndefined();
    expect(readTimestamp('2027-03-01T19:61:00Z')).toBeUndefined();
    expect(readTimestamp('not a date')).toBeUndefined();
    expect(readTimestamp(undefined)).toBeUndefined();
  });
});

describe('formatEventWhen and the year', () => {
  const tz = 'America/Los_Angeles';
  const now = new Date('2026-06-01T19:00:00Z');

  it('leaves the year out for a date in this year', () => {
    expect(formatEventWhen({ startDate: '2026-10-20T19:00:00.000Z', allDay: false }, tz, 'en-US', now)).toBe('Tue, Oct 20 · 12:00 PM');
    expect(formatEventWhen({ startDate: '2026-12-31T08:00:00.000Z', allDay: true }, tz, 'en-US', now)).toBe('Thu, Dec 31 · All day');
  });

  it('says the year for a date next year, or two years ahead, so they do not read alike', () => {
    expect(formatEventWhen({ startDate: '2027-10-20T19:00:00.000Z', allDay: false }, tz, 'en-US', now)).toBe('Wed, Oct 20, 2027 · 12:00 PM');
    expect(formatEventWhen({ startDate: '2028-10-20T19:00:00.000Z', allDay: false }, tz, 'en-US', now)).toBe('Fri, Oct 20, 2028 · 12:00 PM');
    expect(formatEventWhen({ startDate: '2027-03-01T08:00:00.000Z', allDay: true }, tz, 'en-US', now)).toBe('Mon, Mar 1, 2027 · All day');
  });

  it('says the year for a date in a past year', () => {
    expect(formatEventWhen({ startDate: '2025-10-20T19:00:00.000Z', allDay: false }, tz, 'en-US', now)).toBe('Mon, Oct 20, 2025 · 12:00 PM');
  });

  it('says the year for early January seen in late December', () => {
    const lateDecember = new Date('2026-12-30T20:00:00Z');
    expect(formatEventWhen({ startDate: '2027-01-02T03:00:00.000Z', allDay: false }, tz, 'en-US', lateDecember)).toBe('Fri, Jan 1, 2027 · 7:00 PM');
  });

  it("reads the years in the city's zone, not in UTC", () => {
    // 03:00 UTC on Jan 1 2027 is still New Year's Eve 2026 in Portland: this year's, no year shown.
    const lateDecember = new Date('2026-12-30T20:00:00Z');
    expect(formatEventWhen({ startDate: '2027-01-01T03:00:00.000Z', allDay: false }, tz, 'en-US', lateDecember)).toBe('Thu, Dec 31 · 7:00 PM');
    // And at 7 PM on Dec 31 in Portland (already Jan 1 in UTC), New Year's Day is next year's.
    const newYearsEve = new Date('2027-01-01T03:00:00Z');
    expect(formatEventWhen({ startDate: '2027-01-01T20:00:00.000Z', allDay: false }, tz, 'en-US', newYearsEve)).toBe('Fri, Jan 1, 2027 · 12:00 PM');
  });
});
