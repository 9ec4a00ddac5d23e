import { createHash, randomUUID } from 'node:crypto';
import { dateFormat } from '../../../../contract/time.ts';
import type { Classification } from '../classifier/classifier.ts';
import type { EventItemFields, EventUpdate, LinkedEvent, NearbyEvent, RunEventRow, RunLinkRow } from '../sources.repository.ts';
import { compareEvents, eventPageKey, START_WINDOW_MS, titleRelation, placeRelation, type Comparable } from './dedupe.ts';
import { eventPatch, newEventRow } from './event-row.ts';
import { sameFilled, type Filled } from './merge-fill.ts';
import { venueKey, venuePlaceOf, type NormalisedEvent } from './normalise.ts';

// A run, planned without the database: what to insert, update and propose, given what the
// source linked before and the listed events near the new items' starts. The service loads
// that state in the run's transaction, calls planRun, and writes the plan in bulk.

export interface RunCounts {
  created: number;
  updated: number;
  merged: number;
  rejected: number;
  /** Titles of the cancelled items no event was listed for (counted in `rejected`). */
  cancelledUnlisted: string[];
  /** Titles of the events the source now says are cancelled (counted in `updated`). */
  cancelled: string[];
  /** Titles of the events removed or cancelled before that the source lists again (counted in `updated`). */
  relisted: string[];
  /** Titles of the postponed items no event was listed for (counted in `rejected`). */
  postponedUnlisted: string[];
  /** Titles of the events the source now says are postponed, with no new date yet (counted in `updated`). */
  postponed: string[];
  /** Titles of this source's records merged into another source's event that it now says are cancelled or postponed (counted in `updated`). */
  calledOffMerged: string[];
}

export interface RunSource {
  id: string;
  name: string;
  sourceType: string;
  trusted: boolean;
  isDemo: boolean;
}

/** Two events that may be one, for an admin to decide; `a` < `b`. */
export interface ProposedPair {
  eventA: string;
  eventB: string;
  kind: 'cross_source' | 'same_source';
  score: number;
  reason: string;
}

export interface RunState {
  source: RunSource;
  now: Date;
  /** The source's links: item id -> event id and the hash of the item as last applied. */
  links: Map<string, { eventId: string; contentHash: string | null }>;
  /** The listed events the source already lists (directly, or through a record merged into them). */
  listedBySource: ReadonlySet<string>;
  linked: Map<string, LinkedEvent>;
  /** Listed events near the starts of the items that may need a match (see slotWindows). */
  nearby: NearbyEvent[];
  /** Each item's itemHash, when the service has worked them out already (by external id). */
  hashes?: ReadonlyMap<string, string>;
  /** Links moved to the ids their items have now, [old id, new id] (reidentify); `links` has them under the new. */
  relinked?: readonly (readonly [string, string])[];
  /** Known venues by venueKey. */
  venues: Map<string, string>;
  classify: (n: NormalisedEvent) => Classification;
  approveConfidence: number;
  /** The score above which admins' decisions say a proposed cross-source pair is one event; null: never. */
  mergeThreshold: number | null;
}

export interface RunPlan {
  newVenues: { id: string; name: string; address: string | null; neighbourhood: string | null; lat: number | null; lng: number | null }[];
  newEvents: RunEventRow[];
  newLinks: RunLinkRow[];
  updates: EventUpdate[];
  /** The rows among `updates` the source lists again after it dropped, cancelled or postponed them. */
  relistedIds: string[];
  /**
   * Listed events the source moved (a start, a title, a place) onto another source's listing of
   * the same event, beyond doubt as on arrival: to be merged, the one listed first kept.
   */
  movedOnto: { id: string; onto: string; title: string }[];
  seen: { externalId: string; contentHash: string }[];
  pairs: ProposedPair[];
  announce: { id: string; action: 'created' | 'updated' | 'removed' }[];
  /**
   * What people who saved a listed event need to hear: the source cancelled or postponed it, lists
   * it again after it said it was cancelled or postponed, or moved its start.
   */
  news: SavedEventNews[];
  counts: RunCounts;
}

