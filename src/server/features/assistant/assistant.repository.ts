import { and, asc, desc, eq, gt, gte, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import { auditLog, errorLog } from '../admin/admin.table.ts';
import { awaitingReview, listedEvent } from '../events/events.repository.ts';
import { events, images } from '../events/events.table.ts';
import { sourceRuns, sources } from '../ingestion/sources.table.ts';
import { stories } from '../stories/stories.table.ts';
import { users } from '../users/users.table.ts';
import { assistantConfirmations } from './assistant.table.ts';

/** Typed queries the assistant's commands read and write through; nothing here takes SQL text. */
export function createAssistantRepository(db: Db) {
  return {
    async ping(): Promise<void> {
      await db.execute(sql`select 1`);
    },
    async databaseSize(): Promise<number | null> {
      const [row] = await queryRows<{ bytes: string | number | null }>(db, sql`select pg_database_size(current_database()) as bytes`);
      return row?.bytes == null ? null : Number(row.bytes);
    },
    async tableCounts() {
      const count = async (table: typeof users | typeof sources | typeof stories | typeof auditLog | typeof errorLog | typeof images) => {
        const [r] = await db.select({ n: sql<number>`count(*)::int` }).from(table);
        return r?.n ?? 0;
      };
      const byStatus = await db.select({ status: events.status, n: sql<number>`count(*)::int` }).from(events).groupBy(events.status);
      return {
        events: Object.fromEntries(byStatus.map((r) => [r.status, r.n])) as Record<string, number>,
        users: await count(users),
        sources: await count(sources),
        stories: await count(stories),
        images: await count(images),
        auditLog: await count(auditLog),
        errorLog: await count(errorLog),
      };
    },
    async appliedMigrations(): Promise<number | null> {
      try {
        const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
        return row?.n ?? 0;
      } catch {
        return null;
      }
    },
    /** The review queue's size (see awaitingReview). */
    async countPending(now: Date): Promise<number> {
      const [r] = await db.select({ n: sql<number>`count(*)::int` }).from(events).where(awaitingReview(now));
      return r?.n ?? 0;
    },
    /** The review queue's events (id and title) for matching an admin's words against, newest first. */
    listPendingRefs: (limit: number, now: Date) =>
      db.select({ id: events.id, title: events.title }).from(events).where(awaitingReview(now)).orderBy(desc(events.createdAt)).limit(limit),
    /** Stories hidden after reports and not reviewed yet. */
    reportedStories: (limit: number) =>
      db
        .select({ id: stories.id, title: stories.title, content: stories.content, author: stories.author })
        .from(stories)
        .where(and(sql`${stories.hiddenAt} is not null`, isNull(stories.reviewedAt)))
        .orderBy(desc(stories.hiddenAt))
        .limit(limit),
    findEvent: async (id: string) => {
      const [row] = await db.select({ id: events.id, title: events.title, status: events.status, startDate: events.startDate }).from(events).where(eq(events.id, id));
      return row;
    },
    /** Listed events (approved, not gone: as the lists and stats count them) starting in [from, to), by category. */
    categoryCounts: (from: Date, to: Date) =>
      db
        .select({ category: events.category, n: sql<number>`count(*)::int` })
        .from(events)
        .where(and(listedEvent(), gte(events.startDate, from), lt(events.startDate, to)))
        .groupBy(events.category)
        .orderBy(desc(sql`count(*)`), asc(events.category)),
    sourceRefs: () => db.select({ id: sources.id, name: sources.name }).from(sources).orderBy(sources.name),
    /** The source types configured sources give their events (Discover's source filter values). */
    sourceTypes: async () => (await db.selectDistinct({ t: sources.sourceType }).from(sources).orderBy(sources.sourceType)).map((r) => r.t),
    listSources: () => db.select().from(sources).orderBy(sources.name),
    runCounts: (from: Date) =>
      db
        .select({ sourceId: sourceRuns.sourceId, status: sourceRuns.status, n: sql<number>`count(*)::int`, lastError: sql<string | null>`max(${sourceRuns.errorMessage})` })
        .from(sourceRuns)
        .where(gte(sourceRuns.startedAt, from))
        .groupBy(sourceRuns.sourceId, sourceRuns.status),
    usersByEmail: (email: string) =>
      db.select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, points: users.points }).from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`).limit(5),
    usersByName: (name: string) => {
      const like = `%${name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      return db
        .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, points: users.points })
        .from(users)
        .where(or(sql`(coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, '')) ilike ${like}`, sql`${users.firstName} ilike ${like}`))
        .orderBy(desc(users.points))
        .limit(5);
    },
    /** Moves the events version: every cached aggregate (list totals, facets, stats) is read afresh. */
    async bumpEventsVersion(): Promise<void> {
      await db.execute(sql`select nextval('events_version_seq')`);
    },
    /** Forgets the feeds' conditional-request validators so their next run fetches in full. */
    async clearFeedValidators(): Promise<number> {
      const rows = await db
        .update(sources)
        .set({ etag: null, lastModified: null })
        .where(or(sql`${sources.etag} is not null`, sql`${sources.lastModified} is not null`))
        .returning({ id: sources.id });
      return rows.length;
    },
    async countFeedValidators(): Promise<number> {
      const [r] = await db.select({ n: sql<number>`count(*)::int` }).from(sources).where(or(sql`${sources.etag} is not null`, sql`${sources.lastModified} is not null`));
      return r?.n ?? 0;
    },
    /** Images claimed before `before` and never finished (their worker stopped): claimable again at once. */
    async requeueStuckImages(before: Date): Promise<number> {
      const rows = await db
        .update(images)
        .set({ fetchedAt: null })
        .where(and(eq(images.status, 'pending'), gt(images.attempts, 0), lt(images.fetchedAt, before)))
        .returning({ id: images.id });
      return rows.length;
    },
    async countStuckImages(before: Date): Promise<number> {
      const [r] = await db.select({ n: sql<number>`count(*)::int` }).from(images).where(and(eq(images.status, 'pending'), gt(images.attempts, 0), lt(images.fetchedAt, before)));
      return r?.n ?? 0;
    },
    /** Rebuilds the events' full-text index (the tsvector column itself is generated by the database). */
    async reindexSearch(): Promise<void> {
      await db.execute(sql`reindex index events_search_idx`);
    },
    async countSearchable(): Promise<number> {
      const [r] = await db.select({ n: sql<number>`count(*)::int` }).from(events).where(sql`${events.search} is not null`);
      return r?.n ?? 0;
    },

    async insertConfirmation(row: typeof assistantConfirmations.$inferInsert): Promise<void> {
      await db.insert(assistantConfirmations).values(row);
    },
    /** Marks the token used if it is this admin's, unused and unexpired; returns its command, or nothing. */
    async useConfirmation(tokenHash: string, adminId: string, now: Date) {
      const [row] = await db
        .update(assistantConfirmations)
        .set({ usedAt: now })
        .where(
          and(
            eq(assistantConfirmations.tokenHash, tokenHash),
            eq(assistantConfirmations.adminId, adminId),
            isNull(assistantConfirmations.usedAt),
            gt(assistantConfirmations.expiresAt, now),
          ),
        )
        .returning();
      return row;
    },
    async findConfirmation(tokenHash: string) {
      const [row] = await db.select().from(assistantConfirmations).where(eq(assistantConfirmations.tokenHash, tokenHash));
      return row;
    },
  };
}

export type AssistantRepository = ReturnType<typeof createAssistantRepository>;
