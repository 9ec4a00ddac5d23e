import type { Hunt, PendingEvidence, QuestNode } from '../../../contract/quests.ts';
import type { HuntRow, NodeCompletionRow, QuestNodeRow } from './quests.table.ts';

/** A node row as the contract's quest node. */
export function toQuestNode(r: QuestNodeRow): QuestNode {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    difficulty: r.difficulty,
    category: r.category,
    points: r.points,
    clue: r.clue,
    location: { address: r.address },
    requirements: r.requirements,
    latitude: r.latitude,
    longitude: r.longitude,
    radiusM: r.radiusM,
    requiresPhoto: r.requiresPhoto,
    active: r.active,
    isDemo: r.isDemo,
  };
}

/** A hunt row and its node ids (in order) as the contract's hunt. */
export function toHunt(r: HuntRow, nodeIds: string[]): Hunt {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    totalNodes: nodeIds.length,
    reward: r.reward,
    rewardPoints: r.rewardPoints,
    ordered: r.ordered,
    active: r.active,
    nodeIds,
    isDemo: r.isDemo,
  };
}

/** A completion waiting for review, for the admin list (no photo bytes). */
export function toPendingEvidence(c: NodeCompletionRow, nodeName: string, user: { firstName: string | null; lastName: string | null; email: string }): PendingEvidence {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ').trim();
  return {
    id: c.id,
    nodeId: c.nodeId,
    nodeName,
    userId: c.userId,
    userName: name || user.email.split('@')[0] || 'Player',
    distanceM: c.distanceM === null ? null : Math.round(c.distanceM),
    submittedAt: c.createdAt.toISOString(),
  };
}
