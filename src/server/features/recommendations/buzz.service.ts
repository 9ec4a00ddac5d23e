import { BUZZ_VERBS, type BuzzResponse } from '../../../contract/recommendations.ts';
import type { Db } from '../../db/client.ts';
import { displayName } from '../gaming/gaming.mapper.ts';
import { createBuzzRepository } from './buzz.repository.ts';

/** Community Buzz: what other people did lately, named by first name and initial, each action in words. */
export function createBuzzService(deps: { db: Db }) {
  const repo = createBuzzRepository(deps.db);
  return {
    async latest(viewerId: string, limit: number): Promise<BuzzResponse> {
      const rows = await repo.latest(viewerId, limit);
      return {
        items: rows.map((r) => ({
          id: r.id,
          actor: displayName(r.firstName, r.lastName, false),
          action: r.action,
          verb: BUZZ_VERBS[r.action],
          count: Number(r.count),
          subject: r.subject,
          eventId: r.eventId,
          storyId: r.storyId,
          at: r.at,
        })),
      };
    },
  };
}

export type BuzzService = ReturnType<typeof createBuzzService>;
