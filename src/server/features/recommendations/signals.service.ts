import type { CityConfig } from '../../../contract/city.ts';
import type { EventViewBody, InterestsBody, InterestsResponse } from '../../../contract/recommendations.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { invalid, notFound } from '../../errors.ts';
import { createSignalsRepository } from './signals.repository.ts';

/** The same user, event and route within this window records one view. */
export const VIEW_THROTTLE_MS = 10 * 60 * 1000;

/** Dismissals, views and cold-start interests: what the ranking learns from besides favourites. */
export function createSignalsService(deps: { db: Db; clock: Clock; city: CityConfig }) {
  const { db, clock, city } = deps;
  const repo = createSignalsRepository(db);

  return {
    async dismiss(userId: string, eventId: string): Promise<{ dismissed: true }> {
      if (!(await repo.eventExists(eventId))) throw notFound('Event not found');
      await repo.insertDismissal(userId, eventId, clock.now());
      return { dismissed: true };
    },

    async view(userId: string, eventId: string, body: EventViewBody): Promise<{ recorded: boolean }> {
      if (!(await repo.eventExists(eventId))) throw notFound('Event not found');
      const now = clock.now();
      return db.transaction(async (tx) => {
        const r = createSignalsRepository(tx);
        await r.lockUserViews(userId);
        if (await r.hasViewSince(userId, eventId, body.via, new Date(now.getTime() - VIEW_THROTTLE_MS))) return { recorded: false };
        await r.insertView(userId, eventId, body.via, now);
        return { recorded: true };
      });
    },

    async interests(userId: string): Promise<InterestsResponse> {
      const row = await repo.findInterests(userId);
      return row ? { categories: row.categories as InterestsResponse['categories'], neighbourhoods: row.neighbourhoods, chosen: true } : { categories: [], neighbourhoods: [], chosen: false };
    },

    /** Saves the picks (empty lists = skipped); neighbourhoods must be the city's own names. */
    async setInterests(userId: string, body: InterestsBody): Promise<InterestsResponse> {
      const known = new Map(city.neighbourhoods.map((n) => [n.name.toLowerCase(), n.name]));
      const neighbourhoods: string[] = [];
      for (const name of body.neighbourhoods) {
        const canonical = known.get(name.toLowerCase());
        if (!canonical) throw invalid(`neighbourhoods: '${name}' is not a neighbourhood of ${city.name}`);
        if (!neighbourhoods.includes(canonical)) neighbourhoods.push(canonical);
      }
      const categories = [...new Set(body.categories)];
      await repo.upsertInterests(userId, categories, neighbourhoods, clock.now());
      return { categories, neighbourhoods, chosen: true };
    },
  };
}

export type SignalsService = ReturnType<typeof createSignalsService>;
