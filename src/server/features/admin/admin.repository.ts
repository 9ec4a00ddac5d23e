import { and, count, desc, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import { sessions } from '../auth/sessions.table.ts';
import { events, favorites } from '../events/events.table.ts';
import { awaitingReview } from '../events/events.repository.ts';
import { pointAwards } from '../gaming/ledger.table.ts';
import { createDuplicatesRepository } from '../ingestion/duplicates.repository.ts';
import { flyerScans } from '../scan/scan.table.ts';
import { users, type UserRow } from '../users/users.table.ts';
import { auditLog } from './admin.table.ts';

/** A user row with the latest use of any of its sessions. */
export interface UserListRow {
  user: UserRow;
  lastActiveAt: Date | null;
}

/** Day -> count, the day being YYYY-MM-DD in the city's zone. */
export type DayCounts = Map<string, number>;

/** Ledger activities that are scans at a venue (QR codes), counted with flyer scans. */
const QR_SCAN_ACTIVITIES = ['check_in', 'vendor_visit', 'demo_scan'];

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Queries for the admin area: users, their sessions and the daily figures of the analytics tab. */
export function createAdminRepository(db: Db) {
  const day = (col: AnyPgColumn, tz: string) => sql<string>`to_char((${col} at time zone ${tz})::date, 'YYYY-MM-DD')`;

  async function perDay(table: PgTable, col: AnyPgColumn, from: Date, to: Date, tz: string, extra?: SQL, value: SQL = sql`count(*)`): Promise<DayCounts> {
    const rows = await queryRows<{ d: string; n: string | number }>(
      db,
      sql`select ${day(col, tz)} as d, (${value})::bigint as n from ${table} where ${col} >= ${from.toISOString()} and ${col} < ${to.toISOString()} ${extra ? sql`and ${extra}` : sql``} group by 1`,
    );
    return new Map(rows.map((r) => [r.d, Number(r.n)]));
  }

  return {
    async listUsers(q: { search: string; limit: number; offset: number }): Promise<{ rows: UserListRow[]; total: number }> {
      const term = q.search ? `%${escapeLike(q.search)}%` : null;
      const where = term
        ? or(ilike(users.email, term), ilike(users.firstName, term), ilike(users.lastName, term), ilike(sql`coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, '')`, term))
        : undefined;
      const lastActive = db.select({ userId: sessions.userId, at: sql<Date>`max(${sessions.lastSeenAt})`.as('at') }).from(sessions).groupBy(sessions.userId).as('last_active');
      const [rows, [total]] = await Promise.all([
        db
          .select({ user: users, lastActiveAt: lastActive.at })
          .from(users)
          .leftJoin(lastActive, eq(lastActive.userId, users.id))
          .where(where)
          .orderBy(desc(users.createdAt), users.id)
          .limit(q.limit)
          .offset(q.offset),
        db.select({ n: count() }).from(users).where(where),
      ]);
      // The raw max() of a subquery comes back as text on some drivers.
      return { rows: rows.map((r) => ({ user: r.user, lastActiveAt: r.lastActiveAt ? new Date(r.lastActiveAt) : null })), total: total?.n ?? 0 };
    },

    async findUser(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id));
      return row;
    },

    /** Admins that can still sign in. */
    async enabledAdmins(): Promise<Pick<UserRow, 'id' | 'email'>[]> {
      return db.select({ id: users.id, email: users.email }).from(users).where(and(eq(users.role, 'admin'), isNull(users.disabledAt))).orderBy(users.email);
    },

    /**
     * Changes role and/or disabled state; disabling deletes every session of the user in the same
     * transaction, so the account is signed out everywhere at once. `check` runs inside it, on
     * locked admin rows, so two admins demoting each other cannot both succeed.
     */
    async updateUser(id: string, patch: { role?: UserRow['role']; disabledAt?: Date | null }, now: Date, check: (admins: Pick<UserRow, 'id'>[], target: UserRow) => void): Promise<UserRow | undefined> {
      return db.transaction(async (tx) => {
        const admins = await tx.select({ id: users.id }).from(users).where(and(eq(users.role, 'admin'), isNull(users.disabledAt))).for('update');
        const [target] = await tx.select().from(users).where(eq(users.id, id)).for('update');
        if (!target) return undefined;
        check(admins, target);
        const [row] = await tx
          .update(users)
          .set({ ...(patch.role ? { role: patch.role } : {}), ...(patch.disabledAt !== undefined ? { disabledAt: patch.disabledAt } : {}), updatedAt: now })
          .where(eq(users.id, id))
          .returning();
        if (patch.disabledAt) await tx.delete(sessions).where(eq(sessions.userId, id));
        return row;
      });
    },

    async countSessions(userId: string): Promise<number> {
      const [r] = await db.select({ n: count() }).from(sessions).where(eq(sessions.userId, userId));
      return r?.n ?? 0;
    },

    /** Ledger entries across users, newest first, with each user's email. */
    async listActivities(q: { limit: number; offset: number }) {
      const [rows, [total]] = await Promise.all([
        db
          .select({ award: pointAwards, email: users.email })
          .from(pointAwards)
          .innerJoin(users, eq(users.id, pointAwards.userId))
          .orderBy(desc(pointAwards.createdAt), desc(pointAwards.id))
          .limit(q.limit)
          .offset(q.offset),
        db.select({ n: count() }).from(pointAwards),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    async countApprovedEvents(): Promise<number> {
      const [r] = await db.select({ n: count() }).from(events).where(eq(events.status, 'approved'));
      return r?.n ?? 0;
    },

    /** Events waiting for an admin's review: not listed until one approves them (the review queue's). */
    async countPendingEvents(now: Date): Promise<number> {
      const [r] = await db.select({ n: count() }).from(events).where(awaitingReview(now));
      return r?.n ?? 0;
    },

    /** Possible duplicates waiting for an admin's decision. */
    countOpenDuplicates: () => createDuplicatesRepository(db).countOpen(),

    /** Distinct users active since a moment (the Overview's "active users, 7 days"). */
    async countActiveUsersSince(from: Date): Promise<number> {
      const rows = await queryRows<{ n: string | number }>(
        db,
        sql`select count(distinct u)::bigint as n from (
          select ${pointAwards.userId} as u from ${pointAwards} where ${pointAwards.createdAt} >= ${from.toISOString()}
          union select ${favorites.userId} from ${favorites} where ${favorites.createdAt} >= ${from.toISOString()}
          union select ${flyerScans.userId} from ${flyerScans} where ${flyerScans.createdAt} >= ${from.toISOString()}
          union select ${sessions.userId} from ${sessions} where ${sessions.lastSeenAt} >= ${from.toISOString()} or ${sessions.createdAt} >= ${from.toISOString()}
        ) a`,
      );
      return Number(rows[0]?.n ?? 0);
    },

    /** Every daily figure of the analytics tab over [from, to), keyed by local day. */
    async analytics(from: Date, to: Date, tz: string) {
      const f = from.toISOString();
      const t = to.toISOString();
      const [signups, favs, flyer, qr, points, active, ingested, decisions] = await Promise.all([
        perDay(users, users.createdAt, from, to, tz),
        perDay(favorites, favorites.createdAt, from, to, tz),
        perDay(flyerScans, flyerScans.createdAt, from, to, tz),
        perDay(pointAwards, pointAwards.createdAt, from, to, tz, sql`${pointAwards.activityType} in (${sql.join(QR_SCAN_ACTIVITIES.map((a) => sql`${a}`), sql`, `)})`),
        perDay(pointAwards, pointAwards.createdAt, from, to, tz, undefined, sql`coalesce(sum(${pointAwards.points}), 0)`),
        // Active: any user who earned points, saved a favourite, scanned a flyer, or signed in / used a session that day.
        queryRows<{ d: string; n: string | number }>(
          db,
          sql`select d, count(distinct u)::bigint as n from (
            select ${day(pointAwards.createdAt, tz)} as d, ${pointAwards.userId} as u from ${pointAwards} where ${pointAwards.createdAt} >= ${f} and ${pointAwards.createdAt} < ${t}
            union select ${day(favorites.createdAt, tz)}, ${favorites.userId} from ${favorites} where ${favorites.createdAt} >= ${f} and ${favorites.createdAt} < ${t}
            union select ${day(flyerScans.createdAt, tz)}, ${flyerScans.userId} from ${flyerScans} where ${flyerScans.createdAt} >= ${f} and ${flyerScans.createdAt} < ${t}
            union select ${day(sessions.createdAt, tz)}, ${sessions.userId} from ${sessions} where ${sessions.createdAt} >= ${f} and ${sessions.createdAt} < ${t}
            union select ${day(sessions.lastSeenAt, tz)}, ${sessions.userId} from ${sessions} where ${sessions.lastSeenAt} >= ${f} and ${sessions.lastSeenAt} < ${t}
          ) a group by d`,
        ),
        queryRows<{ d: string; s: string; n: string | number }>(
          db,
          sql`select ${day(events.createdAt, tz)} as d, ${events.sourceType} as s, count(*)::bigint as n from ${events} where ${events.createdAt} >= ${f} and ${events.createdAt} < ${t} group by 1, 2`,
        ),
        // Review decisions are admin actions: the audit log has each one.
        queryRows<{ d: string; a: string; n: string | number }>(
          db,
          sql`select ${day(auditLog.at, tz)} as d, ${auditLog.action} as a, count(*)::bigint as n from ${auditLog}
              where ${auditLog.at} >= ${f} and ${auditLog.at} < ${t} and ${auditLog.result} = 'ok'
              and ${auditLog.action} in ('POST /api/admin/events/:id/approve', 'POST /api/admin/events/:id/reject') group by 1, 2`,
        ),
      ]);
      return {
        signups,
        favorites: favs,
        flyerScans: flyer,
        qrScans: qr,
        points,
        active: new Map(active.map((r) => [r.d, Number(r.n)])),
        ingested: ingested.map((r) => ({ day: r.d, sourceType: r.s, n: Number(r.n) })),
        approvals: new Map(decisions.filter((r) => r.a.endsWith('/approve')).map((r) => [r.d, Number(r.n)])),
        rejections: new Map(decisions.filter((r) => r.a.endsWith('/reject')).map((r) => [r.d, Number(r.n)])),
      };
    },

  };
}

export type AdminRepository = ReturnType<typeof createAdminRepository>;