export type SavedEventNews = {
  id: string;
  title: string;
  allDay: boolean;
  /** The source, named when it is one of several (its record was merged into the event): it speaks for itself, not for the event. */
  by?: string;
} & (
  | { kind: 'cancelled' | 'postponed'; start: Date }
  /** Listed again after the source said it was cancelled, or (`after`) postponed; `start` is its time now. */
  | { kind: 'relisted'; start: Date; after?: 'postponed' }
  | { kind: 'moved'; from: Date; to: Date }
  /** A date of a series its source dropped while it still lists the series (an EXDATE, a shorter rule): a deliberate removal. */
  | { kind: 'dropped'; start: Date }
  /**
   * A record merged into the saved event no longer agrees with it (its source moved it, or the
   * event's own source did) and is listed on its own again: `start` is the record's, `was` the
   * saved event's; the notification opens the record (`opens`).
   */
  | { kind: 'apart'; start: Date; was: Date; opens: string }
);

/** An item id as parsers build one for an occurrence (or an item with no id of its own): its series' id and its start as first given. */
const OCCURRENCE_ID = /^(.+)@(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{3})?Z)$/;
/** The series an item id names an occurrence of (OCCURRENCE_ID), or null. */
export const occurrenceSeries = (externalId: string): string | null => OCCURRENCE_ID.exec(externalId)?.[1] ?? null;
const dayIn = (d: Date, timeZone: string) => dateFormat('en-CA', timeZone, { year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);

/**
 * The items of a run that are events the source listed before under another id, by the old id:
 * - an occurrence of a series (or an item with no id of its own) whose time the source moved: its
 *   id names its start, so every date of a series moved an hour has a new id. It is the old
 *   occurrence of the same series on the same day, one the run no longer has (the nearest, if two);
 * - an item the source republished under a new id (a new UID, a new RSS guid) with the same page
 *   of its own (eventPageKey) as one old item the run no longer has, no other item sharing it.
 * Otherwise whoever saved each date would find it "removed by the source", told nothing, while the
 * same event is listed anew under another id.
 */
export function reidentify(items: readonly NormalisedEvent[], links: ReadonlyMap<string, { url: string | null }>): Map<string, string> {
  const inRun = new Set(items.map((n) => n.externalId));
  const missing = [...links.keys()].filter((id) => !inRun.has(id));
  const found = new Map<string, string>();
  if (!missing.length) return found;
  const claimed = new Set<string>();
  const bySeries = new Map<string, { id: string; at: Date }[]>();
  for (const id of missing) {
    const m = OCCURRENCE_ID.exec(id);
    if (!m) continue;
    const list = bySeries.get(m[1]!) ?? [];
    list.push({ id, at: new Date(m[2]!) });
    bySeries.set(m[1]!, list);
  }
  const fresh = items.filter((n) => !links.has(n.externalId)).sort((a, b) => a.start.getTime() - b.start.getTime());
  for (const n of fresh) {
    const m = OCCURRENCE_ID.exec(n.externalId);
    if (!m) continue;
    const at = new Date(m[2]!);
    const day = dayIn(at, n.timeZone);
    const best = (bySeries.get(m[1]!) ?? [])
      .filter((o) => !claimed.has(o.id) && dayIn(o.at, n.timeZone) === day)
      .sort((x, y) => Math.abs(x.at.getTime() - at.getTime()) - Math.abs(y.at.getTime() - at.getTime()))[0];
    if (!best) continue;
    claimed.add(best.id);
    found.set(n.externalId, best.id);
  }
  // Republished: one old item and one new one with the same page of an event.
  const oldByPage = new Map<string, string[]>();
  for (const id of missing) {
    if (claimed.has(id)) continue;
    const page = eventPageKey(links.get(id)?.url);
    if (page) oldByPage.set(page, [...(oldByPage.get(page) ?? []), id]);
  }
  const newByPage = new Map<string, string[]>();
  for (const n of fresh) {
    if (found.has(n.externalId)) continue;
    const page = eventPageKey(n.url);
    if (page) newByPage.set(page, [...(newByPage.get(page) ?? []), n.externalId]);
  }
  for (const [page, ids] of newByPage) {
    const old = oldByPage.get(page);
    if (ids.length === 1 && old?.length === 1) found.set(ids[0]!, old[0]!);
  }
  return found;
}

/** Whether the source says an item will not take place at its date: cancelled, or postponed with no new date yet. */
const offBySource = (n: NormalisedEvent) => n.cancelled || n.postponed;

/** What a source says about one item; a run compares it with the hash stored on the link. */
export function itemHash(n: NormalisedEvent): string {
  const fields = [n.title, n.description, n.start.toISOString(), n.end.toISOString(), n.allDay, n.venueName, n.address, n.neighbourhood, n.lat, n.lng, n.price, n.isFree, n.imageUrl, n.url];
  // Hashed only when set, so that items without a range or note keep the hash they had before these fields
  // existed (and an admin's edit of them stays); items whose reading changed are applied again.
  if (n.priceMax !== null || n.priceNote !== null) fields.push(n.priceMax, n.priceNote);
  return createHash('sha1').update(JSON.stringify(fields)).digest('base64url');
}

type Status = NearbyEvent['status'];
const slotOf = (d: Date) => Math.floor(d.getTime() / START_WINDOW_MS);

/**
 * The [from, to) windows to read for items that may need a match (new ones, those that arrive
 * cancelled or postponed included: each may be one with a listed event): their slot and the ones
 * either side, merged.
 */
export function slotWindows(items: readonly NormalisedEvent[], isLinked: (n: NormalisedEvent) => boolean): { from: Date; to: Date }[] {
  const slots = [...new Set(items.filter((i) => !isLinked(i)).map((i) => slotOf(i.start)))].sort((a, b) => a - b);
  const windows: { from: Date; to: Date }[] = [];
  for (const k of slots) {
    const last = windows[windows.length - 1];
    const from = (k - 1) * START_WINDOW_MS;
    const to = (k + 2) * START_WINDOW_MS;
    if (last && last.to.getTime() >= from) last.to = new Date(to);
    else windows.push({ from: new Date(from), to: new Date(to) });
  }
  return windows;
}

/**
 * Whether a source's item may move a listed event of it elsewhere (another start, title or place):
 * what a run must match again (matchMoved). Records merged into another event never are.
 */
export function listedMayMove(old: LinkedEvent, n: NormalisedEvent): boolean {
  if (old.status !== 'approved' && old.status !== 'pending') return false;
  return old.startDate.getTime() !== n.start.getTime() || old.title !== n.title || old.venueName !== n.venueName || old.address !== n.address || old.lat !== n.lat || old.lng !== n.lng;
}

/** Whether any field of `next` differs from `old` (dates by their instant). */
function changed<T extends object>(old: T, next: Partial<T>) {
  return (Object.keys(next) as (keyof T)[]).some((k) => {
    const a = old[k];
    const b = next[k];
    if (a instanceof Date && b instanceof Date) return a.getTime() !== b.getTime();
    // What a merge filled (events.filled): the same fields and values, in whatever key order.
    if (a && b && typeof a === 'object' && typeof b === 'object') return !sameFilled(a as Filled, b as Filled);
    return a !== b;
  });
}

const comparable = (e: NearbyEvent): Comparable => ({ title: e.title, start: e.startDate, venueName: e.venueName, venueId: e.venueId, address: e.address, lat: e.lat, lng: e.lng, geoApprox: e.geoApprox, url: e.url });

/** What tells a copy apart by its words: the md5 of its description, as PostgreSQL's md5() gives it. */
export const descriptionKey = (description: string) => createHash('md5').update(description, 'utf8').digest('hex');

type Matchable = Comparable & { id: string; status: Status; descriptionKey: string };

/** Listed events bucketed by 30-minute slot, each marked when the run's source already lists it. */
function createMatcher(nearby: readonly NearbyEvent[], listedBySource: ReadonlySet<string>) {
  type Entry = { e: Matchable; mine: boolean };
  const buckets = new Map<number, Entry[]>();
  const byId = new Map<string, Entry>();
  const add = (e: Matchable, mine: boolean) => {
    const entry = { e, mine };
    const k = slotOf(e.start);
    const list = buckets.get(k);
    if (list) list.push(entry);
    else buckets.set(k, [entry]);
    byId.set(e.id, entry);
  };
  for (const e of nearby) add({ id: e.id, status: e.status, descriptionKey: e.descriptionKey, ...comparable(e) }, listedBySource.has(e.id));

  return {
    /** An event this run creates: its source lists it. */
    add: (e: Matchable) => add(e, true),
    /** The run's source now lists an event (through a record merged into it). */
    markMine(eventId: string) {
      const entry = byId.get(eventId);
      if (entry) entry.mine = true;
    },
    /** An event of the run's source it now gives another start, title or place: found where it is now. */
    move(e: Matchable) {
      const entry = byId.get(e.id);
      if (entry) {
        const list = buckets.get(slotOf(entry.e.start));
        if (list) list.splice(list.indexOf(entry), 1);
      }
      add(e, true);
    },
    /**
     * The listed event an item is one with (the best 'same'), and the pairs to propose. An event
     * the same source already lists is never a match: a source knows its own events; an exact
     * copy under another id is only proposed. A record that would be listed on its own is not
     * merged into an event that is not (waiting for review, or turned down): that would hide it;
     * the pair is proposed instead, never to be merged by the learned threshold.
     */
    match(n: Comparable & { id: string; descriptionKey: string }, status: Status) {
      const k = slotOf(n.start);
      let best: { id: string; score: number } | undefined;
      // `adminOnly`: never merged by the threshold admins' decisions train (an unlisted event, a variant title).
      const possible: { id: string; score: number; reason: string; kind: ProposedPair['kind']; adminOnly?: true }[] = [];
      for (const key of [k - 1, k, k + 1]) {
        for (const { e, mine } of buckets.get(key) ?? []) {
          if (e.id === n.id) continue;
          if (mine) {
            // An exact copy: the same words too (two rooms of one venue, each its own item, say what each is).
            if (e.start.getTime() === n.start.getTime() && titleRelation(e.title, n.title) === 'equal' && placeRelation(e, n) === 'same' && e.descriptionKey === n.descriptionKey) {
              possible.push({ id: e.id, score: 1, reason: 'listed twice by one source under two ids', kind: 'same_source' });
            }
            continue;
          }
          const c = compareEvents(n, e);
          if (c.verdict === 'same' && status === 'approved' && e.status !== 'approved') {
            possible.push({ id: e.id, score: c.score, reason: `${c.reason}; kept apart, as the other ${e.status === 'pending' ? 'waits for review' : 'was turned down'}`, kind: 'cross_source', adminOnly: true });
          } else if (c.verdict === 'same' && (!best || c.score > best.score)) best = { id: e.id, score: c.score };
          else if (c.verdict === 'possible') possible.push({ id: e.id, score: c.score, reason: c.reason, kind: 'cross_source', ...(c.adminOnly ? { adminOnly: true as const } : {}) });
        }
      }
      return { best, possible };
    },
  };
}

const ordered = (x: string, y: string) => (x < y ? [x, y] : [y, x]) as [string, string];

/**
 * Plans one run: items the source linked before are updated when their content changed (or
 * marked gone when cancelled or postponed); new items become events, or records merged into the
 * listed event they are one with; pairs with thinner evidence are proposed to admins and both stay
 * listed.
 */
export function planRun(items: readonly NormalisedEvent[], state: RunState): RunPlan {
  const { source, now } = state;
  const plan: RunPlan = { newVenues: [], newEvents: [], newLinks: [], updates: [], relistedIds: [], movedOnto: [], seen: [], pairs: [], announce: [], news: [], counts: { created: 0, updated: 0, merged: 0, rejected: 0, cancelledUnlisted: [], cancelled: [], relisted: [], postponedUnlisted: [], postponed: [], calledOffMerged: [] } };
  const matcher = createMatcher(state.nearby, state.listedBySource);
  const venueIds = new Map(state.venues);
  // By event id: when two items link one event, the last one's values win, as they would one by one.
  const updates = new Map<string, EventUpdate>();
  const proposed = new Set<string>();
  const link = (eventId: string, n: NormalisedEvent, hash: string): RunLinkRow => ({
    eventId,
    sourceType: source.sourceType,
    url: n.url ?? '',
    name: source.name,
    externalId: n.externalId,
    sourceId: source.id,
    seenAt: now,
    contentHash: hash,
  });

  const venueOf = (n: NormalisedEvent): string | null => {
    if (!n.venueName) return null;
    const key = venueKey(n.venueName);
    if (!key) return null;
    let id = venueIds.get(key);
    if (!id) {
      id = randomUUID();
      venueIds.set(key, id);
      plan.newVenues.push({ id, name: n.venueName, ...venuePlaceOf(n) });
    }
    return id;
  };
  /**
   * The venue an update's venue name is at: the one it had while the name stays (an admin's
   * correction, or a name a merge filled), else the source's new one.
   */
  const venueAfter = (old: LinkedEvent, venueName: string, n: NormalisedEvent): string | null =>
    venueName === old.venueName ? old.venueId : venueName === n.venueName ? venueOf(n) : (venueIds.get(venueKey(venueName)) ?? null);

  /** The listed event a match is one with: dedup's best 'same', or a pair admins' decisions have shown to be one. */
  const matchedInto = ({ best, possible }: ReturnType<typeof matcher.match>): string | null => {
    const learned = state.mergeThreshold === null ? undefined : possible.filter((p) => p.kind === 'cross_source' && !p.adminOnly && p.score >= state.mergeThreshold!).sort((x, y) => y.score - x.score)[0];
    return best?.id ?? learned?.id ?? null;
  };
  /** Proposes to admins the pairs a match found, each once. */
  const propose = (id: string, possible: ReturnType<typeof matcher.match>['possible']) => {
    for (const p of possible) {
      const [a, b] = ordered(id, p.id);
      const key = `${a}:${b}`;
      if (proposed.has(key)) continue;
      proposed.add(key);
      plan.pairs.push({ eventA: a, eventB: b, kind: p.kind, score: p.score, reason: p.reason });
    }
  };

  /**
   * Who hears what the source says of `old`: the savers of the listed event itself, or, for a record
   * merged into another event, that event's savers, told which source says it (another may still list it).
   */
  const heardBy = (old: LinkedEvent): { id: string; by?: string } | null =>
    old.status === 'approved' ? { id: old.id } : old.status === 'merged' && old.mergedInto ? { id: old.mergedInto, by: source.name } : null;
  /** Back on after the source said it was cancelled or postponed (at its new time, if it moved too). */
  const relistedNews = (old: LinkedEvent, title: string, allDay: boolean, start: Date): SavedEventNews[] => {
    const to = heardBy(old);
    if (!to) return [];
    return old.cancelledBySource ? [{ ...to, title, allDay, kind: 'relisted', start }] : old.postponedBySource ? [{ ...to, title, allDay, kind: 'relisted', start, after: 'postponed' }] : [];
  };

  /**
   * A listed event of the source that it gives another start, title or place: matched where it
   * is now, as a new item would be. One with another source's listing beyond doubt (a record split
   * off when its source moved it, moved back) is merged after the update; thinner evidence is
   * proposed to admins.
   */
  const matchMoved = (old: LinkedEvent, next: EventItemFields & { venueId: string | null }) => {
    const place = ['title', 'venueName', 'venueId', 'address', 'lat', 'lng', 'geoApprox'] as const;
    if (next.startDate.getTime() === old.startDate.getTime() && place.every((k) => next[k] === old[k])) return;
    const me = { id: old.id, status: old.status as Status, descriptionKey: descriptionKey(next.description), title: next.title, start: next.startDate, venueName: next.venueName, venueId: next.venueId, address: next.address, lat: next.lat, lng: next.lng, geoApprox: next.geoApprox, url: next.sourceUrl };
    matcher.move(me);
    const match = matcher.match(me, me.status);
    const onto = matchedInto(match);
    if (onto) plan.movedOnto.push({ id: old.id, onto, title: next.title });
    else propose(old.id, match.possible);
  };

  const applyLinked = (n: NormalisedEvent, eventId: string, hash: string) => {
    plan.seen.push({ externalId: n.externalId, contentHash: hash });
    const old = state.linked.get(eventId);
    if (!old) return;
    // The source's item is as last applied: the event keeps what it has (an admin's edit, or
    // another source's newer version), and comes back if it was marked gone.
    if (!offBySource(n) && state.links.get(n.externalId)?.contentHash === hash) {
      // A row stored before an end's origin was recorded learns it from the unchanged item (the
      // hash leaves it out, so an admin's edits of the event stay).
      const endGiven = old.endGiven ?? n.endGiven;
      if (old.goneAt && !updates.has(old.id)) {
        updates.set(old.id, { ...old, endGiven, goneAt: null, cancelledBySource: false, postponedBySource: false, updatedAt: now });
        plan.counts.updated += 1;
        plan.counts.relisted.push(old.title);
        plan.relistedIds.push(old.id);
        if (old.status === 'approved') plan.announce.push({ id: old.id, action: 'updated' });
        plan.news.push(...relistedNews(old, old.title, old.allDay, old.startDate));
      } else if (old.endGiven === null && !updates.has(old.id)) updates.set(old.id, { ...old, endGiven, updatedAt: now });
      return;
    }
    if (offBySource(n)) {
      // Cancelled, or postponed with no new date yet, as the source says: gone, and told apart from
      // an event that only left the feed; with what the source says of it now (a renamed or moved
      // event cancelled at once). The source's latest word wins: postponed, then cancelled, is cancelled.
      const kind = n.cancelled ? 'cancelled' : 'postponed';
      const marks = { cancelledBySource: kind === 'cancelled', postponedBySource: kind === 'postponed' };
      if (!old.goneAt || old.cancelledBySource !== marks.cancelledBySource || old.postponedBySource !== marks.postponedBySource) {
        const patch = eventPatch(n, old);
        updates.set(old.id, { id: old.id, ...patch, venueId: venueAfter(old, patch.venueName, n), goneAt: old.goneAt ?? now, ...marks, updatedAt: now });
        const to = heardBy(old);
        // A record merged into another source's event: that event stays as its own record has it.
        (to?.by ? plan.counts.calledOffMerged : plan.counts[kind]).push(patch.title);
        if (old.status === 'approved') plan.announce.push({ id: old.id, action: 'updated' });
        if (to) plan.news.push({ ...to, title: patch.title, allDay: patch.allDay, kind, start: patch.startDate });
        // The event this record is merged into now says a source calls it off: open pages learn it.
        if (to?.by) plan.announce.push({ id: to.id, action: 'updated' });
        plan.counts.updated += 1;
      }
      return;
    }
    const patch = { ...eventPatch(n, old), venueId: null as string | null };
    patch.venueId = venueAfter(old, patch.venueName, n);
    if (changed<EventItemFields & { venueId: string | null; goneAt: Date | null; cancelledBySource: boolean; postponedBySource: boolean; filled: Filled }>(old, patch)) {
      updates.set(old.id, { id: old.id, ...patch, updatedAt: now });
      if (old.status === 'approved' || old.status === 'pending') matchMoved(old, patch);
      plan.counts.updated += 1;
      if (old.goneAt) {
        plan.counts.relisted.push(patch.title);
        plan.relistedIds.push(old.id);
      }
      // A merged record's move is not the event's (its own record gives the start); its coming back is news.
      const back = relistedNews(old, patch.title, patch.allDay, patch.startDate);
      plan.news.push(...back);
      if (old.status === 'approved') {
        plan.announce.push({ id: old.id, action: 'updated' });
        if (!back.length && patch.startDate.getTime() !== old.startDate.getTime()) plan.news.push({ id: old.id, title: patch.title, allDay: patch.allDay, kind: 'moved', from: old.startDate, to: patch.startDate });
      }
    }
  };

  /**
   * A new item: a new event, or a record merged into the listed event it is one with. An item that
   * arrives saying it is cancelled or postponed (`off`) is never listed: it is kept only as a record
   * of the event it is one with, saying so (its page tells that the sources disagree), or not at all.
   */
  const addNew = (n: NormalisedEvent, hash: string, off?: 'cancelled' | 'postponed') => {
    const id = randomUUID();
    // An item called off only looks its venue up: a venue is added for what is stored.
    const venueId = off ? (n.venueName ? (venueIds.get(venueKey(n.venueName)) ?? null) : null) : venueOf(n);
    const c = state.classify(n);
    const status = source.trusted && c.confidence >= state.approveConfidence ? 'approved' : 'pending';
    const me = { id, status, descriptionKey: descriptionKey(n.description), title: n.title, start: n.start, venueName: n.venueName, venueId, address: n.address, lat: n.lat, lng: n.lng, geoApprox: n.geoApprox, url: n.url } satisfies Matchable;
    const match = matcher.match(me, status);
    const into = matchedInto(match);
    if (off && !into) {
      // Never listed, and not to be: a cancelled item, or a postponed one until the source gives a date.
      plan.counts.rejected += 1;
      plan.counts[off === 'cancelled' ? 'cancelledUnlisted' : 'postponedUnlisted'].push(n.title);
      return;
    }
    plan.newEvents.push(newEventRow(n, { id, now, sourceType: source.sourceType, classification: c, status, venueId: off ? venueOf(n) : venueId, isVerified: source.trusted, isDemo: source.isDemo, mergedInto: into, off }));
    plan.newLinks.push(link(id, n, hash));
    if (into) {
      matcher.markMine(into);
      plan.counts.merged += 1;
      if (off) {
        plan.counts.calledOffMerged.push(n.title);
        plan.news.push({ id: into, by: source.name, title: n.title, allDay: n.allDay, kind: off, start: n.start });
        plan.announce.push({ id: into, action: 'updated' });
      }
      return;
    }
    matcher.add(me);
    propose(id, match.possible);
    plan.counts.created += 1;
    if (status === 'approved') plan.announce.push({ id, action: 'created' });
  };

  for (const n of items) {
    const hash = state.hashes?.get(n.externalId) ?? itemHash(n);
    const linkedId = state.links.get(n.externalId)?.eventId;
    if (linkedId) applyLinked(n, linkedId, hash);
    // Each item id appears once: the service drops repeats before planning.
    else addNew(n, hash, n.cancelled ? 'cancelled' : n.postponed ? 'postponed' : undefined);
  }
  plan.updates = [...updates.values()];
  return plan;
}
