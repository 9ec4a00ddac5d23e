// Pure scoring of upcoming events for one person from what they did. No database, no clock:
// the service and the offline evaluation (bench/recommendations-eval.ts) call the same code.
// The weights below were set by reasoning about the signals, not fitted to the evaluation's
// generated log (bench/recs/behaviour-model.ts keeps its own, separate parameters).

/** What the ranking knows of an event. Times in epoch milliseconds. */
export interface RankEvent {
  id: string;
  title: string;
  category: string;
  venue: string;
  neighbourhood: string | null;
  lat: number | null;
  lng: number | null;
  start: number;
  end: number;
  /** Occurrences of one recurring event share it; at most one is recommended, none of a series acted on. */
  seriesKey: string;
  /** Source RSVPs + check-ins + saves. */
  popularity: number;
}

export type SignalKind = 'favorite' | 'checkin' | 'scan' | 'view' | 'click';

/** One thing the person did with an event, and when. */
export interface Signal {
  kind: SignalKind;
  at: number;
  event: RankEvent;
}

export interface Interests {
  categories: string[];
  neighbourhoods: string[];
}

/** Event id -> similar events (people who saved or checked into both), strongest first. */
export type Similarity = ReadonlyMap<string, readonly { id: string; w: number }[]>;

export interface RankInput {
  now: number;
  signals: readonly Signal[];
  interests: Interests | null;
  candidates: readonly RankEvent[];
  similar: Similarity;
  /** Saved, checked into, dismissed: never recommended. */
  exclude: ReadonlySet<string>;
  centre: { lat: number; lng: number };
  /** The city's offset from UTC in minutes, for local hour and weekday. */
  utcOffsetMin: number;
  limit: number;
}

export interface Ranked {
  eventId: string;
  score: number;
  reason: string;
}

/** How much each kind of action says about taste. */
export const KIND_WEIGHT: Record<SignalKind, number> = { checkin: 4, favorite: 3, scan: 2.5, click: 1.5, view: 1 };
/** Taste fades: an action this old counts half. */
const HALF_LIFE_DAYS = 90;
/** Weights of the score's parts (each part is 0..1). */
export const W = { similar: 2.2, category: 1.2, venue: 1.0, neighbourhood: 0.6, time: 0.5, distance: 0.4, popularity: 0.5, interestCategory: 1.0, interestNeighbourhood: 0.6 };
/** At most this many of the first VARIETY_WINDOW items share a category (when others exist). */
export const VARIETY_CAP = 5;
export const VARIETY_WINDOW = 10;
const DAY = 86_400_000;
/** Within this of the city's centre an event is "near the city centre". */
const CENTRAL_KM = 2.5;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Great-circle distance in km. */
export function km(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const r = Math.PI / 180;
  const dLat = (b.lat - a.lat) * r;
  const dLng = (b.lng - a.lng) * r;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * r) * Math.cos(b.lat * r) * Math.sin(dLng / 2) ** 2;
  return 12742 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The zone's offset from UTC at an instant, in minutes (one value per ranking: a DST hour off is harmless here). */
export function utcOffsetMinutes(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' }).formatToParts(at);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
  return Math.round((local - Math.floor(at.getTime() / 60000) * 60000) / 60000);
}

const hourBucket = (t: number, off: number) => Math.floor(new Date(t + off * 60000).getUTCHours() / 4); // 6 buckets
const weekday = (t: number, off: number) => new Date(t + off * 60000).getUTCDay();
const lc = (s: string | null | undefined) => (s ?? '').trim().toLowerCase();

/** A person's tastes, from their actions. */
export interface Profile {
  total: number;
  category: Map<string, number>;
  /** Per venue: weight, name, the events acted on there, and those checked into ("often go" needs two). */
  venue: Map<string, { w: number; name: string; events: Set<string>; went: Set<string>; title: string }>;
  neighbourhood: Map<string, number>;
  /** Per neighbourhood, the events acted on there, those checked into, and the title of the first. */
  neighbourhoodEvents: Map<string, { events: Set<string>; went: Set<string>; title: string }>;
  hours: number[];
  days: number[];
  home: { lat: number; lng: number } | null;
  /** Events acted on: weight, title and the strongest kind (for "People who saved ..."). */
  items: Map<string, { w: number; title: string; kind: SignalKind }>;
  /** Series of the events acted on: their other dates are not recommended. */
  series: Set<string>;
}

