import type { NotificationListResponse, NotificationResponse, NotificationType, UnreadResponse } from '../../../contract/notifications.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { toNotificationResponse } from './notifications.mapper.ts';
import { createNotificationsRepository } from './notifications.repository.ts';

const LIST_LIMIT = 50;

export interface NotificationInput {
  type: NotificationType;
  title: string;
  message: string;
  /** The page it is about, opened from the bell. */
  link?: string | null;
}

/**
 * Persists a notification inside the caller's transaction. Publish the result with
 * `publishNotifications` once the transaction has committed.
 */
export async function createNotification(tx: Db, userId: string, n: NotificationInput, at: Date): Promise<NotificationResponse> {
  return toNotificationResponse(await createNotificationsRepository(tx).insert({ userId, ...n, at }));
}

/** Announces committed notifications on the bus (the realtime channel forwards them). */
export function publishNotifications(bus: EventBus, userId: string, list: readonly NotificationResponse[]): void {
  for (const notification of list) bus.publish('notification', { userId, notification });
}

/** The bell: a user's persisted notifications and their read state. */
export function createNotificationsService(deps: { db: Db; clock: Clock; bus: EventBus }) {
  const { db, clock, bus } = deps;
  const repo = createNotificationsRepository(db);
  return {
    async list(userId: string): Promise<NotificationListResponse> {
      const [rows, unread] = await Promise.all([repo.listNewest(userId, LIST_LIMIT), repo.countUnread(userId)]);
      return { items: rows.map(toNotificationResponse), unread };
    },

    /** Marks the listed notifications (or all, when none are listed) read; others' ids are ignored. */
    async markRead(userId: string, ids: readonly string[] | undefined): Promise<UnreadResponse> {
      if (ids === undefined || ids.length > 0) await repo.markRead(userId, ids, clock.now());
      return { unread: await repo.countUnread(userId) };
    },

    /** Creates and announces one notification outside any other work. */
    async notify(userId: string, n: NotificationInput): Promise<NotificationResponse> {
      const created = toNotificationResponse(await repo.insert({ userId, ...n, at: clock.now() }));
      publishNotifications(bus, userId, [created]);
      return created;
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
