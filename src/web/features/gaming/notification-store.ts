import { useSyncExternalStore } from 'react';
import { NotificationResponse, notificationDisplay, type NotificationType } from '../../../contract/notifications.ts';

/**
 * In-app notifications on screen (spec sections 3, 4 and 9): added, then auto-dismissed after
 * their duration (5000 ms, 8000 ms for achievements) or dismissed by hand; errors never auto-hide.
 * Live ones come from the realtime channel; local ones (e.g. 'Points Error') from `notify`.
 */
export interface LiveNotification {
  id: string;
  type: NotificationType;
  title: string;
  message: string;
  timestamp: string;
  autoHide: boolean;
  duration: number;
  /** The app's page it is about (a saved event's), offered on the card. */
  link?: string;
}

export interface NotifyInput {
  type: NotificationType;
  title: string;
  message: string;
  /** A server notification's id: the same one is never shown twice. */
  id?: string;
  timestamp?: string;
  link?: string;
}

/** More than this on screen at once and the oldest goes first. */
export const MAX_VISIBLE_NOTIFICATIONS = 5;

let items: LiveNotification[] = [];
let seq = 0;
const listeners = new Set<() => void>();
const timers = new Map<string, ReturnType<typeof setTimeout>>();
/** Ids already shown, so a repeated delivery of one server notification is ignored. */
const seen = new Set<string>();

function emit(next: LiveNotification[]) {
  items = next;
  listeners.forEach((l) => l());
}

export function dismissNotification(id: string) {
  const t = timers.get(id);
  if (t) clearTimeout(t);
  timers.delete(id);
  if (items.some((n) => n.id === id)) emit(items.filter((n) => n.id !== id));
}

/** Shows a notification; its type decides whether and when it hides itself. Returns its id. */
export function notify(input: NotifyInput): string {
  seq += 1;
  const id = input.id ?? `local-${seq}`;
  if (seen.has(id)) return id;
  seen.add(id);
  const display = notificationDisplay(input.type);
  const n: LiveNotification = {
    id,
    type: input.type,
    title: input.title,
    message: input.message,
    timestamp: input.timestamp ?? new Date().toISOString(),
    ...(input.link ? { link: input.link } : {}),
    ...display,
  };
  const next = [...items, n];
  for (const dropped of next.slice(0, Math.max(0, next.length - MAX_VISIBLE_NOTIFICATIONS))) {
    const t = timers.get(dropped.id);
    if (t) clearTimeout(t);
    timers.delete(dropped.id);
  }
  emit(next.slice(-MAX_VISIBLE_NOTIFICATIONS));
  if (n.autoHide && n.duration > 0) timers.set(id, setTimeout(() => dismissNotification(id), n.duration));
  return id;
}

/** The realtime channel's `notification` message: a persisted notification to show live. */
export function receiveServerNotification(data: Record<string, unknown>) {
  const parsed = NotificationResponse.safeParse(data);
  if (!parsed.success) {
    console.error('Realtime notification could not be read', parsed.error);
    return;
  }
  const n = parsed.data;
  notify({ id: n.id, type: n.type, title: n.title, message: n.message, timestamp: n.timestamp, ...(n.link ? { link: n.link } : {}) });
}

/** Test helper: forget everything on screen and every timer. */
export function resetNotifications() {
  timers.forEach((t) => clearTimeout(t));
  timers.clear();
  seen.clear();
  emit([]);
}

export function useLiveNotifications(): LiveNotification[] {
  return useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    () => items,
    () => items,
  );
}