/** Sums the actions into tastes, newer ones weighing more. */
export function buildProfile(signals: readonly Signal[], now: number, utcOffsetMin: number): Profile {
  const p: Profile = { total: 0, category: new Map(), venue: new Map(), neighbourhood: new Map(), neighbourhoodEvents: new Map(), hours: [0, 0, 0, 0, 0, 0], days: [0, 0, 0, 0, 0, 0, 0], home: null, items: new Map(), series: new Set() };
  let lat = 0;
  let lng = 0;
  let geoW = 0;
  for (const s of signals) {
    const age = Math.max(0, now - s.at) / DAY;
    const w = KIND_WEIGHT[s.kind] * 0.5 ** (age / HALF_LIFE_DAYS);
    const e = s.event;
    p.total += w;
    p.category.set(e.category, (p.category.get(e.category) ?? 0) + w);
    // Going is checking in; a save, a scan or a look is interest, not a visit.
    const went = (set: Set<string> | undefined) => (s.kind === 'checkin' ? (set ?? new Set<string>()).add(e.id) : (set ?? new Set<string>()));
    const v = lc(e.venue);
    if (v) {
      const cur = p.venue.get(v);
      p.venue.set(v, { w: (cur?.w ?? 0) + w, name: cur?.name ?? e.venue, events: (cur?.events ?? new Set()).add(e.id), went: went(cur?.went), title: cur?.title ?? e.title });
    }
    const n = e.neighbourhood;
    if (n) {
      p.neighbourhood.set(n, (p.neighbourhood.get(n) ?? 0) + w);
      const cur = p.neighbourhoodEvents.get(n);
      p.neighbourhoodEvents.set(n, { events: (cur?.events ?? new Set()).add(e.id), went: went(cur?.went), title: cur?.title ?? e.title });
    }
    // When they go out: the events they committed to (not ones merely looked at).
    if (s.kind !== 'view' && s.kind !== 'click') {
      p.hours[hourBucket(e.start, utcOffsetMin)]! += w;
      p.days[weekday(e.start, utcOffsetMin)]! += w;
    }
    if (e.lat !== null && e.lng !== null) {
      lat += e.lat * w;
      lng += e.lng * w;
      geoW += w;
    }
    const strongest = (cur: { w: number; kind: SignalKind } | undefined) => (!cur || KIND_WEIGHT[s.kind] > KIND_WEIGHT[cur.kind] ? s.kind : cur.kind);
    const item = p.items.get(e.id);
    p.items.set(e.id, { w: (item?.w ?? 0) + w, title: e.title, kind: strongest(item) });
    p.series.add(e.seriesKey);
  }
  if (geoW > 0) p.home = { lat: lat / geoW, lng: lng / geoW };
  return p;
}

const verb = (k: SignalKind) => (k === 'checkin' ? 'went to' : k === 'favorite' ? 'saved' : k === 'scan' ? 'scanned' : 'looked at');

interface Part {
  key: keyof typeof W;
  value: number;
  reason: string;
  /** The title of the event the reason names, if any: never the recommended event's own. */
  names?: string;
}

/**
 * Ranks the candidates: never an excluded or ended event, nor an event acted on or another date of
 * its series (the member knows it: a reason built from it would name the event itself), one
 * occurrence per series, and at most VARIETY_CAP of the first VARIETY_WINDOW from one category
 * when enough others exist.
 */
