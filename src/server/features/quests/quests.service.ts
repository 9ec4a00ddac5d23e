import { levelFor } from '../../../contract/gaming.ts';
import type { NotificationResponse } from '../../../contract/notifications.ts';
import {
  MAX_ACCURACY_CREDIT_M,
  MAX_TRAVEL_KMH,
  type CreateHuntBody,
  type CreateNodeBody,
  type EvidenceBody,
  type EvidenceResponse,
  type Hunt,
  type HuntProgress,
  type MapResponse,
  type PendingEvidence,
  type QuestNode,
  type UpdateHuntBody,
  type UpdateNodeBody,
} from '../../../contract/quests.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { AppError, conflict, invalid, notFound } from '../../errors.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { haversineM, speedKmh, withinGeofence } from '../../lib/geo.ts';
import { payAward, type PayOutcome } from '../gaming/awards.ts';
import { lockUserAwards } from '../gaming/ledger.repository.ts';
import { RULES } from '../gaming/rules.ts';
import { createNotification, publishNotifications } from '../notifications/notifications.service.ts';
import { readFlyerImage } from '../scan/flyer-image.ts';
import { insertDemoQuests } from './quests.demo.ts';
import { toHunt, toPendingEvidence, toQuestNode } from './quests.mapper.ts';
import { createQuestsRepository, type QuestsRepository } from './quests.repository.ts';
import type { QuestNodeRow } from './quests.table.ts';

/** The ledger key of a node's points: the same for position, photo and QR, so a node pays once. */
export const nodeAwardKey = (nodeId: string, userId: string) => `quest_node:${nodeId}:${userId}`;
const huntAwardKey = (huntId: string, userId: string) => `hunt_complete:${huntId}:${userId}`;

/** What completing a node paid, inside the caller's transaction. */
export interface CompletionPaid {
  node: PayOutcome;
  hunts: PayOutcome[];
  huntBonus: number;
  notifications: NotificationResponse[];
}

/** 409 when an ordered hunt holding the node has earlier nodes the player has not completed. */
async function checkOrder(r: QuestsRepository, userId: string, nodeId: string): Promise<void> {
  const holding = (await r.activeHuntsWithNode(nodeId)).filter((h) => h.ordered);
  if (holding.length === 0) return;
  const done = new Set((await r.userCompletions(userId)).filter((c) => c.status === 'completed').map((c) => c.nodeId));
  const order = await r.huntNodeIds(holding.map((h) => h.id));
  for (const h of holding) {
    const ids = order.get(h.id) ?? [];
    const earlier = ids.slice(0, ids.indexOf(nodeId));
    if (earlier.some((id) => !done.has(id))) throw conflict(`${h.name} is played in order: complete its earlier nodes first`);
  }
}

/** 409 when reaching here from the player's last completion needs more than MAX_TRAVEL_KMH. */
async function checkTravel(r: QuestsRepository, userId: string, nodeId: string, lat: number, lng: number, now: Date): Promise<void> {
  const last = await r.lastCompletion(userId, nodeId);
  if (!last?.completedAt) return;
  const distance = haversineM(last.lat ?? last.nodeLat, last.lng ?? last.nodeLng, lat, lng);
  const elapsed = now.getTime() - last.completedAt.getTime();
  if (speedKmh(distance, elapsed) > MAX_TRAVEL_KMH) {
    const minutes = Math.max(0, Math.round(elapsed / 60_000));
    throw conflict(`Impossible travel: ${(distance / 1000).toFixed(1)} km from your last completed node in ${minutes} min is faster than ${MAX_TRAVEL_KMH} km/h. Try again later.`);
  }
}

/**
 * For a scanned node QR code, inside the scan's transaction and before it pays the node's
 * points (same ledger key): 409 when already completed, out of order or impossible travel;
 * otherwise records the completion (method 'qr') and pays any hunt it finishes.
 */
