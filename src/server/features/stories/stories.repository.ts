import { and, count, desc, eq, gt, isNotNull, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { StoryCategory } from '../../../contract/stories.ts';
import type { Db } from '../../db/client.ts';
import { events } from '../events/events.table.ts';
import { stories, storyLikes, storyReports, storyViews, type StoryRow } from './stories.table.ts';

/** A story row with the caller's own state and its report count. */
export interface StoryListRow extends StoryRow {
  likedByMe: boolean;
  reportedByMe: boolean;
  reports: number;
}

export type NewStoryRow = typeof stories.$inferInsert;

/** Past approved events with what the story generator needs to know of them. */
export interface PastEventRow {
  title: string;
  startDate: Date;
  category: string;
  venueName: string;
  neighbourhood: string | null;
  lat: number | null;
  lng: number | null;
}

/** Most past events a generator reads: the newest, so a long-lived city stays cheap. */
const PAST_EVENTS_LIMIT = 5000;
/** Most stories one list answers (newest first). */
export const STORIES_LIST_LIMIT = 200;

/** Queries on stories, their likes, views and reports; no rules here. */
export function createStoriesRepository(db: Db) {
  const visible = (includeHidden: boolean): SQL | undefined => (includeHidden ? undefined : isNull(stories.hiddenAt));

  async function listWhere(where: SQL | undefined, userId: string, limit = STORIES_LIST_LIMIT): Promise<StoryListRow[]> {
    const rows = await db
      .select({
        story: stories,
        likedByMe: sql<boolean>`exists (select 1 from ${storyLikes} where ${storyLikes.storyId} = ${stories.id} and ${storyLikes.userId} = ${userId})`,
        reportedByMe: sql<boolean>`exists (select 1 from ${storyReports} where ${storyReports.storyId} = ${stories.id} and ${storyReports.userId} = ${userId})`,
        reports: sql<number>`(select count(*) from ${storyReports} where ${storyReports.storyId} = ${stories.id})`.mapWith(Number),
      })
      .from(stories)
      .where(where)
      .orderBy(desc(stories.createdAt), desc(stories.id))
      .limit(limit);
    return rows.map((r) => ({ ...r.story, likedByMe: Boolean(r.likedByMe), reportedByMe: Boolean(r.reportedByMe), reports: r.reports }));
  }

  return {
    /** Newest first; hidden ones only when asked (admins). */
    async list(opts: { category?: StoryCategory; featuredOnly?: boolean; includeHidden: boolean; userId: string }): Promise<StoryListRow[]> {
      return listWhere(
        and(visible(opts.includeHidden), opts.category ? eq(stories.category, opts.category) : undefined, opts.featuredOnly ? eq(stories.featured, true) : undefined),
        opts.userId,
      );
    },

    async findWithState(id: string, userId: string): Promise<StoryListRow | undefined> {
      return (await listWhere(eq(stories.id, id), userId, 1))[0];
    },

    async findById(id: string): Promise<StoryRow | undefined> {
      const [row] = await db.select().from(stories).where(eq(stories.id, id));
      return row;
    },

    /** Counts over the stories a caller can see, whatever the category. */
    async counts(includeHidden: boolean): Promise<{ total: number; ai: number }> {
      const [row] = await db
        .select({ total: count(), ai: sql<number>`count(*) filter (where ${stories.aiGenerated})`.mapWith(Number) })
        .from(stories)
        .where(visible(includeHidden));
      return { total: Number(row?.total ?? 0), ai: Number(row?.ai ?? 0) };
    },

    async isEmpty(): Promise<boolean> {
      const [row] = await db.select({ id: stories.id }).from(stories).limit(1);
      return !row;
    },

    async insert(values: NewStoryRow): Promise<StoryRow> {
      const [row] = await db.insert(stories).values(values).returning();
      if (!row) throw new Error('story not inserted');
      return row;
    },

    async insertMany(values: NewStoryRow[]): Promise<number> {
      if (values.length === 0) return 0;
      return (await db.insert(stories).values(values).returning({ id: stories.id })).length;
    },

    /** Adds or removes one member's like; answers whether anything changed. */
    async setLike(storyId: string, userId: string, liked: boolean, at: Date): Promise<boolean> {
      if (liked) return (await db.insert(storyLikes).values({ storyId, userId, createdAt: at }).onConflictDoNothing().returning({ s: storyLikes.storyId })).length > 0;
      return (await db.delete(storyLikes).where(and(eq(storyLikes.storyId, storyId), eq(storyLikes.userId, userId))).returning({ s: storyLikes.storyId })).length > 0;
    },

    async isLiked(storyId: string, userId: string): Promise<boolean> {
      const [row] = await db.select({ s: storyLikes.storyId }).from(storyLikes).where(and(eq(storyLikes.storyId, storyId), eq(storyLikes.userId, userId)));
      return Boolean(row);
    },

    /** Sets the cached like count from the likes themselves and returns it. */
    async recountLikes(storyId: string): Promise<number> {
      const [row] = await db
        .update(stories)
        .set({ likes: sql`(select count(*) from ${storyLikes} where ${storyLikes.storyId} = ${storyId})::int` })
        .where(eq(stories.id, storyId))
        .returning({ likes: stories.likes });
      return row?.likes ?? 0;
    },

    /** Records a view of a local day; answers whether it was the first of that member that day. */
    async addView(storyId: string, userId: string, day: string): Promise<boolean> {
      return (await db.insert(storyViews).values({ storyId, userId, day }).onConflictDoNothing().returning({ s: storyViews.storyId })).length > 0;
    },

    async incrementViews(storyId: string): Promise<number> {
      const [row] = await db
        .update(stories)
        .set({ views: sql`${stories.views} + 1` })
        .where(eq(stories.id, storyId))
        .returning({ views: stories.views });
      return row?.views ?? 0;
    },

    /** Adds a member's report; answers false when that member had already reported it. */
    async addReport(storyId: string, userId: string, reason: string, at: Date): Promise<boolean> {
      return (await db.insert(storyReports).values({ storyId, userId, reason, createdAt: at }).onConflictDoNothing().returning({ s: storyReports.storyId })).length > 0;
    },

    /** Reports made after an instant (all when null): a review clears the slate. */
    async countReportsAfter(storyId: string, after: Date | null): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(storyReports)
        .where(and(eq(storyReports.storyId, storyId), after ? gt(storyReports.createdAt, after) : undefined));
      return Number(row?.n ?? 0);
    },

    async update(id: string, values: Partial<Pick<StoryRow, 'hiddenAt' | 'reviewedAt' | 'featured'>>): Promise<StoryRow | undefined> {
      const [row] = await db.update(stories).set(values).where(eq(stories.id, id)).returning();
      return row;
    },

    async delete(id: string): Promise<boolean> {
      return (await db.delete(stories).where(eq(stories.id, id)).returning({ id: stories.id })).length > 0;
    },

    /** Titles of generated stories, to spread new ones over places not yet written about. */
    async generatedTitles(): Promise<string[]> {
      return (await db.select({ title: stories.title }).from(stories).where(eq(stories.aiGenerated, true))).map((r) => r.title);
    },

    /** Approved events that have started, newest first (a story is about what already happened). */
    async pastEvents(before: Date): Promise<PastEventRow[]> {
      return db
        .select({
          title: events.title,
          startDate: events.startDate,
          category: events.category,
          venueName: events.venueName,
          neighbourhood: events.neighbourhood,
          lat: events.lat,
          lng: events.lng,
        })
        .from(events)
        .where(and(eq(events.status, 'approved'), lt(events.startDate, before), or(isNotNull(events.neighbourhood), ne(events.venueName, ''))))
        .orderBy(desc(events.startDate))
        .limit(PAST_EVENTS_LIMIT);
    },
  };
}

export type StoriesRepository = ReturnType<typeof createStoriesRepository>;
