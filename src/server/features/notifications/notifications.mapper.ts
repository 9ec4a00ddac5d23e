import { notificationDisplay, type NotificationResponse } from '../../../contract/notifications.ts';
import type { NotificationRow } from './notifications.table.ts';

/** A notification row as the bell list and the realtime channel show it. */
export function toNotificationResponse(n: NotificationRow): NotificationResponse {
  return {
    id: n.id,
    type: n.type,
    title: n.title,
    message: n.message,
    timestamp: n.createdAt.toISOString(),
    read: n.readAt !== null,
    ...(n.link ? { link: n.link } : {}),
    ...notificationDisplay(n.type),
  };
}
