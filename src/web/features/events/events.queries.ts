import { useQuery, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { PublicConfig } from '../../../contract/city.ts';
import type { EventDetail, EventSummary } from '../../../contract/events.ts';
import { dateFormat, formatEventDay, formatEventWhen } from '../../../contract/time.ts';

export { formatEventDay, formatEventWhen };

export const CONFIG_KEY = ['/api/config'] as const;
export const eventDetailKey = (id: string) => ['/api/events', id] as const;

/** GET /api/config: the city (time zone, centre, neighbourhoods); fetched once per visit. */
export function useCityConfig() {
  return useQuery<PublicConfig>({ queryKey: CONFIG_KEY });
}

/** The city's time zone, or undefined until the config has loaded. */
export function useCityTimeZone(): string | undefined {
  return useCityConfig().data?.city.timeZone;
}

/** GET /api/events/:id. */
export function useEventDetail(id: string) {
  return useQuery<EventDetail>({ queryKey: eventDetailKey(id), enabled: Boolean(id) });
}

/** Whether a query holds event data: every key under /api/events and the user's favourites. */
export function isEventQueryKey(key: QueryKey): boolean {
  const head = key[0];
  return typeof head === 'string' && (head.startsWith('/api/events') || head.startsWith('/api/user/favorites'));
}

type EventLike = Pick<EventSummary, 'id' | 'isFavorited' | 'favoriteCount'>;

function patchEvent<T>(value: T, id: string, isFavorited: boolean): T {
  if (Array.isArray(value)) {
    let changed = false;
    const next = value.map((v) => {
      const p = patchEvent(v, id, isFavorited);
      if (p !== v) changed = true;
      return p;
    });
    return (changed ? next : value) as T;
  }
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    if (obj.id === id && typeof obj.isFavorited === 'boolean') {
      const e = obj as unknown as EventLike;
      if (e.isFavorited === isFavorited) return value;
      const delta = isFavorited ? 1 : -1;
      return { ...obj, isFavorited, favoriteCount: Math.max(0, (e.favoriteCount ?? 0) + delta) } as T;
    }
    // Infinite-query pages ({ pages: [...] }) and list pages ({ events: [...] }).
    let changed = false;
    const next: Record<string, unknown> = { ...obj };
    for (const k of ['pages', 'events']) {
      if (k in obj) {
        const p = patchEvent(obj[k], id, isFavorited);
        if (p !== obj[k]) {
          next[k] = p;
          changed = true;
        }
      }
    }
    return (changed ? next : value) as T;
  }
  return value;
}

/** Writes a new favourite state into every cached list and detail that shows the event. */
export function setFavoriteInCache(client: QueryClient, id: string, isFavorited: boolean) {
  for (const query of client.getQueryCache().findAll({ predicate: (q) => isEventQueryKey(q.queryKey) })) {
    const data = query.state.data;
    if (data === undefined) continue;
    const next = patchEvent(data, id, isFavorited);
    if (next !== data) client.setQueryData(query.queryKey, next);
  }
}

/**
 * The time an event ends, in the city's zone ('9:30 PM'), or the date and time when it ends another
 * day (with the year when that day is not in `now`'s year, as formatEventWhen does).
 */
export function formatEventEnd(e: Pick<EventSummary, 'startDate' | 'endDate' | 'allDay'>, timeZone: string | undefined, locale = 'en-US', now: Date | number = Date.now()): string {
  const start = new Date(e.startDate);
  const end = new Date(e.endDate);
  if (Number.isNaN(end.getTime()) || end <= start) return '';
  const sameDayFmt = dateFormat('en-US', timeZone, { year: 'numeric', month: 'numeric', day: 'numeric' });
  const sameDay = sameDayFmt.format(start) === sameDayFmt.format(end);
  if (e.allDay) return sameDay ? '' : formatEventDay(new Date(end.getTime() - 1), timeZone, locale, now);
  const time = dateFormat(locale, timeZone, { hour: 'numeric', minute: '2-digit' }).format(end);
  return sameDay ? time : `${formatEventDay(end, timeZone, locale, now)} · ${time}`;
}
