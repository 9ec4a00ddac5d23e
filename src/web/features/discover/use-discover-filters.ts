import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'wouter';
import { DATE_RANGE_MS, SORTS, type SortBy } from '../../../contract/events.ts';
import { zonedToUtc } from '../../../contract/time.ts';
import { rememberDiscover } from './last-discover.ts';

export const DATE_RANGES = ['today', 'week', 'month', 'custom'] as const;
export type DateRange = (typeof DATE_RANGES)[number];
export type ViewMode = 'grid' | 'list';

/** Spec section 9: today = 24 h, week = 7 days, month = 30 days, counted from now (the admin assistant counts with the same). */
export { DATE_RANGE_MS };

/** Spec section 5: the distance slider runs 1 to 50, step 1, default 10. */
export const RADIUS_MIN = 1;
export const RADIUS_MAX = 50;
export const RADIUS_DEFAULT = 10;

/** The Discover filters as the URL holds them, so a filtered view can be shared and survives reload. */
export interface DiscoverFilters {
  /** Empty: every category. */
  categories: string[];
  /** null: no source-type filter (every box checked); otherwise exactly these. */
  sourceTypes: string[] | null;
  search: string;
  sortBy: SortBy;
  dateRange: DateRange | null;
  /** Days (YYYY-MM-DD) in the city's zone, for the custom range. */
  startDate: string;
  endDate: string;
  /** null: no distance limit. */
  radius: number | null;
  view: ViewMode;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function splitList(value: string | null): string[] {
  if (!value) return [];
  return [...new Set(value.split(',').map((s) => s.trim()).filter(Boolean))];
}

/** Reads the filters from the URL's query; unknown or malformed values fall back to the defaults. */
export function parseFilters(params: URLSearchParams): DiscoverFilters {
  const sortBy = params.get('sortBy');
  const dateRange = params.get('dateRange');
  const radiusRaw = params.get('radius');
  const radius = radiusRaw === null || radiusRaw === '' ? NaN : Number(radiusRaw);
  const startDate = params.get('startDate') ?? '';
  const endDate = params.get('endDate') ?? '';
  const sourceType = params.get('sourceType');
  const categories = splitList(params.get('category'));
  return {
    categories: categories.includes('all') ? [] : categories,
    sourceTypes: sourceType === null ? null : splitList(sourceType).includes('all') ? null : splitList(sourceType),
    search: params.get('search')?.trim() ?? '',
    sortBy: (SORTS as readonly string[]).includes(sortBy ?? '') ? (sortBy as SortBy) : 'relevance',
    dateRange: (DATE_RANGES as readonly string[]).includes(dateRange ?? '') ? (dateRange as DateRange) : null,
    startDate: DAY.test(startDate) ? startDate : '',
    endDate: DAY.test(endDate) ? endDate : '',
    radius: Number.isFinite(radius) ? Math.min(RADIUS_MAX, Math.max(RADIUS_MIN, Math.round(radius))) : null,
    view: params.get('view') === 'list' ? 'list' : 'grid',
  };
}

function dayStart(day: string, timeZone: string): Date {
  const [year, month, d] = day.split('-').map(Number) as [number, number, number];
  return zonedToUtc({ year, month, day: d }, timeZone);
}
function nextDayStart(day: string, timeZone: string): Date {
  const [year, month, d] = day.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(year, month - 1, d + 1));
  return zonedToUtc({ year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() }, timeZone);
}

/**
 * The date window a filter asks for, as instants, the end exclusive (the server lists the events
 * overlapping [start, end)); custom days count in the city's zone, the last up to the next midnight.
 */
export function dateWindow(filters: Pick<DiscoverFilters, 'dateRange' | 'startDate' | 'endDate'>, now: number, timeZone: string): { start?: Date; end?: Date } {
  const range = filters.dateRange;
  if (!range) return {};
  if (range !== 'custom') return { start: new Date(now), end: new Date(now + DATE_RANGE_MS[range]) };
  let [from, to] = [filters.startDate, filters.endDate];
  if (from && to && from > to) [from, to] = [to, from];
  return { start: from ? dayStart(from, timeZone) : undefined, end: to ? nextDayStart(to, timeZone) : undefined };
}

export interface QueryContext {
  /** The anchor for relative date ranges (ms since epoch). */
  now: number;
  timeZone: string;
  /** The visitor's position when known and allowed. */
  position: { lat: number; lng: number } | null;
}

/** Filter parameters of GET /api/events and /api/events/facets (no page, no sort). */
export function filterParams(filters: DiscoverFilters, ctx: QueryContext): URLSearchParams {
  const p = new URLSearchParams();
  if (filters.categories.length) p.set('category', filters.categories.join(','));
  if (filters.sourceTypes?.length) p.set('sourceType', filters.sourceTypes.join(','));
  if (filters.search) p.set('search', filters.search);
  const { start, end } = dateWindow(filters, ctx.now, ctx.timeZone);
  if (start) p.set('startDate', start.toISOString());
  if (end) p.set('endDate', end.toISOString());
  const wantsPosition = filters.radius !== null || filters.sortBy === 'distance';
  if (wantsPosition && ctx.position) {
    p.set('lat', ctx.position.lat.toFixed(4));
    p.set('lng', ctx.position.lng.toFixed(4));
  }
  if (filters.radius !== null) p.set('radius', String(filters.radius));
  return p;
}

