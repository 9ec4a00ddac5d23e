import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users, type UserRow } from '../users/users.table.ts';
import { sessions } from './sessions.table.ts';

export type NewUser = typeof users.$inferInsert;

/** Queries on users and sessions; no rules here. */
export function createAuthRepository(db: Db) {
  return {
    async findUserByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
      return row;
    },
    async findUserById(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id));
      return row;
    },
    async findUserByOidcSubject(subject: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.oidcSubject, subject));
      return row;
    },
    /**
     * Inserts a user; the very first account becomes admin. The advisory lock makes
     * "first" exact when two sign-ups race.
     */
    async findUserByCalendarSecret(secret: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.calendarSecret, secret));
      return row;
    },
    async insertUser(user: Omit<NewUser, 'role'>, forceAdmin: boolean): Promise<UserRow | undefined> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(4201)`);
        const [{ n } = { n: 0 }] = await tx.select({ n: sql<number>`count(*)::int` }).from(users);
        const role = forceAdmin || n === 0 ? 'admin' : 'user';
        const [row] = await tx
          .insert(users)
          .values({ ...user, role })
          .onConflictDoNothing()
          .returning();
        return row;
      });
    },
    async updateUser(id: string, patch: Partial<NewUser>): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(users.id, id))
        .returning();
      return row;
    },
    async countUsers(): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
      return row?.n ?? 0;
    },
    async insertSession(s: typeof sessions.$inferInsert) {
      await db.insert(sessions).values(s);
    },
    async findLiveSession(idHash: string, now: Date) {
      const [row] = await db
        .select({ session: sessions, user: users })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, now)));
      return row;
    },
    async touchSession(idHash: string, lastSeenAt: Date) {
      await db.update(sessions).set({ lastSeenAt }).where(eq(sessions.idHash, idHash));
    },
    async deleteSession(idHash: string) {
      await db.delete(sessions).where(eq(sessions.idHash, idHash));
    },
    async deleteExpiredSessions(now: Date) {
      await db.delete(sessions).where(lt(sessions.expiresAt, now));
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
