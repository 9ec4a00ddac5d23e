import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { EventFacets, EventStats, EventSummary } from '../../../contract/events.ts';
import type { HealthResponse } from '../../../contract/health.ts';
import { getQueryFn, throwIfResNotOk } from '../../lib/api-client.ts';
import type { StripEvent } from './recommended-strip.tsx';

/** Events per page of the Discover list ('Load More Events' appends the next page). */
export const PAGE_SIZE = 24;
/** Spec section 9: the discover widget polls /api/health every 10 s. */
export const HEALTH_POLL_MS = 10_000;

export interface EventPage {
  events: EventSummary[];
  /** X-Total-Count: every event matching the filters. */
  total: number;
  /** X-Total-Count-Estimated: past a thousand events a filtered total is an estimate, rounded. */
  estimated: boolean;
}

/** One page of GET /api/events; the total comes from the X-Total-Count header. */
export async function fetchEventPage(query: string, offset: number, signal?: AbortSignal): Promise<EventPage> {
  const p = new URLSearchParams(query);
  p.set('limit', String(PAGE_SIZE));
  p.set('offset', String(offset));
  const res = await fetch(`/api/events?${p.toString()}`, { credentials: 'include', signal });
  await throwIfResNotOk(res);
  const events = (await res.json()) as EventSummary[];
  const header = Number(res.headers.get('X-Total-Count'));
  const estimated = res.headers.get('X-Total-Count-Estimated') === 'true';
  return { events, total: Number.isFinite(header) && res.headers.has('X-Total-Count') ? header : offset + events.length, estimated };
}

/** The Discover list, page by page; the key is the URL and its query string. */
export function useEventList(query: string, enabled = true) {
  return useInfiniteQuery({
    queryKey: ['/api/events', query],
    queryFn: ({ pageParam, signal }) => fetchEventPage(query, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.events.length, 0);
      // An estimated total may be short or long: a full page means there may be more.
      if (last.estimated) return last.events.length === PAGE_SIZE ? loaded : undefined;
      return last.events.length > 0 && loaded < last.total ? loaded : undefined;
    },
    placeholderData: keepPreviousData,
    enabled,
  });
}

async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(url, { credentials: 'include', signal });
  await throwIfResNotOk(res);
  return (await res.json()) as T;
}

/** GET /api/events/facets: live category and source-type counts for the current filters. */
export function useEventFacets(query: string) {
  return useQuery({
    queryKey: ['/api/events/facets', query],
    queryFn: ({ signal }) => getJson<EventFacets>(`/api/events/facets${query ? `?${query}` : ''}`, signal),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/events/stats: totals, today's count and coverage. */
export function useEventStats() {
  return useQuery<EventStats>({ queryKey: ['/api/events/stats'] });
}

/** GET /api/events/recommended, only for a signed-in user (each with its `reason`); a 401 reads as nothing to recommend. */
export function useRecommendedEvents(enabled: boolean) {
  return useQuery<StripEvent[] | null>({
    queryKey: ['/api/events/recommended'],
    queryFn: getQueryFn<StripEvent[]>({ on401: 'returnNull' }),
    enabled,
  });
}

/** GET /api/health, polled for the production status widget. */
export function useHealth() {
  return useQuery<HealthResponse>({ queryKey: ['/api/health'], refetchInterval: HEALTH_POLL_MS });
}
