import { and, asc, desc, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../users/users.table.ts';
import { huntNodes, hunts, nodeCompletions, questNodes, type HuntRow, type NodeCompletionRow, type QuestNodeRow } from './quests.table.ts';

/** Photos the admin's review list holds at once, oldest first; the rest follow as these are decided. */
export const EVIDENCE_SHOWN = 100;

export type NodeInsert = typeof questNodes.$inferInsert;
export type HuntInsert = typeof hunts.$inferInsert;
export type CompletionInsert = typeof nodeCompletions.$inferInsert;

/** Queries for quest nodes, hunts and completions. */
export function createQuestsRepository(db: Db) {
  return {
    async listNodes(opts: { activeOnly: boolean }): Promise<QuestNodeRow[]> {
      const q = db.select().from(questNodes);
      return (opts.activeOnly ? q.where(eq(questNodes.active, true)) : q).orderBy(asc(questNodes.createdAt), asc(questNodes.name));
    },
    async findNode(id: string): Promise<QuestNodeRow | undefined> {
      const [row] = await db.select().from(questNodes).where(eq(questNodes.id, id));
      return row;
    },
    async insertNode(v: NodeInsert): Promise<QuestNodeRow> {
      const [row] = await db.insert(questNodes).values(v).returning();
      return row!;
    },
    async updateNode(id: string, v: Partial<NodeInsert>): Promise<QuestNodeRow | undefined> {
      const [row] = await db.update(questNodes).set(v).where(eq(questNodes.id, id)).returning();
      return row;
    },
    async countNodes(ids: string[]): Promise<number> {
      if (ids.length === 0) return 0;
      return (await db.select({ id: questNodes.id }).from(questNodes).where(inArray(questNodes.id, ids))).length;
    },

    async listHunts(opts: { activeOnly: boolean }): Promise<HuntRow[]> {
      const q = db.select().from(hunts);
      return (opts.activeOnly ? q.where(eq(hunts.active, true)) : q).orderBy(asc(hunts.createdAt), asc(hunts.name));
    },
    async findHunt(id: string): Promise<HuntRow | undefined> {
      const [row] = await db.select().from(hunts).where(eq(hunts.id, id));
      return row;
    },
    async insertHunt(v: HuntInsert): Promise<HuntRow> {
      const [row] = await db.insert(hunts).values(v).returning();
      return row!;
    },
    async updateHunt(id: string, v: Partial<HuntInsert>): Promise<HuntRow | undefined> {
      const [row] = await db.update(hunts).set(v).where(eq(hunts.id, id)).returning();
      return row;
    },
    async setHuntNodes(huntId: string, nodeIds: string[]): Promise<void> {
      await db.delete(huntNodes).where(eq(huntNodes.huntId, huntId));
      if (nodeIds.length) await db.insert(huntNodes).values(nodeIds.map((nodeId, position) => ({ huntId, nodeId, position })));
    },
    /** Node ids of the given hunts in their order, by hunt. */
    async huntNodeIds(huntIds: string[]): Promise<Map<string, string[]>> {
      const out = new Map<string, string[]>(huntIds.map((id) => [id, []]));
      if (huntIds.length === 0) return out;
      const rows = await db.select().from(huntNodes).where(inArray(huntNodes.huntId, huntIds)).orderBy(asc(huntNodes.position));
      for (const r of rows) out.get(r.huntId)?.push(r.nodeId);
      return out;
    },
    /** Active hunts containing a node. */
    async activeHuntsWithNode(nodeId: string): Promise<HuntRow[]> {
      return db
        .select({ h: hunts })
        .from(huntNodes)
        .innerJoin(hunts, eq(hunts.id, huntNodes.huntId))
        .where(and(eq(huntNodes.nodeId, nodeId), eq(hunts.active, true)))
        .then((rows) => rows.map((r) => r.h));
    },

    async findCompletion(userId: string, nodeId: string): Promise<NodeCompletionRow | undefined> {
      const [row] = await db.select().from(nodeCompletions).where(and(eq(nodeCompletions.userId, userId), eq(nodeCompletions.nodeId, nodeId)));
      return row;
    },
    async findCompletionById(id: string): Promise<NodeCompletionRow | undefined> {
      const [row] = await db.select().from(nodeCompletions).where(eq(nodeCompletions.id, id));
      return row;
    },
    async userCompletions(userId: string): Promise<Pick<NodeCompletionRow, 'nodeId' | 'status'>[]> {
      return db.select({ nodeId: nodeCompletions.nodeId, status: nodeCompletions.status }).from(nodeCompletions).where(eq(nodeCompletions.userId, userId));
    },
    /** The player's latest completion elsewhere than `exceptNodeId`, with the node's place. */
    async lastCompletion(userId: string, exceptNodeId: string) {
      const [row] = await db
        .select({ completedAt: nodeCompletions.completedAt, lat: nodeCompletions.latitude, lng: nodeCompletions.longitude, nodeLat: questNodes.latitude, nodeLng: questNodes.longitude })
        .from(nodeCompletions)
        .innerJoin(questNodes, eq(questNodes.id, nodeCompletions.nodeId))
        .where(and(eq(nodeCompletions.userId, userId), eq(nodeCompletions.status, 'completed'), isNotNull(nodeCompletions.completedAt), ne(nodeCompletions.nodeId, exceptNodeId)))
        .orderBy(desc(nodeCompletions.completedAt))
        .limit(1);
      return row;
    },
    async insertCompletion(v: CompletionInsert): Promise<NodeCompletionRow> {
      const [row] = await db.insert(nodeCompletions).values(v).returning();
      return row!;
    },
    async updateCompletion(id: string, v: Partial<CompletionInsert>): Promise<NodeCompletionRow | undefined> {
      const [row] = await db.update(nodeCompletions).set(v).where(eq(nodeCompletions.id, id)).returning();
      return row;
    },
    async pendingEvidence() {
      return db
        .select({ c: nodeCompletions, nodeName: questNodes.name, firstName: users.firstName, lastName: users.lastName, email: users.email })
        .from(nodeCompletions)
        .innerJoin(questNodes, eq(questNodes.id, nodeCompletions.nodeId))
        .innerJoin(users, eq(users.id, nodeCompletions.userId))
        .where(eq(nodeCompletions.status, 'pending_review'))
        .orderBy(asc(nodeCompletions.createdAt))
        .limit(EVIDENCE_SHOWN);
    },
    /** Every photo waiting for review (the list shows the oldest EVIDENCE_SHOWN). */
    async countPendingEvidence(): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(nodeCompletions).where(eq(nodeCompletions.status, 'pending_review'));
      return row?.n ?? 0;
    },
    async findPoints(userId: string): Promise<number> {
      const [row] = await db.select({ points: users.points }).from(users).where(eq(users.id, userId));
      return row?.points ?? 0;
    },
  };
}

export type QuestsRepository = ReturnType<typeof createQuestsRepository>;
