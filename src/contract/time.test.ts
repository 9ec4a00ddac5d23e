import { describe, expect, it } from 'vitest';
import { zonedDayBounds, zonedToUtc, wallClock } from './time.ts';

describe('zoned time', () => {
  it('converts a 19:00 Europe/Berlin wall clock to 18:00 UTC in winter and 17:00 in summer', () => {
    expect(zonedToUtc({ year: 2026, month: 1, day: 15, hour: 19 }, 'Europe/Berlin').toISOString()).toBe('2026-01-15T18:00:00.000Z');
    expect(zonedToUtc({ year: 2026, month: 7, day: 15, hour: 19 }, 'Europe/Berlin').toISOString()).toBe('2026-07-15T17:00:00.000Z');
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