export async function completeNodeByQr(tx: Db, userId: string, nodeId: string, now: Date, timeZone: string): Promise<{ huntBonus: number; notifications: NotificationResponse[]; outcomes: PayOutcome[] }> {
  await lockUserAwards(tx, userId);
  const r = createQuestsRepository(tx);
  const node = await r.findNode(nodeId);
  if (!node || !node.active) throw notFound('Unknown quest node');
  const existing = await r.findCompletion(userId, node.id);
  if (existing?.status === 'completed') throw conflict('You already completed this quest node');
  await checkOrder(r, userId, node.id);
  await checkTravel(r, userId, node.id, node.latitude, node.longitude, now);
  const values = { status: 'completed' as const, method: 'qr' as const, latitude: node.latitude, longitude: node.longitude, accuracyM: null, distanceM: 0, pointsEarned: node.points, createdAt: now, completedAt: now, reviewedBy: null, reviewedAt: null };
  if (existing) await r.updateCompletion(existing.id, values);
  else await r.insertCompletion({ nodeId: node.id, userId, ...values });
  // The node's own points are paid by the scan itself (nodeAwardKey); here only the hunts.
  const done = new Set((await r.userCompletions(userId)).filter((c) => c.status === 'completed').map((c) => c.nodeId));
  const holding = await r.activeHuntsWithNode(node.id);
  const order = await r.huntNodeIds(holding.map((h) => h.id));
  const outcomes: PayOutcome[] = [];
  const notifications: NotificationResponse[] = [];
  let huntBonus = 0;
  for (const h of holding) {
    const ids = order.get(h.id) ?? [];
    if (h.rewardPoints <= 0 || !ids.every((id) => done.has(id))) continue;
    const o = await payAward(
      tx,
      RULES.hunt_complete,
      { userId, activityType: 'hunt_complete', reason: 'hunt_complete', targetType: 'hunt', targetId: h.id, points: h.rewardPoints, description: `Finished ${h.name}`, idempotencyKey: huntAwardKey(h.id, userId), at: now },
      timeZone,
    );
    outcomes.push(o);
    if (o.status === 'paid') {
      huntBonus += h.rewardPoints;
      notifications.push(await createNotification(tx, userId, { type: 'achievement', title: 'Hunt Complete', message: `You finished ${h.name}. +${h.rewardPoints} points` }, now));
    }
  }
  return { huntBonus, notifications, outcomes };
}

