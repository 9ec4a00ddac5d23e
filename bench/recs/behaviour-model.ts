// GENERATED DATA. No public interaction log of local events (RSVPs, check-ins) is small and
// openly licensed enough to ship, so the offline evaluation replays a log generated here from a
// stated model of behaviour. Its parameters (PARAMS) are its own: the ranking
// (src/server/features/recommendations/ranking.ts) does not read them, and its weights were not
// fitted to this log.
//
// The model:
// - Venues sit in the city's neighbourhoods, each with one or two specialities; a venue runs
//   weekly series (same title, weekday and hour) and one-off events. Each event has a hidden
//   appeal; its source's RSVP count is a noisy reading of it.
// - People have a few tastes (category weights), a home neighbourhood, a travel tolerance,
//   habitual weekdays and a habitual time of day, an activity level, and a small group of friends.
// - Each week a person picks events among that week's, with odds from taste, distance from
//   home, day and hour habits, appeal, and liking for venues they went to before. They look at
//   the page, save it some days before (announcements fade: most saves come soon after an event
//   is announced), and often check in. Friends sometimes come along to the same event.
import type { RankEvent, SignalKind } from '../../src/server/features/recommendations/ranking.ts';
import { prng } from '../lib.ts';

export const PARAMS = {
  seed: 20261125,
  weeks: 16,
  venues: 160,
  users: 700,
  /** Weekly series per venue (0..this), and one-offs per venue per week (mean). */
  seriesPerVenue: 3,
  oneOffsPerVenueWeek: 0.6,
  /** Taste sharpness: odds go as taste^alpha. */
  tasteAlpha: 2.2,
  /** Mean kilometres a person will travel (exponential fall-off). */
  meanTolerance: 4,
  /** Weight of a habitual weekday and time of day against other ones. */
  habitDay: 3,
  habitHour: 4,
  /** Extra odds for a venue the person has been to (per earlier visit, capped). */
  venueLoyalty: 0.8,
  /** Events per person per week (mean of a skewed distribution). */
  meanWeeklyPicks: 1.6,
  /** Chance a friend in the group comes along to an event one of them picked. */
  friendsJoin: 0.35,
  checkInRate: 0.55,
  /** Page views of events not picked, per pick. */
  browseNoise: 1.5,
  /** Days before the start when saves happen (mean), bounded by the announcement. */
  meanLeadDays: 4,
  announceDays: 14,
  utcOffsetMin: -480,
} as const;

const CATEGORIES = ['Music', 'Food', 'Arts', 'Wellness', 'Sports', 'Tech', 'Business', 'Other'] as const;
const CATEGORY_SHARE = [22, 16, 14, 10, 10, 9, 9, 10];

export interface GenAction {
  userId: string;
  eventId: string;
  kind: SignalKind;
  at: number;
}

export interface GeneratedLog {
  /** Labelled: every figure computed from this log is on generated data. */
  label: 'GENERATED';
  start: number;
  events: (RankEvent & { rsvps: number })[];
  actions: GenAction[];
  users: string[];
}

