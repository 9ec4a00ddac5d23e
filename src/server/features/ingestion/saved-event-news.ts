import type { CityConfig } from '../../../contract/city.ts';
import { formatEventWhen } from '../../../contract/time.ts';
import type { Db } from '../../db/client.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { createEventsRepository } from '../events/events.repository.ts';
import { toNotificationResponse } from '../notifications/notifications.mapper.ts';
import { createNotificationsRepository, type NewNotification } from '../notifications/notifications.repository.ts';
import { publishNotifications } from '../notifications/notifications.service.ts';
import type { NotificationRow } from '../notifications/notifications.table.ts';
import type { SavedEventNews } from './pipeline/plan-run.ts';

// "Never miss an event": whoever saved an event hears, in the bell and live, when its source
// cancels or postpones it, lists it again after saying it was cancelled or postponed, or moves its
// start (or an admin moves it, correcting the source), or drops one date of a series it still lists
// (an EXDATE, a rule cut short). (Any other event that only left a feed is marked on its page, in
// the saved list and in calendars, but not announced: a feed that shrinks for a day is not news;
// nor, then, is its coming back.)

/** One notification per person who saved an event the run cancelled, postponed, listed again or moved. */
export function savedEventNotifications(news: readonly SavedEventNews[], savers: readonly { userId: string; eventId: string }[], city: Pick<CityConfig, 'timeZone' | 'locale'>, at: Date): NewNotification[] {
  const byEvent = new Map(news.map((n) => [n.id, n]));
  const when = (start: Date, allDay: boolean) => formatEventWhen({ startDate: start.toISOString(), allDay }, city.timeZone, city.locale, at);
  return savers.flatMap(({ userId, eventId }) => {
    const n = byEvent.get(eventId);
    if (!n) return [];
    const link = `/events/${eventId}`;
    switch (n.kind) {
      // One of several sources (its record merged into the event) speaks for itself: the page says what the others say.
      case 'cancelled':
        return n.by
          ? [{ userId, type: 'info' as const, title: 'A source cancelled a saved event', message: `“${n.title}” (${when(n.start, n.allDay)}) is cancelled, says ${n.by}, one of the sources that list it: see what the others say on its page.`, link, at }]
          : [{ userId, type: 'info' as const, title: 'Saved event cancelled', message: `“${n.title}” (${when(n.start, n.allDay)}) is cancelled, says its source.`, link, at }];
      case 'postponed':
        return n.by
          ? [{ userId, type: 'info' as const, title: 'A source postponed a saved event', message: `“${n.title}” (${when(n.start, n.allDay)}) is postponed, says ${n.by}, one of the sources that list it: see what the others say on its page.`, link, at }]
          : [{ userId, type: 'info' as const, title: 'Saved event postponed', message: `“${n.title}” (${when(n.start, n.allDay)}) is postponed, says its source, with no new date yet.`, link, at }];
      case 'relisted':
        return [{ userId, type: 'info' as const, title: 'Saved event back on', message: `“${n.title}” (${when(n.start, n.allDay)}) is listed again by ${n.by ?? 'its source'}, which had said it was ${n.after ?? 'cancelled'}.`, link, at }];
      case 'apart':
        return [
          {
            userId,
            type: 'info' as const,
            title: 'Sources disagree on a saved event',
            message: `${n.by ?? 'Another source'} gives “${n.title}” another time, ${when(n.start, n.allDay)}: listed on its own now, beside the one you saved (${when(n.was, n.allDay)}).`,
            link: `/events/${n.opens}`,
            at,
          },
        ];
      case 'moved':
        return [{ userId, type: 'info' as const, title: 'Saved event moved', message: `“${n.title}” now starts ${when(n.to, n.allDay)} (it was ${when(n.from, n.allDay)}).`, link, at }];
      case 'dropped':
        return [{ userId, type: 'info' as const, title: 'Saved date dropped', message: `“${n.title}” (${when(n.start, n.allDay)}) is no longer among the dates its source lists, though it still lists others: see the event's page.`, link, at }];
    }
  });
}

const CHUNK = 1000;

/** Writes, in the caller's transaction, the notifications of whoever saved an event in `news`. */
export async function tellSavers(tx: Db, news: readonly SavedEventNews[], city: Pick<CityConfig, 'timeZone' | 'locale'>, now: Date): Promise<NotificationRow[]> {
  if (!news.length) return [];
  const eventsRepo = createEventsRepository(tx);
  const notifications = createNotificationsRepository(tx);
  const ids = news.map((n) => n.id);
  const savers: { userId: string; eventId: string }[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) savers.push(...(await eventsRepo.saversOf(ids.slice(i, i + CHUNK))));
  const list = savedEventNotifications(news, savers, city, now);
  const out: NotificationRow[] = [];
  for (let i = 0; i < list.length; i += CHUNK) out.push(...(await notifications.insertMany(list.slice(i, i + CHUNK))));
  return out;
}

/** Sends them live, once the transaction that wrote them has committed. */
export function publishSavedEventNews(bus: EventBus, told: readonly NotificationRow[]): void {
  for (const n of told) publishNotifications(bus, n.userId, [toNotificationResponse(n)]);
}