/** Quest map, hunts, evidence and its review (spec sections 2, 3, 7; decisions section 2). */
export function createQuestsService(deps: { db: Db; clock: Clock; bus: EventBus; timeZone: string }) {
  const { db, clock, bus, timeZone } = deps;
  const repo = createQuestsRepository(db);

  async function huntsOut(r: QuestsRepository, activeOnly: boolean): Promise<Hunt[]> {
    const rows = await r.listHunts({ activeOnly });
    const ids = await r.huntNodeIds(rows.map((h) => h.id));
    return rows.map((h) => toHunt(h, ids.get(h.id) ?? []));
  }

  async function progressOf(r: QuestsRepository, userId: string): Promise<HuntProgress> {
    const [nodes, rows, totalPoints, hunts] = await Promise.all([r.listNodes({ activeOnly: true }), r.userCompletions(userId), r.findPoints(userId), huntsOut(r, true)]);
    const done = new Set(rows.filter((c) => c.status === 'completed').map((c) => c.nodeId));
    const pending = rows.filter((c) => c.status === 'pending_review').map((c) => c.nodeId);
    return {
      totalPoints,
      playerLevel: levelFor(totalPoints),
      completedNodes: [...done],
      availableNodes: nodes.filter((n) => !done.has(n.id)).map((n) => n.id),
      pendingNodes: pending,
      hunts: hunts.map((h) => {
        const completed = h.nodeIds.filter((id) => done.has(id)).length;
        return { huntId: h.id, completed, total: h.totalNodes, finished: h.totalNodes > 0 && completed === h.totalNodes };
      }),
    };
  }

  /**
   * Inside a transaction holding the user's award lock: pays the node's points (once, by its
   * ledger key) and the reward of every active hunt this completion finishes (once each).
   */
  async function payCompletion(tx: Db, userId: string, node: QuestNodeRow, now: Date): Promise<CompletionPaid> {
    const r = createQuestsRepository(tx);
    const nodeOutcome = await payAward(
      tx,
      RULES.quest_node,
      { userId, activityType: 'quest_node', reason: 'quest_node', targetType: 'node', targetId: node.id, points: node.points, description: `Completed ${node.name}`, idempotencyKey: nodeAwardKey(node.id, userId), at: now },
      timeZone,
    );
    const notifications: NotificationResponse[] = [];
    if (nodeOutcome.status === 'paid') {
      notifications.push(await createNotification(tx, userId, { type: 'success', title: 'Quest Node Complete', message: `You completed ${node.name}. +${node.points} points` }, now));
    }
    const done = new Set((await r.userCompletions(userId)).filter((c) => c.status === 'completed').map((c) => c.nodeId));
    const holding = await r.activeHuntsWithNode(node.id);
    const order = await r.huntNodeIds(holding.map((h) => h.id));
    const hunts: PayOutcome[] = [];
    let huntBonus = 0;
    for (const h of holding) {
      const ids = order.get(h.id) ?? [];
      if (h.rewardPoints <= 0 || ids.length === 0 || !ids.every((id) => done.has(id))) continue;
      const outcome = await payAward(
        tx,
        RULES.hunt_complete,
        { userId, activityType: 'hunt_complete', reason: 'hunt_complete', targetType: 'hunt', targetId: h.id, points: h.rewardPoints, description: `Finished ${h.name}`, idempotencyKey: huntAwardKey(h.id, userId), at: now },
        timeZone,
      );
      hunts.push(outcome);
      if (outcome.status === 'paid') {
        huntBonus += h.rewardPoints;
        notifications.push(await createNotification(tx, userId, { type: 'achievement', title: 'Hunt Complete', message: `You finished ${h.name}. +${h.rewardPoints} points${h.reward ? ` · ${h.reward}` : ''}` }, now));
      }
    }
    return { node: nodeOutcome, hunts, huntBonus, notifications };
  }

  /** After commit: live points and notifications for everything a completion paid. */
  function announce(userId: string, paid: CompletionPaid): void {
    const outcomes = [paid.node, ...paid.hunts].filter((o) => o.status === 'paid');
    const last = outcomes.at(-1);
    if (last) bus.publish('gaming_update', { userId, points: last.total });
    for (const o of outcomes) publishNotifications(bus, userId, o.notifications);
    publishNotifications(bus, userId, paid.notifications);
  }

  async function activeNode(nodeId: string): Promise<QuestNodeRow> {
    const node = await repo.findNode(nodeId);
    if (!node || !node.active) throw notFound('Unknown quest node');
    return node;
  }

  return {
    /** GET /api/map: the active nodes and hunts; admins also see inactive nodes to edit them. */
    async map(isAdmin: boolean): Promise<MapResponse> {
      const nodes = await repo.listNodes({ activeOnly: !isAdmin });
      return { nodes: nodes.map(toQuestNode), activeHunts: await huntsOut(repo, true) };
    },

    progress: (userId: string) => progressOf(repo, userId),

    async createNode(body: CreateNodeBody, adminId: string): Promise<QuestNode> {
      const now = clock.now();
      return toQuestNode(await repo.insertNode({ ...body, createdBy: adminId, createdAt: now, updatedAt: now }));
    },

    async updateNode(id: string, body: UpdateNodeBody): Promise<QuestNode> {
      const row = await repo.updateNode(id, { ...body, updatedAt: clock.now() });
      if (!row) throw notFound('Unknown quest node');
      return toQuestNode(row);
    },

    async createHunt(body: CreateHuntBody): Promise<Hunt> {
      const { nodeIds, ...fields } = body;
      const ids = [...new Set(nodeIds)];
      return db.transaction(async (tx) => {
        const r = createQuestsRepository(tx);
        if ((await r.countNodes(ids)) !== ids.length) throw invalid('nodeIds: unknown quest node');
        const now = clock.now();
        const hunt = await r.insertHunt({ ...fields, createdAt: now, updatedAt: now });
        await r.setHuntNodes(hunt.id, ids);
        return toHunt(hunt, ids);
      });
    },

    async updateHunt(id: string, body: UpdateHuntBody): Promise<Hunt> {
      const { nodeIds, ...fields } = body;
      return db.transaction(async (tx) => {
        const r = createQuestsRepository(tx);
        const ids = nodeIds ? [...new Set(nodeIds)] : undefined;
        if (ids && (await r.countNodes(ids)) !== ids.length) throw invalid('nodeIds: unknown quest node');
        const hunt = await r.updateHunt(id, { ...fields, updatedAt: clock.now() });
        if (!hunt) throw notFound('Unknown hunt');
        if (ids) await r.setHuntNodes(id, ids);
        return toHunt(hunt, (await r.huntNodeIds([id])).get(id) ?? []);
      });
    },

    /**
     * Evidence for a node: a position (and maybe a photo). Within the radius (accuracy credited
     * up to 50 m) a node without `requiresPhoto` completes once and pays; a photo that cannot
     * complete by position alone waits for an admin; otherwise the distance is answered.
     * A completion implying more than 150 km/h since the last one is refused (409).
     */
    async submitEvidence(userId: string, nodeId: string, body: EvidenceBody): Promise<EvidenceResponse> {
      const node = await activeNode(nodeId);
      // Checked like a flyer upload; its messages name this body's field.
      const photo = body.photo
        ? await readFlyerImage(body.photo).catch((e: unknown) => {
            if (e instanceof AppError) e.message = e.message.replace('imageData', 'photo');
            throw e;
          })
        : null;
      if (node.requiresPhoto && !photo) throw invalid('photo is required for this node');
      const distanceM = haversineM(body.latitude, body.longitude, node.latitude, node.longitude);
      const inside = withinGeofence(distanceM, node.radiusM, body.accuracy, MAX_ACCURACY_CREDIT_M);
      const now = clock.now();

      const result = await db.transaction(async (tx) => {
        await lockUserAwards(tx, userId);
        const r = createQuestsRepository(tx);
        const existing = await r.findCompletion(userId, node.id);
        if (existing?.status === 'completed') return { kind: 'again' as const };
        if (existing?.status === 'pending_review') return { kind: 'pending' as const };
        const position = { latitude: body.latitude, longitude: body.longitude, accuracyM: body.accuracy, distanceM };
        const photoFields = photo ? { photo: photo.bytes, photoType: `image/${photo.type}` } : {};
        if (inside && !node.requiresPhoto) {
          await checkOrder(r, userId, node.id);
          await checkTravel(r, userId, node.id, body.latitude, body.longitude, now);
          const values = { status: 'completed' as const, method: 'location' as const, ...position, ...photoFields, pointsEarned: node.points, createdAt: now, completedAt: now, reviewedBy: null, reviewedAt: null };
          if (existing) await r.updateCompletion(existing.id, values);
          else await r.insertCompletion({ nodeId: node.id, userId, ...values });
          return { kind: 'paid' as const, paid: await payCompletion(tx, userId, node, now) };
        }
        if (photo) {
          await checkOrder(r, userId, node.id);
          const values = { status: 'pending_review' as const, method: 'photo' as const, ...position, ...photoFields, pointsEarned: 0, createdAt: now, completedAt: null, reviewedBy: null, reviewedAt: null };
          if (existing) await r.updateCompletion(existing.id, values);
          else await r.insertCompletion({ nodeId: node.id, userId, ...values });
          return { kind: 'pending' as const };
        }
        return { kind: 'outside' as const };
      });

      if (result.kind === 'paid') announce(userId, result.paid);
      const progress = await progressOf(repo, userId);
      if (result.kind === 'paid') {
        const earned = result.paid.node.status === 'paid' ? node.points : 0;
        return { completed: true, pointsEarned: earned, huntBonus: result.paid.huntBonus, progress };
      }
      if (result.kind === 'again') return { completed: true, pointsEarned: 0, huntBonus: 0, progress };
      return { completed: false, distanceM: Math.round(distanceM), pending: result.kind === 'pending', progress };
    },

    /** Demo content: the invented nodes and hunts, when there are no nodes yet. */
    seedDemo: () => insertDemoQuests(db, clock.now()),

    async pendingEvidence(): Promise<{ evidence: PendingEvidence[]; total: number }> {
      const rows = await repo.pendingEvidence();
      return { evidence: rows.map((r) => toPendingEvidence(r.c, r.nodeName, r)), total: await repo.countPendingEvidence() };
    },

    async evidencePhoto(id: string): Promise<{ bytes: Buffer; type: string }> {
      const row = await repo.findCompletionById(id);
      if (!row?.photo || !row.photoType) throw notFound('No photo for this evidence');
      return { bytes: row.photo, type: row.photoType };
    },

    /** An admin's decision on a pending photo: accept completes and pays once; reject lets the player try again. */
    async review(id: string, decision: 'accept' | 'reject', adminId: string): Promise<{ id: string; status: 'completed' | 'rejected'; pointsEarned: number }> {
      const now = clock.now();
      const found = await repo.findCompletionById(id);
      if (!found) throw notFound('Unknown evidence');
      const out = await db.transaction(async (tx) => {
        await lockUserAwards(tx, found.userId);
        const r = createQuestsRepository(tx);
        const row = await r.findCompletionById(id);
        if (!row || row.status !== 'pending_review') throw conflict('This evidence was already reviewed');
        const node = await r.findNode(row.nodeId);
        if (!node) throw notFound('Unknown quest node');
        if (decision === 'reject') {
          await r.updateCompletion(id, { status: 'rejected', reviewedBy: adminId, reviewedAt: now, photo: null, photoType: null });
          const n = await createNotification(tx, row.userId, { type: 'info', title: 'Photo Not Accepted', message: `Your photo for ${node.name} was not accepted. You can try again.` }, now);
          return { status: 'rejected' as const, pointsEarned: 0, paid: null, notice: n };
        }
        await r.updateCompletion(id, { status: 'completed', reviewedBy: adminId, reviewedAt: now, completedAt: now, pointsEarned: node.points });
        const paid = await payCompletion(tx, row.userId, node, now);
        return { status: 'completed' as const, pointsEarned: paid.node.status === 'paid' ? node.points : 0, paid, notice: null };
      });
      if (out.paid) announce(found.userId, out.paid);
      if (out.notice) publishNotifications(bus, found.userId, [out.notice]);
      return { id, status: out.status, pointsEarned: out.pointsEarned };
    },
  };
}

export type QuestsService = ReturnType<typeof createQuestsService>;
