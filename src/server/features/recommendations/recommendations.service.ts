import type { CityConfig } from '../../../contract/city.ts';
import type { RecommendedEvent } from '../../../contract/recommendations.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { toEventSummary } from '../events/events.mapper.ts';
import { createEventsRepository } from '../events/events.repository.ts';
import { buildSimilarity, rank, utcOffsetMinutes, type RankEvent, type Similarity } from './ranking.ts';
import { createRecommendationsRepository } from './recommendations.repository.ts';

/** Upcoming events are re-read at most this often (sooner after an event changes). */
export const POOL_TTL_MS = 60_000;
/** Item-to-item similarity over everyone is rebuilt this often, in the background. */
export const SIMILARITY_TTL_MS = 5 * 60_000;
/** A user's stored list is recomputed after new activity, and at least this often (popularity and dates move). */
export const RECOMMENDATIONS_TTL_MS = 15 * 60_000;
/** Background recomputes start this long after the read that asked for them. */
const RECOMPUTE_DELAY_MS = 150;
/** How many ranked items are stored per user (read-time filtering eats into them). */
const STORED = 60;
/** Actions read per user. */
const SIGNALS = 1000;
const SIMILARITY_WINDOW_MS = 365 * 86_400_000;

/** A value loaded in the background when stale; only the very first load is awaited. */
function refreshing<T>(load: () => Promise<T>, ttl: number, now: () => number) {
  let value: T | undefined;
  let at = 0;
  // Invalidations counted, so a load that began before one does not pass for fresh.
  let gen = 0;
  let loadedGen = -1;
  let loadingGen = -1;
  let loading: Promise<T> | null = null;
  const start = () => {
    if (loading) return loading;
    const g = gen;
    loadingGen = g;
    loading = load()
      .then((v) => {
        value = v;
        at = now();
        loadedGen = g;
        return v;
      })
      .finally(() => {
        loading = null;
      });
    return loading;
  };
  // A clock set back (tests, a corrected system clock) makes the value stale too.
  const age = () => Math.abs(now() - at);
  const changed = () => loadedGen !== gen;
  return {
    async get(): Promise<T> {
      if (value === undefined) return start();
      // A burst of changes reloads at most every few seconds.
      if ((changed() && age() > 5000) || age() > ttl) void start().catch(() => undefined);
      return value;
    },
    /** The value, reloaded first when something changed or it is older than the TTL (background work only). */
    async fresh(): Promise<T> {
      if (loading && loadingGen !== gen) await loading.catch(() => undefined);
      if (value === undefined || changed() || age() > ttl) return start();
      return value;
    },
    invalidate() {
      gen += 1;
    },
    pending: () => loading,
  };
}

/** Recommendations: stored per user, recomputed after their new activity; exclusions applied at every read. */
export function createRecommendationsService(deps: { db: Db; clock: Clock; city: CityConfig; bus: EventBus }) {
  const { db, clock, city } = deps;
  const repo = createRecommendationsRepository(db);
  const eventsRepo = createEventsRepository(db);
  const nowMs = () => clock.now().getTime();

  const pool = refreshing<{ list: RankEvent[]; ids: Set<string> }>(
    async () => {
      const list = await repo.upcoming(clock.now());
      return { list, ids: new Set(list.map((e) => e.id)) };
    },
    POOL_TTL_MS,
    nowMs,
  );
  const similarity = refreshing<Similarity>(
    async () => {
      const [kept, p] = await Promise.all([repo.keptByUser(new Date(nowMs() - SIMILARITY_WINDOW_MS)), pool.get()]);
      return buildSimilarity(kept.values(), (id) => p.ids.has(id));
    },
    SIMILARITY_TTL_MS,
    nowMs,
  );
  // New, approved, rejected or removed events change the pool; 'updated' (a favourite's count,
  // an edit) is frequent and left to the TTL, so saves do not reload 100k events each time.
  const unsubscribe = deps.bus.subscribe('event_update', (m) => {
    if (m.action !== 'updated') pool.invalidate();
  });

  async function compute(userId: string) {
    const now = clock.now();
    const [signals, interests, { exclude }, p, similar] = await Promise.all([repo.signals(userId, SIGNALS), repo.interests(userId), repo.exclusionsAndLatest(userId), pool.fresh(), similarity.get()]);
    const items = rank({
      now: now.getTime(),
      signals,
      interests,
      candidates: p.list,
      similar,
      exclude,
      centre: city.center,
      utcOffsetMin: utcOffsetMinutes(now, city.timeZone),
      limit: STORED,
    });
    await repo.store(userId, items, now);
    return items;
  }

  // Background recomputes run one at a time, each user at most once in the queue.
  const queued = new Set<string>();
  let chain: Promise<unknown> = Promise.resolve();
  function schedule(userId: string) {
    if (queued.has(userId)) return;
    queued.add(userId);
    // A short pause first: the request that noticed the new activity answers before the
    // ranking's CPU work starts on this same thread.
    chain = chain
      .then(() => new Promise((resolve) => setTimeout(resolve, RECOMPUTE_DELAY_MS)))
      .then(() => compute(userId).catch(() => undefined))
      .finally(() => queued.delete(userId));
  }

  return {
    /** The user's recommendations, best first: never saved, checked into, dismissed or ended, nor a date of a series the user acted on. */
    async recommended(userId: string, limit: number): Promise<RecommendedEvent[]> {
      const now = clock.now();
      const stored = await repo.storedForRead(userId);
      let items: { eventId: string; score: number; reason: string }[];
      let exclude: Set<string>;
      if (!stored) {
        items = await compute(userId);
        exclude = new Set();
      } else {
        ({ items, excluded: exclude } = stored);
        if (stored.latest >= stored.computedAt || now.getTime() - stored.computedAt > RECOMMENDATIONS_TTL_MS) schedule(userId);
      }
      // The user's own new favourite, check-in, scan, look or dismissal counts at once, before any recompute.
      const wanted = items.filter((i) => !exclude.has(i.eventId)).slice(0, limit + 10);
      const rows = new Map((await eventsRepo.findByIds(wanted.map((i) => i.eventId))).map((r) => [r.event.id, r]));
      const out: RecommendedEvent[] = [];
      for (const i of wanted) {
        const row = rows.get(i.eventId);
        if (!row || row.event.status !== 'approved' || row.event.goneAt || row.event.endDate.getTime() <= now.getTime()) continue;
        out.push({ ...toEventSummary(row, city.distanceUnit), reason: i.reason });
        if (out.length >= limit) break;
      }
      return out;
    },

    /** Recomputes one user now (tests, benchmarks). */
    refresh: compute,

    /** Resolves when queued recomputes and background loads are done. */
    async idle() {
      await chain;
      await pool.pending();
      await similarity.pending();
    },

    close() {
      unsubscribe();
    },
  };
}

export type RecommendationsService = ReturnType<typeof createRecommendationsService>;