export function rank(input: RankInput): Ranked[] {
  const { now, candidates, exclude, similar, utcOffsetMin } = input;
  const profile = buildProfile(input.signals, now, utcOffsetMin);
  const interests = input.interests;
  const cold = profile.total === 0;
  const icats = new Set(interests?.categories ?? []);
  const inbhd = new Set((interests?.neighbourhoods ?? []).map(lc));
  const maxCat = Math.max(0, ...profile.category.values());
  const maxVenue = Math.max(0, ...[...profile.venue.values()].map((v) => v.w));
  const maxNbhd = Math.max(0, ...profile.neighbourhood.values());
  const hourSum = profile.hours.reduce((a, b) => a + b, 0);
  const daySum = profile.days.reduce((a, b) => a + b, 0);
  let maxPop = 1;
  for (const c of candidates) if (c.popularity > maxPop) maxPop = c.popularity;
  const logMaxPop = Math.log1p(maxPop);

  // Item-to-item: each event acted on lends its neighbours its weight times their similarity.
  const cf = new Map<string, { v: number; best: number; from: string }>();
  let maxCf = 0;
  for (const [id, item] of profile.items) {
    for (const n of similar.get(id) ?? []) {
      const add = item.w * n.w;
      const cur = cf.get(n.id) ?? { v: 0, best: 0, from: id };
      cur.v += add;
      if (add > cur.best) {
        cur.best = add;
        cur.from = id;
      }
      cf.set(n.id, cur);
      if (cur.v > maxCf) maxCf = cur.v;
    }
  }

  const scored: { e: RankEvent; score: number; reason: string }[] = [];
  for (const e of candidates) {
    if (e.end <= now || exclude.has(e.id) || profile.items.has(e.id) || profile.series.has(e.seriesKey)) continue;
    const parts: Part[] = [];
    const pop = logMaxPop > 0 ? Math.log1p(Math.max(0, e.popularity)) / logMaxPop : 0;
    const dCentre = e.lat !== null && e.lng !== null ? km(input.centre, { lat: e.lat, lng: e.lng }) : 8;
    const soonDays = Math.max(0, (e.start - now) / DAY);
    // Each reason says only what is true of the event: popular when people are going (this week
    // only when it is within a week), central when it is near the centre; else where it is.
    const inPlace = e.neighbourhood ? ` in ${e.neighbourhood}` : '';
    const popular = `Popular${inPlace}${soonDays <= 7 ? ' this week' : ''}`;
    const where = e.neighbourhood ? `Coming up in ${e.neighbourhood}` : 'Coming up';
    const central = dCentre <= CENTRAL_KM ? `Near the city centre${e.neighbourhood ? `, in ${e.neighbourhood}` : ''}` : where;
    if (cold) {
      // Cold start: chosen interests, else what is popular near the centre this week.
      if (icats.has(e.category)) parts.push({ key: 'interestCategory', value: 1, reason: `Matches your interest in ${e.category}` });
      if (e.neighbourhood && inbhd.has(lc(e.neighbourhood))) parts.push({ key: 'interestNeighbourhood', value: 1, reason: `Matches your interest in ${e.neighbourhood}` });
      parts.push({ key: 'popularity', value: pop * (soonDays <= 7 ? 1 : 0.5), reason: popular });
      parts.push({ key: 'distance', value: Math.exp(-dCentre / 4), reason: central });
    } else {
      const c = cf.get(e.id);
      if (c && maxCf > 0) {
        const src = profile.items.get(c.from)!;
        parts.push({ key: 'similar', value: Math.sqrt(c.v / maxCf), reason: `People who ${verb(src.kind)} ${src.title} also saved this`, names: src.title });
      }
      if (maxCat > 0) parts.push({ key: 'category', value: (profile.category.get(e.category) ?? 0) / maxCat, reason: `Because you like ${e.category} events` });
      const venue = profile.venue.get(lc(e.venue));
      // "Often go" only of more than one event checked into; else one event acted on there is named.
      if (venue && maxVenue > 0) parts.push({ key: 'venue', value: venue.w / maxVenue, ...(venue.went.size > 1 ? { reason: `You often go to ${venue.name}` } : { reason: `At ${venue.name}, like ${venue.title}`, names: venue.title }) });
      if (e.neighbourhood && maxNbhd > 0) {
        const nv = profile.neighbourhood.get(e.neighbourhood) ?? 0;
        const there = profile.neighbourhoodEvents.get(e.neighbourhood);
        if (nv > 0 && there) parts.push({ key: 'neighbourhood', value: nv / maxNbhd, ...(there.went.size > 1 ? { reason: `You often go out in ${e.neighbourhood}` } : { reason: `In ${e.neighbourhood}, like ${there.title}`, names: there.title }) });
      }
      if (hourSum > 0 && daySum > 0) {
        const h = (profile.hours[hourBucket(e.start, utcOffsetMin)]! / hourSum) * 6;
        const d = (profile.days[weekday(e.start, utcOffsetMin)]! / daySum) * 7;
        parts.push({ key: 'time', value: (Math.min(2, h) * Math.min(2, d)) / 4, reason: `On a ${WEEKDAYS[weekday(e.start, utcOffsetMin)]}, when you usually go out` });
      }
      if (profile.home && e.lat !== null && e.lng !== null) parts.push({ key: 'distance', value: Math.exp(-km(profile.home, { lat: e.lat, lng: e.lng }) / 3), reason: 'Close to the places you go' });
      parts.push({ key: 'popularity', value: pop, reason: popular });
      if (icats.has(e.category)) parts.push({ key: 'interestCategory', value: 0.5, reason: `Matches your interest in ${e.category}` });
      if (e.neighbourhood && inbhd.has(lc(e.neighbourhood))) parts.push({ key: 'interestNeighbourhood', value: 0.5, reason: `Matches your interest in ${e.neighbourhood}` });
    }
    let score = 0;
    let best: Part | null = null;
    for (const p of parts) {
      const v = W[p.key] * p.value;
      score += v;
      // A reason naming an event of the same title ("At X, like <this event>") would be circular.
      if (p.names !== undefined && lc(p.names) === lc(e.title)) continue;
      if (!best || v > W[best.key] * best.value) best = p;
    }
    // Sooner is a little better: a plan for this month beats one for next season.
    score *= 0.6 + 0.4 * Math.exp(-soonDays / 21);
    scored.push({ e, score, reason: best && W[best.key] * best.value > 0 ? best.reason : where });
  }
  scored.sort((a, b) => b.score - a.score || a.e.start - b.e.start || (a.e.id < b.e.id ? -1 : 1));
  return diversify(scored, input.limit).map((s) => ({ eventId: s.e.id, score: Math.round(s.score * 1e4) / 1e4, reason: s.reason }));
}

