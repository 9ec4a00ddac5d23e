import { and, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { NotificationType } from '../../../contract/notifications.ts';
import type { Db } from '../../db/client.ts';
import { notifications, type NotificationRow } from './notifications.table.ts';

export interface NewNotification {
  userId: string;
  type: NotificationType;
  title: string;
  message: string;
  /** The app's page it is about, e.g. `/events/<id>`. */
  link?: string | null;
  at: Date;
}

/** Queries on notifications; no rules here. Pass a transaction to write alongside other work. */
export function createNotificationsRepository(db: Db) {
  return {
    async insert(n: NewNotification): Promise<NotificationRow> {
      const [row] = await db.insert(notifications).values({ userId: n.userId, type: n.type, title: n.title, message: n.message, link: n.link ?? null, createdAt: n.at }).returning();
      if (!row) throw new Error('notification insert returned no row');
      return row;
    },

    /** Many at once (one statement), for news that reaches many people. */
    async insertMany(list: readonly NewNotification[]): Promise<NotificationRow[]> {
      if (!list.length) return [];
      return db
        .insert(notifications)
        .values(list.map((n) => ({ userId: n.userId, type: n.type, title: n.title, message: n.message, link: n.link ?? null, createdAt: n.at })))
        .returning();
    },

    async listNewest(userId: string, limit: number): Promise<NotificationRow[]> {
      return db.select().from(notifications).where(eq(notifications.userId, userId)).orderBy(desc(notifications.createdAt), desc(notifications.id)).limit(limit);
    },

    async countUnread(userId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(notifications)
        .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
      return Number(row?.n ?? 0);
    },

    /** Marks the user's unread notifications read: the listed ids, or all when ids is undefined. */
    async markRead(userId: string, ids: readonly string[] | undefined, at: Date): Promise<void> {
      const mine = and(eq(notifications.userId, userId), isNull(notifications.readAt));
      const where = ids === undefined ? mine : and(mine, inArray(notifications.id, [...ids]));
      await db.update(notifications).set({ readAt: at }).where(where);
    },
  };
}

export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
