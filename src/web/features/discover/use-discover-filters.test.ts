import { describe, expect, it } from 'vitest';
import { formatDistance, toggleSourceType, sourceTypeOptions } from './filter-panel.tsx';
import { dateWindow, filterParams, listParams, parseFilters, type QueryContext } from './use-discover-filters.ts';
import { formatUptime } from './production-status.tsx';

const NOW = Date.parse('2026-11-20T18:00:00.000Z');
const ctx: QueryContext = { now: NOW, timeZone: 'America/Los_Angeles', position: null };

describe('parseFilters', () => {
  it('reads defaults from an empty query', () => {
    expect(parseFilters(new URLSearchParams())).toEqual({
      categories: [],
      sourceTypes: null,
      search: '',
      sortBy: 'relevance',
      dateRange: null,
      startDate: '',
      endDate: '',
      radius: null,
      view: 'grid',
    });
  });

  it('reads every filter and ignores malformed values', () => {
    const f = parseFilters(new URLSearchParams('category=Music,Arts&sourceType=meetup&search=%20jazz%20&sortBy=date&dateRange=custom&startDate=2026-12-01&endDate=nope&radius=99&view=list'));
    expect(f).toMatchObject({ categories: ['Music', 'Arts'], sourceTypes: ['meetup'], search: 'jazz', sortBy: 'date', dateRange: 'custom', startDate: '2026-12-01', endDate: '', radius: 50, view: 'list' });
    expect(parseFilters(new URLSearchParams('sortBy=cheapest&dateRange=year&radius=x&category=all')).sortBy).toBe('relevance');
    expect(parseFilters(new URLSearchParams('dateRange=year')).dateRange).toBeNull();
    expect(parseFilters(new URLSearchParams('category=all')).categories).toEqual([]);
    expect(parseFilters(new URLSearchParams('sourceType=')).sourceTypes).toEqual([]);
  });
});

describe('dateWindow', () => {
  it('today, week and month count 24 h, 7 days and 30 days from now', () => {
    const day = 24 * 3600 * 1000;
    for (const [range, len] of [['today', day], ['week', 7 * day], ['month', 30 * day]] as const) {
      const w = dateWindow({ dateRange: range, startDate: '', endDate: '' }, NOW, 'UTC');
      expect(w.start?.getTime()).toBe(NOW);
      expect(w.end!.getTime() - NOW).toBe(len);
    }
  });

  it('custom days run from midnight to midnight in the city zone, in order', () => {
    const w = dateWindow({ dateRange: 'custom', startDate: '2026-12-05', endDate: '2026-12-01' }, NOW, 'America/Los_Angeles');
    expect(w.start?.toISOString()).toBe('2026-12-01T08:00:00.000Z');
    expect(w.end?.toISOString()).toBe('2026-12-06T08:00:00.000Z');
    expect(dateWindow({ dateRange: 'custom', startDate: '', endDate: '' }, NOW, 'UTC')).toEqual({ start: undefined, end: undefined });
  });
});

describe('query parameters', () => {
  it('send the filters, the sort, and a position only when a distance matters', () => {
    const f = parseFilters(new URLSearchParams('category=Music&sortBy=date&dateRange=today&search=jazz'));
    const p = listParams(f, { ...ctx, position: { lat: 45.5, lng: -122.6 } });
    expect(p.get('category')).toBe('Music');
    expect(p.get('sortBy')).toBe('date');
    expect(p.get('search')).toBe('jazz');
    expect(p.get('startDate')).toBe(new Date(NOW).toISOString());
    expect(p.has('lat')).toBe(false);
    expect(p.has('sourceType')).toBe(false);
    const near = filterParams(parseFilters(new URLSearchParams('radius=5')), { ...ctx, position: { lat: 45.5, lng: -122.6 } });
    expect([near.get('lat'), near.get('lng'), near.get('radius')]).toEqual(['45.5000', '-122.6000', '5']);
    // Without the visitor's position the server measures from the city centre.
    const centre = filterParams(parseFilters(new URLSearchParams('radius=5')), ctx);
    expect(centre.has('lat')).toBe(false);
    expect(centre.get('radius')).toBe('5');
    expect(filterParams(parseFilters(new URLSearchParams('sortBy=date')), ctx).has('sortBy')).toBe(false);
  });
});

describe('source-type boxes', () => {
  const facets = { categories: [], sourceTypes: [{ value: 'meetup', count: 3 }, { value: 'ical', count: 2 }, { value: 'facebook', count: 0 }], total: 5, estimated: false };
  it('list only the kinds this city has events from, the spec order first', () => {
    expect(sourceTypeOptions(facets, null)).toEqual(['meetup', 'ical']);
    expect(sourceTypeOptions({ ...facets, sourceTypes: [...facets.sourceTypes, { value: 'eventbrite', count: 1 }] }, null)).toEqual(['meetup', 'eventbrite', 'ical']);
  });
  it('keep a selected kind that has no events, so it can be unchecked', () => {
    expect(sourceTypeOptions(facets, ['facebook', 'rss'])).toEqual(['facebook', 'meetup', 'ical', 'rss']);
  });
  it("fall back to the spec's four when the city's kinds are unknown", () => {
    expect(sourceTypeOptions(undefined, ['rss'])).toEqual(['facebook', 'meetup', 'municipal', 'eventbrite', 'rss']);
  });
  it('unchecking one from no filter writes the explicit rest; checking the last one returns to no filter', () => {
    const options = sourceTypeOptions(undefined, null);
    const next = toggleSourceType(null, options, 'facebook', false);
    expect(next).toEqual(['meetup', 'municipal', 'eventbrite']);
    expect(toggleSourceType(next, options, 'facebook', true)).toBeNull();
    expect(toggleSourceType(['meetup'], options, 'meetup', false)).toEqual([]);
  });
});

describe('formatDistance', () => {
  it('says mile for one and miles otherwise; km either way', () => {
    expect(formatDistance(1, 'mi')).toBe('1 mile');
    expect(formatDistance(2, 'mi')).toBe('2 miles');
    expect(formatDistance(50, 'mi')).toBe('50 miles');
    expect(formatDistance(1, 'km')).toBe('1 km');
    expect(formatDistance(25, 'km')).toBe('25 km');
  });
});

describe('formatUptime', () => {
  it('reads milliseconds as days, hours, minutes or seconds', () => {
    expect(formatUptime(42_000)).toBe('42s');
    expect(formatUptime(5 * 60_000)).toBe('5m');
    expect(formatUptime((2 * 60 + 14) * 60_000)).toBe('2h 14m');
    expect(formatUptime((3 * 24 + 4) * 3600_000)).toBe('3d 4h');
  });
});