/** The list's query string: the filters plus the sort. */
export function listParams(filters: DiscoverFilters, ctx: QueryContext): URLSearchParams {
  const p = filterParams(filters, ctx);
  p.set('sortBy', filters.sortBy);
  return p;
}

/** Filters in the URL, with setters that rewrite only their own parameters (replacing history). */
export function useDiscoverFilters() {
  const [params] = useSearchParams();
  const [location, navigate] = useLocation();
  const filters = useMemo(() => parseFilters(params), [params]);
  // The way back from an event page returns to this list as it is now.
  const search = params.toString();
  useEffect(() => rememberDiscover(`${location}${search ? `?${search.replace(/%2C/gi, ',')}` : ''}`), [location, search]);
  // Relative ranges count from when they were chosen (or the page opened), so the query key is stable.
  const [now, setNow] = useState(() => Date.now());

  const update = useCallback(
    (edit: (p: URLSearchParams) => void) => {
      const next = new URLSearchParams(params);
      edit(next);
      // Commas stay readable in a shared link: ?category=Music,Arts
      const qs = next.toString().replace(/%2C/gi, ',');
      navigate(`${location}${qs ? `?${qs}` : ''}`, { replace: true });
    },
    [params, location, navigate],
  );

  const setList = useCallback(
    (name: 'category' | 'sourceType', values: string[] | null) =>
      update((p) => {
        if (values === null) p.delete(name);
        else p.set(name, values.join(','));
      }),
    [update],
  );

  return {
    filters,
    now,
    setCategories: useCallback((values: string[]) => setList('category', values.length ? values : null), [setList]),
    /** null checks every box (no filter); a list is exactly what is checked. */
    setSourceTypes: useCallback((values: string[] | null) => setList('sourceType', values), [setList]),
    setSortBy: useCallback(
      (sortBy: SortBy) =>
        update((p) => {
          if (sortBy === 'relevance') p.delete('sortBy');
          else p.set('sortBy', sortBy);
        }),
      [update],
    ),
    /** Choosing a range clears the custom dates (spec section 4); null removes the date filter. */
    setDateRange: useCallback(
      (range: DateRange | null) => {
        setNow(Date.now());
        update((p) => {
          p.delete('startDate');
          p.delete('endDate');
          if (range) p.set('dateRange', range);
          else p.delete('dateRange');
        });
      },
      [update],
    ),
    setCustomDate: useCallback(
      (which: 'startDate' | 'endDate', day: string) =>
        update((p) => {
          p.set('dateRange', 'custom');
          if (DAY.test(day)) p.set(which, day);
          else p.delete(which);
        }),
      [update],
    ),
    setRadius: useCallback(
      (radius: number | null) =>
        update((p) => {
          if (radius === null) p.delete('radius');
          else p.set('radius', String(Math.min(RADIUS_MAX, Math.max(RADIUS_MIN, Math.round(radius)))));
        }),
      [update],
    ),
    setView: useCallback(
      (view: ViewMode) =>
        update((p) => {
          if (view === 'grid') p.delete('view');
          else p.set('view', view);
        }),
      [update],
    ),
    /** Back to the defaults, keeping the search text and the view. */
    clearFilters: useCallback(
      () =>
        update((p) => {
          for (const k of ['category', 'sourceType', 'dateRange', 'startDate', 'endDate', 'radius']) p.delete(k);
        }),
      [update],
    ),
  };
}

export type DiscoverFiltersApi = ReturnType<typeof useDiscoverFilters>;

/**
 * The visitor's position, asked for only once a distance matters (a radius or the distance sort).
 * Refused or unavailable: logged only, and the server measures from the city centre.
 */
export function useVisitorPosition(wanted: boolean): { lat: number; lng: number } | null {
  const [position, setPosition] = useState<{ lat: number; lng: number } | null>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (!wanted || asked.current) return;
    asked.current = true;
    if (typeof navigator === 'undefined' || !navigator.geolocation) {
      console.log('Geolocation is not available; distances are measured from the city centre');
      return;
    }
    navigator.geolocation.getCurrentPosition(
      (pos) => setPosition({ lat: Number(pos.coords.latitude.toFixed(4)), lng: Number(pos.coords.longitude.toFixed(4)) }),
      (err) => console.log(`Geolocation unavailable (${err.message || err.code}); distances are measured from the city centre`),
      { enableHighAccuracy: false, timeout: 10_000, maximumAge: 300_000 },
    );
  }, [wanted]);
  return position;
}
