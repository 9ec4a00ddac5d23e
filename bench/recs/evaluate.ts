// The offline evaluation: replays the generated log in time order. At each weekly cut-off T it
// hides everything after T, ranks the coming week's events for each person from what they did
// before T, and scores the ranking against the events they went on to save or check into.
// Our ranking (ranking.ts, the code the service runs) against a popularity baseline and a
// category-only baseline (the previous recommender: top 3 favourite categories, most popular).
import { PORTLAND } from '../../src/server/city.ts';
import { ndcgAtK, precisionAtK, recallAtK } from '../../src/server/features/recommendations/metrics.ts';
import { buildSimilarity, rank, type RankEvent, type Signal } from '../../src/server/features/recommendations/ranking.ts';
import { generate, PARAMS, type GeneratedLog } from './behaviour-model.ts';

const DAY = 86_400_000;
const K = 10;

export interface EvalRow {
  name: string;
  precision: number;
  recall: number;
  ndcg: number;
}

/** Runs the replay and returns mean metrics per method, with the number of (person, week) cases. */
export function evaluate(log: GeneratedLog = generate(PORTLAND.neighbourhoods), opts: { firstWeek?: number } = {}) {
  const byId = new Map(log.events.map((e) => [e.id, e]));
  const methods = ['Our ranking', 'Popularity', 'Category-only'] as const;
  const sums = new Map(methods.map((m) => [m, { p: 0, r: 0, n: 0 }]));
  let cases = 0;
  const firstWeek = opts.firstWeek ?? 6;
  for (let w = firstWeek; w < PARAMS.weeks; w++) {
    const T = log.start + w * 7 * DAY;
    const past = log.actions.filter((a) => a.at < T);
    const future = log.actions.filter((a) => a.at >= T && (a.kind === 'favorite' || a.kind === 'checkin'));
    // The coming week's events; popularity as the app counts it: source RSVPs + saves + check-ins so far.
    const kept = new Map<string, number>();
    for (const a of past) if (a.kind === 'favorite' || a.kind === 'checkin') kept.set(a.eventId, (kept.get(a.eventId) ?? 0) + 1);
    const candidates: RankEvent[] = log.events.filter((e) => e.start >= T && e.start < T + 7 * DAY).map((e) => ({ ...e, popularity: e.rsvps + (kept.get(e.id) ?? 0) }));
    const candidateIds = new Set(candidates.map((c) => c.id));
    const byUser = new Map<string, Signal[]>();
    const keptByUser = new Map<string, string[]>();
    for (const a of past) {
      const e = byId.get(a.eventId)!;
      if (!byUser.has(a.userId)) byUser.set(a.userId, []);
      byUser.get(a.userId)!.push({ kind: a.kind, at: a.at, event: e });
      if (a.kind === 'favorite' || a.kind === 'checkin') {
        if (!keptByUser.has(a.userId)) keptByUser.set(a.userId, []);
        keptByUser.get(a.userId)!.push(a.eventId);
      }
    }
    const similar = buildSimilarity(keptByUser.values(), (id) => candidateIds.has(id));
    const relevant = new Map<string, Set<string>>();
    for (const a of future) {
      if (!candidateIds.has(a.eventId)) continue;
      if (!relevant.has(a.userId)) relevant.set(a.userId, new Set());
      relevant.get(a.userId)!.add(a.eventId);
    }
    const byPopularity = [...candidates].sort((a, b) => b.popularity - a.popularity || a.start - b.start);
    for (const [userId, rel] of relevant) {
      const signals = byUser.get(userId) ?? [];
      const known = new Set((keptByUser.get(userId) ?? []).filter((id) => candidateIds.has(id)));
      for (const id of known) rel.delete(id);
      if (rel.size === 0 || signals.length < 3) continue;
      cases += 1;
      const ours = rank({ now: T, signals, interests: null, candidates, similar, exclude: known, centre: PORTLAND.center, utcOffsetMin: PARAMS.utcOffsetMin, limit: K }).map((x) => x.eventId);
      const popular = byPopularity.filter((e) => !known.has(e.id)).slice(0, K).map((e) => e.id);
      const catCount = new Map<string, number>();
      for (const id of keptByUser.get(userId) ?? []) {
        const c = byId.get(id)!.category;
        catCount.set(c, (catCount.get(c) ?? 0) + 1);
      }
      const top = new Set([...catCount].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([c]) => c));
      const category = byPopularity.filter((e) => top.has(e.category) && !known.has(e.id)).slice(0, K).map((e) => e.id);
      for (const [m, list] of [['Our ranking', ours], ['Popularity', popular], ['Category-only', category]] as const) {
        const s = sums.get(m)!;
        s.p += precisionAtK(list, rel, K);
        s.r += recallAtK(list, rel, K);
        s.n += ndcgAtK(list, rel, K);
      }
    }
  }
  const rows: EvalRow[] = methods.map((m) => {
    const s = sums.get(m)!;
    return { name: m, precision: s.p / cases, recall: s.r / cases, ndcg: s.n / cases };
  });
  return { rows, cases, events: log.events.length, actions: log.actions.length, users: log.users.length };
}
