import { describe, expect, it } from 'vitest';
import { inProcessTimeZone } from '../test/process-time-zone.ts';
import { formatCityTime } from './city-time.ts';

// A device in Tokyo: times shown to people (orders, admin tables, chat) still read on the city's clocks.
inProcessTimeZone('Asia/Tokyo');

describe('formatCityTime', () => {
  const at = '2026-11-28T03:49:00.000Z'; // 12:49 PM Nov 28 in Tokyo, 7:49 PM Nov 27 in Portland

  it('shows an instant on the zone given, whatever the device zone', () => {
    expect(formatCityTime(at, 'America/Los_Angeles', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' })).toBe('Nov 27, 7:49 PM');
    expect(formatCityTime(at, 'America/Los_Angeles', { dateStyle: 'medium', timeStyle: 'short' })).toBe('Nov 27, 2026, 7:49 PM');
    expect(formatCityTime(at, 'America/Los_Angeles', { month: 'short', day: 'numeric', year: 'numeric' })).toBe('Nov 27, 2026');
  });

  it('shows nothing for a value that is not a time', () => {
    expect(formatCityTime('not a date', 'America/Los_Angeles', { hour: 'numeric' })).toBe('');
  });
});
