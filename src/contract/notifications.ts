import { z } from 'zod';

/** In-app notification kinds (spec section 3). */
export const NOTIFICATION_TYPES = ['success', 'error', 'achievement', 'info'] as const;
export const NotificationType = z.enum(NOTIFICATION_TYPES);
export type NotificationType = z.infer<typeof NotificationType>;

/** Spec section 9: notifications auto-hide after 5000 ms, achievements after 8000 ms. */
export const NOTIFICATION_DURATION_MS = 5000;
export const ACHIEVEMENT_DURATION_MS = 8000;

/**
 * How long a notification of a type stays on screen. Errors never auto-hide (spec section 4),
 * so they get `autoHide: false` and a duration of 0.
 */
export function notificationDisplay(type: NotificationType): { autoHide: boolean; duration: number } {
  if (type === 'error') return { autoHide: false, duration: 0 };
  if (type === 'achievement') return { autoHide: true, duration: ACHIEVEMENT_DURATION_MS };
  return { autoHide: true, duration: NOTIFICATION_DURATION_MS };
}

/** A persisted in-app notification as the bell list and the realtime channel show it. */
export const NotificationResponse = z.object({
  id: z.string(),
  type: NotificationType,
  title: z.string(),
  message: z.string(),
  /** ISO date-time of creation. */
  timestamp: z.string(),
  read: z.boolean(),
  autoHide: z.boolean(),
  /** Milliseconds on screen when autoHide; 0 for errors. */
  duration: z.number().int(),
  /** The app's page it is about (a saved event's `/events/<id>`), opened from the bell; absent when none. */
  link: z.string().optional(),
});
export type NotificationResponse = z.infer<typeof NotificationResponse>;

/** GET /api/notifications: the newest 50 and the unread count (the bell badge). */
export const NotificationListResponse = z.object({
  items: z.array(NotificationResponse),
  unread: z.number().int(),
});
export type NotificationListResponse = z.infer<typeof NotificationListResponse>;

/** POST /api/notifications/read: the listed ids, or all of the user's when none are given. */
export const MarkReadBody = z.object({
  ids: z.array(z.uuid('ids must be notification ids')).max(200, 'ids must list at most 200 notifications').optional(),
});
export type MarkReadBody = z.infer<typeof MarkReadBody>;

export const UnreadResponse = z.object({ unread: z.number().int() });
export type UnreadResponse = z.infer<typeof UnreadResponse>;
