import * as Menu from '@radix-ui/react-dropdown-menu';
import { AlertCircle, Bell, CheckCheck, CheckCircle2, Info, Trophy, X, type LucideIcon } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import type { NotificationType } from '../../../contract/notifications.ts';
import { relativeTime, useNow } from './gaming-format.ts';
import { useMarkRead, useNotifications } from './gaming.queries.ts';
import { dismissNotification, useLiveNotifications, type LiveNotification } from './notification-store.ts';

export { dismissNotification, notify, receiveServerNotification } from './notification-store.ts';

const LOOK: Record<NotificationType, { icon: LucideIcon; card: string; icon_: string }> = {
  success: { icon: CheckCircle2, card: 'border-success/50', icon_: 'text-success' },
  info: { icon: Info, card: 'border-primary/40', icon_: 'text-primary' },
  achievement: { icon: Trophy, card: 'border-accent/60 bg-accent-soft', icon_: 'text-accent' },
  error: { icon: AlertCircle, card: 'border-destructive/60', icon_: 'text-destructive' },
};

function NotificationCard({ n }: { n: LiveNotification }) {
  const look = LOOK[n.type];
  const Icon = look.icon;
  return (
    <li
      className={`pointer-events-auto relative flex items-start gap-3 rounded-lg border bg-card p-4 pr-12 shadow-lg ${look.card}`}
      data-testid="live-notification"
      data-type={n.type}
    >
      <Icon className={`mt-0.5 h-5 w-5 shrink-0 ${look.icon_}`} aria-hidden />
      <div className="min-w-0">
        <p className="text-sm font-semibold">{n.title}</p>
        <p className="text-sm text-muted-foreground">{n.message}</p>
        {n.link && (
          <Link href={n.link} onClick={() => dismissNotification(n.id)} className="mt-1 inline-flex min-h-11 items-center text-sm font-medium text-primary underline-offset-2 hover:underline" aria-label={`Open: ${n.title}`}>
            Open
          </Link>
        )}
      </div>
      <button
        type="button"
        onClick={() => dismissNotification(n.id)}
        aria-label={`Dismiss notification: ${n.title}`}
        className="absolute right-1 top-1 inline-flex h-11 w-11 items-center justify-center rounded-lg opacity-70 hover:bg-muted hover:opacity-100"
      >
        <X className="h-4 w-4" aria-hidden />
      </button>
    </li>
  );
}

/**
 * Live in-app notifications (spec sections 3, 4 and 9) as stacked cards in a polite live region:
 * success and info hide after 5000 ms, achievements after 8000 ms, errors stay until dismissed.
 */
export function NotificationCenter() {
  const items = useLiveNotifications();
  return (
    <section aria-label="Live notifications" className="pointer-events-none fixed right-4 top-20 z-[90] w-[min(24rem,calc(100%-2rem))]">
      <ol aria-live="polite" aria-relevant="additions text" className="flex flex-col gap-2">
        {items.map((n) => (
          <NotificationCard key={n.id} n={n} />
        ))}
      </ol>
    </section>
  );
}

/**
 * The top bar's bell (decisions section 2): the unread count of the user's persisted
 * notifications; it opens the list, newest first, unread in bold, with 'Mark all as read'.
 */
export function NotificationBell() {
  const { data } = useNotifications();
  const markRead = useMarkRead();
  const [, navigate] = useLocation();
  const now = useNow();
  const unread = data?.unread ?? 0;
  // Newest first, whatever order the server sent.
  const items = [...(data?.items ?? [])].sort((a, b) => b.timestamp.localeCompare(a.timestamp));
  const badge = unread > 99 ? '99+' : String(unread);

  return (
    <Menu.Root>
      <Menu.Trigger
        aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
        className="relative inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full hover:bg-muted data-[state=open]:bg-muted"
      >
        <Bell className="h-5 w-5" aria-hidden />
        {unread > 0 && (
          <span
            className="absolute right-0.5 top-0.5 inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-destructive px-1 text-[11px] font-bold leading-none text-white"
            data-testid="notification-count"
            aria-hidden
          >
            {badge}
          </span>
        )}
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content align="end" sideOffset={6} className="z-50 flex max-h-[70vh] w-[min(22rem,calc(100vw-2rem))] flex-col rounded-lg border border-border bg-card shadow-lg">
          <div className="flex items-center justify-between gap-2 border-b border-border px-3 py-2">
            <Menu.Label className="text-sm font-semibold">Notifications</Menu.Label>
            {items.length > 0 && (
              <Menu.Item
                disabled={unread === 0}
                onSelect={(e) => {
                  e.preventDefault();
                  markRead.mutate(undefined);
                }}
                className="inline-flex min-h-9 cursor-pointer items-center gap-1 rounded-md px-2 text-xs font-semibold text-primary outline-none data-[disabled]:cursor-default data-[disabled]:opacity-50 data-[highlighted]:bg-muted"
              >
                <CheckCheck className="h-4 w-4" aria-hidden />
                Mark all as read
              </Menu.Item>
            )}
          </div>
          {items.length === 0 ? (
            <p className="px-3 py-6 text-center text-sm text-muted-foreground">No notifications yet</p>
          ) : (
            <div className="overflow-y-auto p-1" data-testid="notification-list">
              {items.map((n) => {
                const Icon = LOOK[n.type].icon;
                const body = (
                  <>
                    <Icon className={`mt-0.5 h-4 w-4 shrink-0 ${LOOK[n.type].icon_}`} aria-hidden />
                    <div className="min-w-0 flex-1">
                      <p className={`text-sm ${n.read ? 'font-normal' : 'font-bold'}`}>
                        {!n.read && <span className="sr-only">Unread: </span>}
                        {n.title}
                      </p>
                      <p className={`text-sm ${n.read ? 'text-muted-foreground' : 'font-semibold text-foreground'}`}>{n.message}</p>
                      <p className="text-xs text-muted-foreground">
                        <time dateTime={n.timestamp}>{relativeTime(n.timestamp, now)}</time>
                      </p>
                    </div>
                    {!n.read && <span className="mt-1.5 h-2 w-2 shrink-0 rounded-full bg-primary" aria-hidden />}
                  </>
                );
                const look = 'flex cursor-pointer items-start gap-2 rounded-md px-2 py-2 outline-none data-[highlighted]:bg-muted';
                // About a page (a saved event): the item opens it, and the list closes; else it is marked
                // read in place and the list stays open.
                const link = n.link;
                return link ? (
                  <Menu.Item
                    key={n.id}
                    onSelect={() => {
                      if (!n.read) markRead.mutate({ ids: [n.id] });
                      navigate(link);
                    }}
                    className={look}
                    data-read={n.read}
                  >
                    {body}
                  </Menu.Item>
                ) : (
                  <Menu.Item
                    key={n.id}
                    onSelect={(e) => {
                      e.preventDefault();
                      if (!n.read) markRead.mutate({ ids: [n.id] });
                    }}
                    className={look}
                    data-read={n.read}
                  >
                    {body}
                  </Menu.Item>
                );
              })}
            </div>
          )}
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}