/** Generates the log (deterministic for a seed). */
export function generate(neighbourhoods: readonly { name: string; lat: number; lng: number }[], params = PARAMS): GeneratedLog {
  const r = prng(params.seed);
  const DAY = 86_400_000;
  const start = Date.parse('2026-01-05T00:00:00Z'); // a Monday
  const gauss = () => Math.sqrt(-2 * Math.log(r.next() + 1e-12)) * Math.cos(2 * Math.PI * r.next());
  const poisson = (mean: number) => {
    let k = 0;
    let p = Math.exp(-mean);
    let s = p;
    const u = r.next();
    while (u > s && k < 50) {
      k += 1;
      p *= mean / k;
      s += p;
    }
    return k;
  };
  const pickCategory = () => r.weighted(CATEGORIES.map((c, i) => [c, CATEGORY_SHARE[i]!] as const));
  const km = (a: { lat: number; lng: number }, b: { lat: number; lng: number }) => Math.hypot((a.lat - b.lat) * 111, (a.lng - b.lng) * 78);

  // Venues and their events.
  const venues = Array.from({ length: params.venues }, (_, i) => {
    const n = r.pick(neighbourhoods);
    const cats = [pickCategory()];
    if (r.next() < 0.4) cats.push(pickCategory());
    return { name: `Venue ${i + 1}`, n, lat: n.lat + gauss() * 0.006, lng: n.lng + gauss() * 0.008, cats };
  });
  const events: GeneratedLog['events'] = [];
  const localToUtc = (day: number, hour: number) => start + day * DAY + hour * 3600_000 - params.utcOffsetMin * 60_000;
  const hourOf = () => r.weighted([[10, 2], [13, 2], [18, 3], [19, 4], [20, 3], [21, 2]] as const);
  let id = 0;
  const add = (v: (typeof venues)[number], category: string, title: string, day: number, hour: number, appeal: number, series: string) => {
    id += 1;
    const s = localToUtc(day, hour);
    events.push({ id: `g${id}`, title, category, venue: v.name, neighbourhood: v.n.name, lat: v.lat, lng: v.lng, start: s, end: s + 2 * 3600_000, seriesKey: series, popularity: 0, rsvps: Math.max(0, Math.round(appeal * 12 * Math.exp(gauss() * 0.6))) });
  };
  for (const v of venues) {
    const series = r.int(0, params.seriesPerVenue);
    for (let k = 0; k < series; k++) {
      const category = r.pick(v.cats);
      const dow = r.int(0, 6);
      const hour = hourOf();
      const appeal = Math.exp(gauss() * 0.7);
      const title = `${category} series ${v.name} #${k}`;
      for (let w = 0; w < params.weeks; w++) add(v, category, title, w * 7 + dow, hour, appeal, `${title}|${v.name}`);
    }
    for (let w = 0; w < params.weeks; w++) {
      for (let k = poisson(params.oneOffsPerVenueWeek); k > 0; k--) {
        const category = r.next() < 0.8 ? r.pick(v.cats) : pickCategory();
        const title = `${category} one-off ${v.name} w${w}.${k}`;
        add(v, category, title, w * 7 + r.int(0, 6), hourOf(), Math.exp(gauss() * 0.9), `${title}|${v.name}`);
      }
    }
  }

  // People.
  const users = Array.from({ length: params.users }, (_, i) => {
    const taste = new Map<string, number>();
    const k = r.weighted([[1, 3], [2, 4], [3, 2]] as const);
    for (let j = 0; j < k; j++) taste.set(pickCategory(), 0.3 + r.next());
    for (const c of CATEGORIES) if (!taste.has(c)) taste.set(c, 0.05);
    const home = r.pick(neighbourhoods);
    const days = new Set([r.int(0, 6), r.int(0, 6), r.next() < 0.5 ? 5 : 6]);
    const evening = r.next() < 0.7;
    return { id: `u${i + 1}`, taste, home, tolerance: params.meanTolerance * Math.exp(gauss() * 0.5), days, evening, activity: params.meanWeeklyPicks * Math.exp(gauss() * 0.8), visits: new Map<string, number>(), friends: [] as number[] };
  });
  for (let i = 0; i < users.length; i += 4) {
    const group = [i, i + 1, i + 2, i + 3].filter((x) => x < users.length);
    for (const g of group) users[g]!.friends = group.filter((x) => x !== g);
  }

  const actions: GenAction[] = [];
  const went = new Set<string>();
  const byWeek = new Map<number, GeneratedLog['events']>();
  for (const e of events) {
    const w = Math.floor((e.start - start) / (7 * DAY));
    if (!byWeek.has(w)) byWeek.set(w, []);
    byWeek.get(w)!.push(e);
  }
  const localHour = (t: number) => new Date(t + params.utcOffsetMin * 60_000).getUTCHours();
  const localDay = (t: number) => new Date(t + params.utcOffsetMin * 60_000).getUTCDay();
  const commit = (u: (typeof users)[number], e: GeneratedLog['events'][number]) => {
    const key = `${u.id}|${e.id}`;
    if (went.has(key)) return;
    went.add(key);
    const announced = e.start - params.announceDays * DAY;
    const lead = -Math.log(r.next() + 1e-9) * params.meanLeadDays * DAY;
    const saveAt = Math.max(announced + 3600_000, e.start - lead);
    actions.push({ userId: u.id, eventId: e.id, kind: 'view', at: saveAt - r.int(1, 600) * 60_000 });
    actions.push({ userId: u.id, eventId: e.id, kind: 'favorite', at: saveAt });
    if (r.next() < params.checkInRate) actions.push({ userId: u.id, eventId: e.id, kind: 'checkin', at: e.start + r.int(0, 60) * 60_000 });
    u.visits.set(e.venue, (u.visits.get(e.venue) ?? 0) + 1);
  };
  for (let w = 0; w < params.weeks; w++) {
    const week = byWeek.get(w) ?? [];
    for (const u of users) {
      const picks = poisson(u.activity);
      if (!picks || !week.length) continue;
      const odds = week.map((e) => {
        const h = localHour(e.start);
        const hourFit = (h >= 17) === u.evening ? params.habitHour : 1;
        const dayFit = u.days.has(localDay(e.start)) ? params.habitDay : 1;
        const loyalty = 1 + params.venueLoyalty * Math.min(4, u.visits.get(e.venue) ?? 0);
        return (u.taste.get(e.category) ?? 0.05) ** params.tasteAlpha * Math.exp(-km(u.home, e as { lat: number; lng: number }) / u.tolerance) * hourFit * dayFit * loyalty * Math.sqrt(1 + e.rsvps);
      });
      const total = odds.reduce((a, b) => a + b, 0);
      for (let p = 0; p < picks; p++) {
        let x = r.next() * total;
        let i = 0;
        while (i < odds.length - 1 && (x -= odds[i]!) > 0) i++;
        const e = week[i]!;
        commit(u, e);
        for (const f of u.friends) if (r.next() < params.friendsJoin) commit(users[f]!, e);
        // Browsing: pages looked at and left.
        for (let b = poisson(params.browseNoise); b > 0; b--) {
          const o = r.pick(week);
          actions.push({ userId: u.id, eventId: o.id, kind: 'view', at: o.start - r.int(1, 10) * DAY });
        }
      }
    }
  }
  actions.sort((a, b) => a.at - b.at);
  return { label: 'GENERATED', start, events, actions, users: users.map((u) => u.id) };
}
