import { and, asc, desc, eq, gte, ilike, inArray, isNotNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { events } from '../events/events.table.ts';
import { huntNodes, hunts, questNodes } from '../quests/quests.table.ts';
import { users } from '../users/users.table.ts';
import { geosymbols, geosymbolVotes, type GeosymbolRow } from './memories.table.ts';

export type NewGeosymbolRow = typeof geosymbols.$inferInsert;

/** A geosymbol with its author's name and whether the viewer voted for it. */
export interface GeosymbolView extends GeosymbolRow {
  authorFirstName: string | null;
  authorLastName: string | null;
  voted: boolean;
}

/** Who may see what: private to its author, community to signed-in users, public to anyone. */
export function visibleTo(viewerId: string | null): SQL {
  if (!viewerId) return eq(geosymbols.privacyLevel, 'public');
  return or(inArray(geosymbols.privacyLevel, ['public', 'community']), eq(geosymbols.userId, viewerId))!;
}

/** Queries of the memory forge: geosymbols, votes, known venues, and the quest rows 'Add to Active Hunt' writes. */
export function createMemoriesRepository(db: Db) {
  const select = (viewerId: string | null) =>
    db
      .select({
        g: geosymbols,
        authorFirstName: users.firstName,
        authorLastName: users.lastName,
        voted: viewerId
          ? sql<boolean>`exists (select 1 from ${geosymbolVotes} v where v.geosymbol_id = ${geosymbols.id} and v.user_id = ${viewerId})`
          : sql<boolean>`false`,
      })
      .from(geosymbols)
      .innerJoin(users, eq(users.id, geosymbols.userId));
  const flat = (r: { g: GeosymbolRow; authorFirstName: string | null; authorLastName: string | null; voted: boolean }): GeosymbolView => ({
    ...r.g,
    authorFirstName: r.authorFirstName,
    authorLastName: r.authorLastName,
    voted: Boolean(r.voted),
  });

  return {
    async insert(row: NewGeosymbolRow): Promise<GeosymbolRow> {
      const [inserted] = await db.insert(geosymbols).values(row).returning();
      if (!inserted) throw new Error('no geosymbol row');
      return inserted;
    },

    /** One geosymbol if the viewer may see it. */
    async findVisible(id: string, viewerId: string | null): Promise<GeosymbolView | undefined> {
      const [row] = await select(viewerId).where(and(eq(geosymbols.id, id), visibleTo(viewerId)));
      return row ? flat(row) : undefined;
    },

    async findById(id: string): Promise<GeosymbolRow | undefined> {
      const [row] = await db.select().from(geosymbols).where(eq(geosymbols.id, id));
      return row;
    },

    /** The newest the viewer may see, narrowed to the given privacy levels. */
    async listVisible(viewerId: string | null, levels: readonly string[], limit: number, onlyAuthor?: string): Promise<GeosymbolView[]> {
      const rows = await select(viewerId)
        .where(and(visibleTo(viewerId), inArray(geosymbols.privacyLevel, [...levels] as ('public' | 'community' | 'private')[]), onlyAuthor ? eq(geosymbols.userId, onlyAuthor) : undefined))
        .orderBy(desc(geosymbols.createdAt), desc(geosymbols.id))
        .limit(limit);
      return rows.map(flat);
    },

    /** Adds or removes the viewer's vote and keeps the count in step; answers the new state. */
    async toggleVote(id: string, userId: string, at: Date): Promise<{ voted: boolean; communityVotes: number }> {
      const removed = await db.delete(geosymbolVotes).where(and(eq(geosymbolVotes.geosymbolId, id), eq(geosymbolVotes.userId, userId))).returning();
      let voted = false;
      if (removed.length === 0) {
        const added = await db.insert(geosymbolVotes).values({ geosymbolId: id, userId, createdAt: at }).onConflictDoNothing().returning();
        voted = added.length > 0;
      }
      const [row] = await db
        .update(geosymbols)
        .set({ communityVotes: sql`(select count(*)::int from ${geosymbolVotes} v where v.geosymbol_id = ${id})` })
        .where(eq(geosymbols.id, id))
        .returning({ communityVotes: geosymbols.communityVotes });
      return { voted, communityVotes: row?.communityVotes ?? 0 };
    },

    /**
     * The venues of events with a real position (not a neighbourhood's centre) whose names are most
     * like a part of `text` (pg_trgm word similarity), best first: the candidates geocoding weighs.
     * Every venue a city has listed is ranked, none left out for where its name sorts.
     */
    /** The Quest Map's active places, by name and by the address they show. */
    landmarks: () => db.select({ name: questNodes.name, address: questNodes.address, lat: questNodes.latitude, lng: questNodes.longitude }).from(questNodes).where(eq(questNodes.active, true)).orderBy(asc(questNodes.name)),
    async venuesLike(text: string, limit: number): Promise<{ name: string; lat: number; lng: number; neighbourhood: string | null }[]> {
      const query = text.toLowerCase();
      const venues = db
        .selectDistinctOn([sql`lower(${events.venueName})`], { name: events.venueName, lat: sql<number>`${events.lat}`.as('lat'), lng: sql<number>`${events.lng}`.as('lng'), neighbourhood: events.neighbourhood })
        .from(events)
        .where(and(isNotNull(events.lat), isNotNull(events.lng), eq(events.geoApprox, false), sql`length(trim(${events.venueName})) > 2`, inArray(events.status, ['approved'])))
        .orderBy(sql`lower(${events.venueName})`, desc(events.startDate))
        .as('v');
      return db
        .select({ name: venues.name, lat: venues.lat, lng: venues.lng, neighbourhood: venues.neighbourhood })
        .from(venues)
        .orderBy(sql`word_similarity(lower(${venues.name}), ${query}) desc`, venues.name)
        .limit(limit);
    },

    /** A few approved events at the venue or in the neighbourhood: the latest past ones and the next upcoming ones. */
    async eventsAt(place: { venue?: string; neighbourhood?: string | null }, now: Date): Promise<{ title: string; startDate: Date; venueName: string }[]> {
      const where = place.venue ? ilike(events.venueName, place.venue) : place.neighbourhood ? ilike(events.neighbourhood, place.neighbourhood) : undefined;
      if (!where) return [];
      const cols = { title: events.title, startDate: events.startDate, venueName: events.venueName };
      const past = await db.select(cols).from(events).where(and(where, eq(events.status, 'approved'), lt(events.startDate, now))).orderBy(desc(events.startDate)).limit(2);
      const next = await db.select(cols).from(events).where(and(where, eq(events.status, 'approved'), gte(events.startDate, now))).orderBy(asc(events.startDate)).limit(2);
      return [...past, ...next];
    },

    /** The first active hunt (oldest), locked for the transaction that appends to it. */
    async firstActiveHunt(): Promise<{ id: string; name: string } | undefined> {
      const [row] = await db.select({ id: hunts.id, name: hunts.name }).from(hunts).where(eq(hunts.active, true)).orderBy(asc(hunts.createdAt), asc(hunts.id)).limit(1).for('update');
      return row;
    },

    /** Locks the geosymbol row so two 'Add to Active Hunt' clicks cannot both add it. */
    async lockById(id: string): Promise<GeosymbolRow | undefined> {
      const [row] = await db.select().from(geosymbols).where(eq(geosymbols.id, id)).for('update');
      return row;
    },

    async insertQuestNode(row: typeof questNodes.$inferInsert): Promise<{ id: string; name: string; points: number }> {
      const [inserted] = await db.insert(questNodes).values(row).returning({ id: questNodes.id, name: questNodes.name, points: questNodes.points });
      if (!inserted) throw new Error('no quest node row');
      return inserted;
    },

    /** Appends a node at the end of the hunt; answers its position. */
    async appendHuntNode(huntId: string, nodeId: string): Promise<number> {
      const [max] = await db.select({ n: sql<number>`coalesce(max(${huntNodes.position}), -1)::int` }).from(huntNodes).where(eq(huntNodes.huntId, huntId));
      // Positions count from 0, as the quests feature writes them.
      const position = Number(max?.n ?? -1) + 1;
      await db.insert(huntNodes).values({ huntId, nodeId, position });
      return position;
    },

    async setNodeId(id: string, nodeId: string): Promise<void> {
      await db.update(geosymbols).set({ nodeId }).where(eq(geosymbols.id, id));
    },
  };
}

export type MemoriesRepository = ReturnType<typeof createMemoriesRepository>;