/** One occurrence per series; at most VARIETY_CAP of the first VARIETY_WINDOW from one category when others exist. */
export function diversify<T extends { e: { category: string; seriesKey: string } }>(sorted: readonly T[], limit: number): T[] {
  const out: T[] = [];
  const deferred: T[] = [];
  const series = new Set<string>();
  const perCat = new Map<string, number>();
  for (const s of sorted) {
    if (out.length >= limit) break;
    if (series.has(s.e.seriesKey)) continue;
    series.add(s.e.seriesKey);
    if (out.length < VARIETY_WINDOW && (perCat.get(s.e.category) ?? 0) >= VARIETY_CAP) {
      deferred.push(s);
      continue;
    }
    // Past the window, deferred items go back in their order before later ones.
    while (out.length >= VARIETY_WINDOW && deferred.length && out.length < limit) out.push(deferred.shift()!);
    if (out.length >= limit) break;
    out.push(s);
    if (out.length <= VARIETY_WINDOW) perCat.set(s.e.category, (perCat.get(s.e.category) ?? 0) + 1);
  }
  // Not enough other categories: the deferred fill what is left.
  while (out.length < limit && deferred.length) out.push(deferred.shift()!);
  return out;
}

/**
 * Item-to-item co-occurrence over everyone's saves and check-ins: for each event, the `topK`
 * events (among `isTarget`, i.e. upcoming) most often kept by the same people, weighted by
 * cosine similarity. Each person's `perUser` newest items count, so the work stays bounded.
 */
export function buildSimilarity(byUser: Iterable<readonly string[]>, isTarget: (id: string) => boolean, opts: { topK?: number; perUser?: number } = {}): Map<string, { id: string; w: number }[]> {
  const topK = opts.topK ?? 20;
  const perUser = opts.perUser ?? 60;
  const degree = new Map<string, number>();
  const pairs = new Map<string, Map<string, number>>();
  for (const all of byUser) {
    const items = [...new Set(all)].slice(-perUser);
    for (const a of items) degree.set(a, (degree.get(a) ?? 0) + 1);
    const targets = items.filter(isTarget);
    if (targets.length === 0) continue;
    for (const a of items) {
      let row = pairs.get(a);
      for (const b of targets) {
        if (a === b) continue;
        if (!row) pairs.set(a, (row = new Map()));
        row.set(b, (row.get(b) ?? 0) + 1);
      }
    }
  }
  const out = new Map<string, { id: string; w: number }[]>();
  for (const [a, row] of pairs) {
    const da = degree.get(a) ?? 1;
    const list = [...row]
      // One shared person is chance; two or more is a pattern (unless the event is new and small).
      .filter(([, n]) => n >= 2 || da <= 3)
      .map(([id, n]) => ({ id, w: n / Math.sqrt(da * (degree.get(id) ?? 1)) }))
      .sort((x, y) => y.w - x.w)
      .slice(0, topK);
    if (list.length) out.set(a, list);
  }
  return out;
}
