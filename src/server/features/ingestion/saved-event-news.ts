import type { CityConfig } from '../../../contract/city.ts';
import { formatEventWhen } from '../../../contract/time.ts';
import type { NewNotification } from '../notifications/notifications.repository.ts';
import type { SavedEventNews } from './pipeline/plan-run.ts';

// "Never miss an event": whoever saved an event hears, in the bell and live, when its source
// cancels it, lists it again after saying it was cancelled, or moves its start. (An event that only
// left a feed is marked on its page, in the saved list and in calendars, but not announced: a feed
// that shrinks for a day is not news; nor, then, is its coming back.)

/** One notification per person who saved an event the run cancelled, listed again or moved. */
export function savedEventNotifications(news: readonly SavedEventNews[], savers: readonly { userId: string; eventId: string }[], city: Pick<CityConfig, 'timeZone' | 'locale'>, at: Date): NewNotification[] {
  const byEvent = new Map(news.map((n) => [n.id, n]));
  const when = (start: Date, allDay: boolean) => formatEventWhen({ startDate: start.toISOString(), allDay }, city.timeZone, city.locale);
  return savers.flatMap(({ userId, eventId }) => {
    const n = byEvent.get(eventId);
    if (!n) return [];
    switch (n.kind) {
      case 'cancelled':
        return [{ userId, type: 'info' as const, title: 'Saved event cancelled', message: `“${n.title}” (${when(n.start, n.allDay)}) is cancelled, says its source.`, at }];
      case 'relisted':
        return [{ userId, type: 'info' as const, title: 'Saved event back on', message: `“${n.title}” (${when(n.start, n.allDay)}) is listed again by its source, which had said it was cancelled.`, at }];
      case 'moved':
        return [{ userId, type: 'info' as const, title: 'Saved event moved', message: `“${n.title}” now starts ${when(n.to, n.allDay)} (it was ${when(n.from, n.allDay)}).`, at }];
    }
  });
}
