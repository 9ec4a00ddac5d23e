import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { DrizzleQueryError } from 'drizzle-orm';
import type { CityConfig } from '../../../contract/city.ts';
import { SUDDEN_DROP_HOLD_HOURS } from '../../../contract/ingestion.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { AppError, conflict, invalid, notFound } from '../../errors.ts';
import { createAuditRepository } from '../admin/audit.repository.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import type { LlmClient } from '../../lib/llm.ts';
import { classify, classifyFeed, type Classification, type ClassifierInput } from './classifier/classifier.ts';
import { APPROVE_CONFIDENCE, classifyWithLlm, refineWithLlm, type LlmClassifyLog } from './classifier/llm-classify.ts';
import { CONNECTORS } from './connectors/index.ts';
import { SourceError, SourceUnreachable, type CandidateEvent, type ConnectorContext, type SafeFetch, type SourceSpec } from './ingestion.types.ts';
import { createEventsRepository } from '../events/events.repository.ts';
import { createDuplicatesRepository } from './duplicates.repository.ts';
import { compareEvents, setCityWords } from './pipeline/dedupe.ts';
import { newEventRow } from './pipeline/event-row.ts';
import { itemHash, listedMayMove, occurrenceSeries, planRun, reidentify, slotWindows, type ProposedPair, type RunPlan, type RunState } from './pipeline/plan-run.ts';
import { knownVenues, LISTING_HORIZON_DAYS, normalise, venueKey, venuePlaceOf, type KnownVenues, type NormalisedEvent } from './pipeline/normalise.ts';
import { createRunNotes, NOTE_EXAMPLES, noteCount, SKIP, type RunNote } from './run-notes.ts';
import { createSourcesRepository, type NearbyEvent, type SourceRow, type SourcesRepository } from './sources.repository.ts';
import { publishSavedEventNews, tellSavers } from './saved-event-news.ts';

/** Recurring rules are expanded this far ahead; one-off events are kept up to LISTING_HORIZON_DAYS. */
export const HORIZON_DAYS = 180;
export const MAX_OCCURRENCES = 500;
// Trusted sources' events at or above APPROVE_CONFIDENCE are approved on arrival; it is defined
// next to the language-model threshold that follows it.
export { APPROVE_CONFIDENCE };

export interface RunSummary {
  status: 'success' | 'not_modified' | 'error';
  fetched: number;
  created: number;
  updated: number;
  merged: number;
  rejected: number;
  /** Entries of the feed parsing could not use (the `skipped` notes). */
  skipped: number;
  errors: number;
  error?: string;
  /** What the run could not use, by reason (run-notes.ts). */
  notes: RunNote[];
}

/** How an admin reads the reasons normalisation gives for refusing an item. */
const REFUSED: Record<string, string> = {
  'no title': SKIP.noTitle,
  'no valid start': SKIP.noStart,
  'already ended': 'had already ended',
  'beyond the horizon': `had a start more than ${LISTING_HORIZON_DAYS} days ahead, beyond the listing horizon: not listed yet, listed by a later run once within it`,
};

export const toSpec = (s: SourceRow): SourceSpec => ({
  id: s.id,
  name: s.name,
  connector: s.connector as SourceSpec['connector'],
  url: s.url,
  sourceType: s.sourceType,
  config: s.config,
  etag: s.etag,
  lastModified: s.lastModified,
});

export { itemHash };

/** Where a contribution came from, kept as its source link. */
export interface ContributionLink {
  url: string;
  name: string;
}

/** A contribution that cannot be listed (already ended, beyond the horizon, no valid start): 400 with the reason. */
export class NotContributable extends AppError {
  constructor(readonly reason: string) {
    super(400, 'invalid', `The event cannot be listed: ${reason}`);
  }
}

/** What a run that did not read the whole source says of the listed events it did not meet. */
export const UNSEEN_KEPT = 'were listed before and not met by this run, which did not read the whole source; kept listed';
/**
 * At least this many of a source's listed events, and over this share of them, missing at once is
 * held: kept listed until they have been missing for SUDDEN_DROP_HOLD_HOURS, and one run more.
 * A feed served empty or cut short (a failing export, a CDN serving half a file) is usually fixed
 * within hours; a source that runs every few minutes would otherwise confirm it at once.
 */
export const SUDDEN_DROP_MIN = 5;
export const SUDDEN_DROP_SHARE = 0.5;
export { SUDDEN_DROP_HOLD_HOURS };
// Run notes' reasons are written for many ('were ...') and read 'was ...' for one (runNoteReason):
// the rest of each reads right for either count, with no 'they' or 'them' for one entry.
export const SUDDEN_DROP_KEPT = `were missing from this run, most of what the source lists: kept listed until missing for ${SUDDEN_DROP_HOLD_HOURS} hours`;
/** The note an admin's removal of a held sudden drop adds to the run that held it. */
export const REMOVED_BY_ADMIN = 'were removed by an admin, confirmed gone from the source';
/** Runs stored before these reasons were worded for one entry as well keep the words of then: a hold and an admin's removal are still recognised. */
const SUDDEN_DROP_KEPT_AS = [SUDDEN_DROP_KEPT, `were missing from this run, most of what the source lists: kept listed until they have been missing for ${SUDDEN_DROP_HOLD_HOURS} hours`];
const REMOVED_BY_ADMIN_AS = [REMOVED_BY_ADMIN, 'were removed by an admin, who confirmed they are gone from the source'];
/** The listed events a run did not meet and kept listed, and why, from its notes. */
export function heldBy(notes: readonly RunNote[]): { count: number; reason: 'partial-read' | 'sudden-drop' | null } {
  const note = notes.find((n) => n.kind === 'kept' && (n.reason === UNSEEN_KEPT || SUDDEN_DROP_KEPT_AS.includes(n.reason)));
  if (!note) return { count: 0, reason: null };
  return { count: note.count, reason: note.reason === UNSEEN_KEPT ? 'partial-read' : 'sudden-drop' };
}
/** What a run did to events listed before, in its History: removed, cancelled, postponed, listed again. */
export const REMOVED_UNSEEN = 'were no longer in the source: out of lists, each page kept for whoever saved it';
export const CANCELLED_BY_SOURCE = 'were cancelled by the source: out of lists, each marked cancelled for whoever saved it';
export const POSTPONED_BY_SOURCE = 'were postponed by the source: out of lists until it gives a new date, each marked postponed for whoever saved it';
/** Records merged into another source's event that their source calls off: the event stays as the other source has it (its page says they disagree). */
export const CALLED_OFF_MERGED = "were cancelled or postponed by the source, but each is another source's event too: still as that source lists it, its page saying the sources disagree";
/** Events that another source's record took over, listed again by the source that listed them first: back with its details. */
export const HANDED_BACK = 'were back in the source that listed each first, after another source had taken over: listed with its details again';
/** Records merged into another source's event that no longer agree with it (splitMovedApart). */
export const MOVED_APART = "no longer matched another source's listing of the same event (another time or place): merged no more, each listed on its own";
export const RELISTED = 'were back in the source after being removed, cancelled or postponed: listed again';
/** Items the source lists under another id than before, the same events (reidentify): kept, with whoever saved them. */
export const RELINKED = 'were listed by the source under a new id (a series moved to another time, an item published again): each the same event as before, kept for whoever saved it';
/** Listed events the source moved onto another source's listing of the same event (mergeMovedOnto). */
export const MOVED_ONTO = "were moved by the source to the time and place another source lists the same event at: merged with it, each page answering with it";
/** Events whose own record a whole run missed while another source's record of them is merged in: that record takes over (handOver). */
export const HANDED_OVER = 'were no longer in the source, while another source lists the same event: listed with its details';

const classifierInput = (n: NormalisedEvent): ClassifierInput => ({ title: n.title, description: n.description, venue: n.venueName, categories: n.categories });
const CHUNK = 1000;

/**
 * What a failed run tells an admin (its summary, the source's health, the error log): the
 * database's own sentence for a write it refused, not the statement with every value of the run
 * (thousands of characters of events), which is what the query error's message holds.
 */
export function runError(err: unknown): string {
  const db = err instanceof DrizzleQueryError && err.cause instanceof Error ? err.cause.message : null;
  const message = db === null ? (err instanceof Error ? err.message : String(err)) : `Could not store the events: ${db}`;
  return message.length > 300 ? `${message.slice(0, 299)}…` : message;
}

/** Fetch, parse, normalise, deduplicate, classify and store one source's events. */
export function createIngestionService(deps: {
  db: Db;
  clock: Clock;
  city: CityConfig;
  fetch: SafeFetch;
  bus: EventBus;
  /** Asked about low-confidence events when configured (LLM_BASE_URL); null keeps the built-in classifier alone. */
  llm: LlmClient | null;
  log: LlmClassifyLog;
  /** The merge threshold admins' decisions have trained (see duplicates.service). */
  mergeThreshold: (db: Db) => Promise<number | null>;
}) {
  const { db, clock, city, llm } = deps;
  const repo = createSourcesRepository(db);
  const withContext = (context: object): LlmClassifyLog => ({ warn: (obj, msg) => deps.log.warn({ ...context, ...obj }, msg) });
  setCityWords(city.name);

  /** A run's new items (not cancelled or postponed, not linked yet), classified together as one feed. */
  function classifyFresh(items: readonly NormalisedEvent[], isLinked: (n: NormalisedEvent) => boolean) {
    const fresh = items.filter((n) => !n.cancelled && !n.postponed && !isLinked(n));
    const inputs = fresh.map(classifierInput);
    return { fresh, inputs, results: classifyFeed(inputs) };
  }

  /**
   * With a language model, the items a run may create are classified before its transaction and
   * the unsure ones are asked of the model, so no model request is made while the transaction
   * holds the source's lock. Without one, loadRunState classifies them with the links it reads anyway.
   */
  async function classifyWithModel(source: SourceRow, items: NormalisedEvent[]): Promise<Map<string, Classification>> {
    const out = new Map<string, Classification>();
    if (!llm) return out;
    const linked = new Set((await repo.linksOfSource(source.id)).map((l) => l.externalId));
    const { fresh, inputs, results } = classifyFresh(items, (n) => linked.has(n.externalId));
    const refined = await refineWithLlm(inputs, results, { llm, log: withContext({ source: source.name }) });
    fresh.forEach((n, i) => out.set(n.externalId, refined[i]!));
    return out;
  }

  /** Loads what a run compares with, in its transaction: the source's links, their events, listed events near the new items. */
  async function loadRunState(tx: Db, source: SourceRow, items: NormalisedEvent[], classified: Map<string, Classification>): Promise<RunState> {
    const r = createSourcesRepository(tx);
    const linkRows = await r.linksOfSource(source.id);
    const links = new Map(linkRows.map((l) => [l.externalId, { eventId: l.eventId, contentHash: l.contentHash }]));
    // Events the source lists now under another id (a series moved, an item republished): linked as before.
    const relinked = reidentify(items, new Map(linkRows.map((l) => [l.externalId, { url: l.url || null }])));
    for (const [to, from] of relinked) links.set(to, { eventId: links.get(from)!.eventId, contentHash: null });
    if (!classified.size) {
      const { fresh, results } = classifyFresh(items, (n) => links.has(n.externalId));
      fresh.forEach((n, i) => classified.set(n.externalId, results[i]!));
    }
    const linkedIds = [...new Set(items.map((i) => links.get(i.externalId)?.eventId).filter((x): x is string => Boolean(x)))];
    // One after another: a transaction is one connection, which runs one query at a time anyway
    // (pg queues concurrent ones, warns that it is deprecated, and pg 9 drops it).
    const linked = await r.linkedEvents(linkedIds);
    const linkedById = new Map(linked.map((e) => [e.id, e]));
    // New items, and listed events the source moves (matchMoved: one may now be another listing's event).
    const hashes = new Map(items.map((n) => [n.externalId, itemHash(n)]));
    const settled = (n: NormalisedEvent) => {
      const link = links.get(n.externalId);
      if (!link) return false;
      const old = linkedById.get(link.eventId);
      return link.contentHash === hashes.get(n.externalId) || !old || !listedMayMove(old, n);
    };
    const nearby = await r.eventsInWindows(slotWindows(items, settled));
    const venueRows = await r.allVenues();
    const mergeThreshold = await deps.mergeThreshold(tx);
    return {
      source: { id: source.id, name: source.name, sourceType: source.sourceType, trusted: source.trusted, isDemo: source.isDemo },
      now: clock.now(),
      links,
      listedBySource: new Set(linkRows.map((l) => l.listedId)),
      linked: linkedById,
      nearby,
      hashes,
      relinked: [...relinked].map(([to, from]) => [from, to] as const),
      venues: new Map(venueRows.map((v) => [venueKey(v.name), v.id])),
      classify: (n) => classified.get(n.externalId) ?? classify(classifierInput(n)),
      approveConfidence: APPROVE_CONFIDENCE,
      mergeThreshold,
    };
  }

  /**
   * Writes a plan in bulk statements of at most CHUNK rows each, then marks gone the events the
   * run did not meet, unless that may be the run's doing rather than the source's (the note it
   * returns says how many it kept listed, and why):
   * - the run did not read the whole source: after a page limit or the recurrence budget (an
   *   `unread` note), a missing event may simply not have been read;
   * - most of the source's events went missing at once (a feed served empty or cut short for a
   *   while): they stay listed until a run that stores still misses them SUDDEN_DROP_HOLD_HOURS
   *   after the first run that held them.
   */
  async function writePlan(r: SourcesRepository, source: SourceRow, plan: RunPlan, runStart: Date, now: Date, readWhole: boolean): Promise<{ note: RunNote | null; gone: string[]; handOvers: HandOver[] }> {
    const chunks = async <T>(rows: T[], write: (rows: T[]) => Promise<unknown>) => {
      for (let i = 0; i < rows.length; i += CHUNK) await write(rows.slice(i, i + CHUNK));
    };
    await chunks(plan.newVenues, r.insertVenues);
    // Records merged on arrival point at events listed before them: canonical rows go first.
    await chunks(plan.newEvents.filter((e) => !e.mergedInto), r.insertRunEvents);
    await chunks(plan.newEvents.filter((e) => e.mergedInto), r.insertRunEvents);
    await chunks(plan.newLinks, r.insertRunLinks);
    await chunks(plan.updates, r.updateEvents);
    await r.touchLinks(source.id, plan.seen, now);
    const unseen = await r.countUnseen(source.id, runStart, now);
    // Events another source still lists (handOverDropped) are missing from the feed all the same:
    // a feed served cut short holds them back with the rest.
    const handOvers = readWhole ? await r.handOverCandidates(source.id, runStart, now) : [];
    const missing = unseen + handOvers.length;
    if (missing === 0) return { note: null, gone: [], handOvers: [] };
    if (!readWhole) return { note: { kind: 'kept', reason: UNSEEN_KEPT, count: unseen, examples: [] }, gone: [], handOvers: [] };
    if (missing >= SUDDEN_DROP_MIN) {
      const listed = (await r.countListedOnlyBy(source.id, now)) + (handOvers.length ? (await r.handOverCandidates(source.id, null, now)).length : 0);
      if (missing > SUDDEN_DROP_SHARE * listed) {
        const since = await r.heldSince(source.id, SUDDEN_DROP_KEPT_AS);
        if (!since || now.getTime() - since.getTime() < SUDDEN_DROP_HOLD_HOURS * 3600_000) return { note: { kind: 'kept', reason: SUDDEN_DROP_KEPT, count: missing, examples: [] }, gone: [], handOvers: [] };
      }
    }
    // Open lists drop them at once, as they show a new or changed event.
    const gone = await r.markGone(source.id, runStart, now);
    for (const e of gone) if (e.status === 'approved') plan.announce.push({ id: e.id, action: 'updated' });
    const note: RunNote | null = gone.length ? { kind: 'removed', reason: REMOVED_UNSEEN, count: gone.length, examples: gone.slice(0, NOTE_EXAMPLES).map((e) => e.title) } : null;
    return { note, gone: gone.map((e) => e.id), handOvers };
  }

  /**
   * Events listed through this source's record that its whole run no longer lists, while another
   * source's record merged into them still does: that record takes each over (its details, its
   * listing), and whoever saved the event hears of a new start. Returns their titles.
   */
  async function handOverDropped(tx: Db, handOvers: readonly HandOver[], now: Date, plan: RunPlan, eventGone = true): Promise<string[]> {
    const pairs = createDuplicatesRepository(tx);
    const reads = createEventsRepository(tx);
    const titles: string[] = [];
    for (const { eventId, recordId } of handOvers) {
      const [before] = await reads.findByIds([eventId]);
      if (!before || !(await pairs.handOver(eventId, recordId, now, eventGone))) continue;
      const [after] = await reads.findByIds([recordId]);
      titles.push(before.event.title);
      plan.announce.push({ id: eventId, action: 'updated' }, { id: recordId, action: 'updated' });
      if (after && after.event.startDate.getTime() !== before.event.startDate.getTime()) {
        plan.news.push({ id: recordId, title: after.event.title, allDay: after.event.allDay, kind: 'moved', from: before.event.startDate, to: after.event.startDate });
      }
    }
    return titles;
  }

  type HandOver = Awaited<ReturnType<SourcesRepository['handOverCandidates']>>[number];

  /**
   * Events this run's source says are cancelled or postponed while another source's record merged
   * into them still lists them: that record takes each over, as for an event the source dropped,
   * so the event stays listed whichever source's record it was, its page saying the sources
   * disagree (this source's record, merged into it, says what it says). Savers hear it as this
   * source's word, and History notes it with the records called off.
   */
  async function handOverCalledOff(tx: Db, r: SourcesRepository, source: SourceRow, plan: RunPlan, now: Date): Promise<void> {
    const ids = plan.updates.filter((u) => u.goneAt && (u.cancelledBySource || u.postponedBySource)).map((u) => u.id);
    const candidates = await r.calledOffCandidates(source.id, ids, now);
    if (!candidates.length) return;
    const titles = await handOverDropped(tx, candidates, now, plan);
    const handed = new Set(candidates.map((c) => c.eventId));
    plan.news = plan.news.map((n) => (handed.has(n.id) && (n.kind === 'cancelled' || n.kind === 'postponed') && !n.by ? { ...n, by: source.name } : n));
    for (const title of titles) {
      for (const list of [plan.counts.cancelled, plan.counts.postponed]) {
        const i = list.indexOf(title);
        if (i >= 0) {
          list.splice(i, 1);
          break;
        }
      }
      plan.counts.calledOffMerged.push(title);
    }
  }

  /**
   * Records merged into an event that no longer agree with it once the run has written what its
   * source says now (a start moved beyond the merge window, another place, a title that tells them
   * apart: dedup's 'different'), on either side: each is listed on its own again, as it was before
   * its merge, so neither date is hidden behind the other. Whoever saved the event hears of the
   * other time. Returns their titles.
   */
  async function splitMovedApart(tx: Db, plan: RunPlan, now: Date): Promise<string[]> {
    const pairs = createDuplicatesRepository(tx);
    const titles: string[] = [];
    for (const { event, record } of await pairs.liveMergedPairs(plan.updates.map((u) => u.id))) {
      if (compareEvents(record, event).verdict !== 'different') continue;
      await pairs.restoreMerged(event.id, now, record.id);
      await pairs.fillFromMergedRecords([event.id, record.id]);
      titles.push(record.title);
      plan.announce.push({ id: event.id, action: 'updated' }, { id: record.id, action: 'created' });
      // What the run told of the record as one of the event's sources is told of it apart instead.
      plan.news = plan.news.filter((n) => !(n.id === event.id && n.by === record.sourceName));
      if (record.premergeStatus === 'approved') {
        plan.news.push({ id: event.id, by: record.sourceName, title: record.title, allDay: record.allDay, kind: 'apart', start: record.start, was: event.start, opens: record.id });
      }
    }
    return titles;
  }

  /**
   * Dates a run marked gone that belong to a series the source still lists (an EXDATE, a rule cut
   * short): removed on purpose, so whoever saved one hears it ('dropped').
   */
  async function tellDroppedDates(r: SourcesRepository, source: SourceRow, items: readonly NormalisedEvent[], gone: readonly string[], plan: RunPlan) {
    const series = new Set(items.map((n) => occurrenceSeries(n.externalId)).filter((x): x is string => x !== null));
    if (!series.size || !gone.length) return;
    for (const e of await r.linkedItemsOf(source.id, gone)) {
      const of = occurrenceSeries(e.externalId);
      if (of && series.has(of)) plan.news.push({ id: e.id, title: e.title, allDay: e.allDay, kind: 'dropped', start: e.start });
    }
  }

  /**
   * Listed events the source moved onto another source's listing of the same event (plan.movedOnto):
   * merged as a new item would have been, unless an admin kept the two apart. The one listed first
   * is kept (the approved one, if the other waits for review; the one not moved, if both came at
   * once): a record split off when its source moved it, moved back, joins its event again. Both
   * records stay; an admin's split undoes it. Returns their titles.
   */
  async function mergeMovedOnto(tx: Db, plan: RunPlan, now: Date): Promise<string[]> {
    const pairs = createDuplicatesRepository(tx);
    const titles: string[] = [];
    for (const { id, onto, title } of plan.movedOnto) {
      await pairs.lockEvents([id, onto]);
      const [a, b] = [await pairs.findEvent(id), await pairs.findEvent(onto)];
      if (!a || !b || [a, b].some((e) => e.goneAt || (e.status !== 'approved' && e.status !== 'pending'))) continue;
      const decided = await pairs.decisionOn(id, onto);
      if (decided?.status === 'kept_apart') continue;
      // A listed event is never merged into one waiting for review: that would hide it.
      const [target, child] = a.status !== b.status ? (a.status === 'approved' ? [a, b] : [b, a]) : a.createdAt < b.createdAt ? [a, b] : [b, a];
      await pairs.mergeInto(child.id, target.id, now);
      if (decided?.status === 'open') await pairs.decide(decided.id, 'merged', null, now);
      for (const filled of await pairs.fillFromMergedRecords([target.id])) plan.announce.push({ id: filled, action: 'updated' });
      plan.announce.push({ id: child.id, action: 'removed' }, { id: target.id, action: 'updated' });
      titles.push(title);
    }
    return titles;
  }

  /** The run's record in History and the source's health on its card, as the run ended. */
  async function recordRun(r: SourcesRepository, source: SourceRow, trigger: 'schedule' | 'manual' | 'seed', startedAt: Date, summary: RunSummary, read: { etag?: string | null; lastModified?: string | null }) {
    const finishedAt = clock.now();
    await r.insertRun({
      sourceId: source.id,
      startedAt,
      finishedAt,
      status: summary.status,
      trigger,
      fetched: summary.fetched,
      created: summary.created,
      updated: summary.updated,
      merged: summary.merged,
      rejected: summary.rejected,
      skipped: summary.skipped,
      errors: summary.errors,
      errorMessage: summary.error ?? null,
      notes: summary.notes,
    });
    // What a run that stored what it read kept listed; other runs leave the card as it was.
    const held = summary.status === 'success' ? heldBy(summary.notes) : null;
    // An admin changed how the source is read (its URL or config) while the run read it the old
    // way: the next run reads it whole and applies every item again, as after any such change.
    const reading = await r.readingForUpdate(source.id);
    const readTheOldWay = reading !== undefined && (reading.url !== source.url || !isDeepStrictEqual(reading.config, source.config));
    if (readTheOldWay) await r.forgetItemHashes(source.id);
    // Held back: the next run reads the feed whole again rather than hear 'not modified'.
    const validators = readTheOldWay || summary.notes.some((n) => n.reason === SUDDEN_DROP_KEPT) ? { etag: null, lastModified: null } : read;
    await r.update(source.id, {
      lastRunAt: finishedAt,
      ...(summary.status === 'error'
        ? { lastError: summary.error ?? 'failed', consecutiveFailures: source.consecutiveFailures + 1 }
        : { lastSuccessAt: finishedAt, lastError: null, consecutiveFailures: 0, eventsSeen: summary.status === 'success' ? summary.fetched : source.eventsSeen, lastRunSkipped: summary.status === 'success' ? summary.skipped : source.lastRunSkipped, ...(held ? { lastRunHeld: held.count, lastRunHeldReason: held.reason } : {}), ...validators }),
    });
  }

  /**
   * Stores a run's items and, in the same transaction, the run itself (`record`): an admin's
   * "Remove them now", which locks the source too, never lands between the events a run kept
   * and the run that says it kept them.
   */
  async function store(source: SourceRow, items: NormalisedEvent[], runStart: Date, summary: RunSummary, classified: Map<string, Classification>, record: (r: SourcesRepository) => Promise<void>) {
    return db.transaction(async (tx) => {
      const r = createSourcesRepository(tx);
      await r.lockSource(source.id);
      await r.lockMergedTargets(source.id);
      const state = await loadRunState(tx, source, items, classified);
      const plan = planRun(items, state);
      // Before the run marks what it saw: the links are under the ids the items have now.
      await r.relinkItems(source.id, state.relinked ?? []);
      const { note: unseen, gone, handOvers } = await writePlan(r, source, plan, runStart, state.now, !summary.notes.some((n) => n.kind === 'unread'));
      if (unseen) summary.notes.push(unseen);
      await tellDroppedDates(r, source, items, gone, plan);
      const handed = await handOverDropped(tx, handOvers, state.now, plan);
      await handOverCalledOff(tx, r, source, plan, state.now);
      // A source listing again what another source's record took over from it takes it back: the
      // event is as the source that listed it first gives it, that record merged into it, still listed.
      const handedBack = await handOverDropped(tx, await r.handBackCandidates(plan.relistedIds, state.now), state.now, plan, false);
      const apart = await splitMovedApart(tx, plan, state.now);
      const onto = await mergeMovedOnto(tx, plan, state.now);
      const pairs = createDuplicatesRepository(tx);
      const titled = (kind: RunNote['kind'], reason: string, titles: string[]) => {
        if (titles.length) summary.notes.push({ kind, reason, count: titles.length, examples: titles.slice(0, NOTE_EXAMPLES) });
      };
      titled('removed', CANCELLED_BY_SOURCE, plan.counts.cancelled);
      titled('removed', POSTPONED_BY_SOURCE, plan.counts.postponed);
      titled('kept', CALLED_OFF_MERGED, plan.counts.calledOffMerged);
      titled('relisted', RELISTED, plan.counts.relisted);
      titled('kept', HANDED_OVER, handed);
      titled('relisted', HANDED_BACK, handedBack);
      titled('relisted', MOVED_APART, apart);
      const relinkedIds = new Set((state.relinked ?? []).map(([, to]) => to));
      titled('kept', RELINKED, items.filter((n) => relinkedIds.has(n.externalId)).map((n) => n.title));
      titled('kept', MOVED_ONTO, onto);
      for (let i = 0; i < plan.pairs.length; i += CHUNK) await pairs.insertPairs(plan.pairs.slice(i, i + CHUNK), state.now);
      // Records merged on arrival fill what the events they are one with leave blank (a place, a
      // price, ...); records merged before that their source changed fill them anew.
      const targets = [...plan.newEvents.flatMap((e) => (e.mergedInto ? [e.mergedInto] : [])), ...(await pairs.mergedTargets([...plan.updates.map((u) => u.id), ...gone]))];
      const filled = await pairs.fillFromMergedRecords(targets);
      for (const id of filled) plan.announce.push({ id, action: 'updated' });
      summary.created += plan.counts.created;
      summary.updated += plan.counts.updated;
      summary.merged += plan.counts.merged;
      summary.rejected += plan.counts.rejected;
      titled('rejected', 'had been cancelled before any listing', plan.counts.cancelledUnlisted);
      titled('rejected', 'had been postponed before any listing, with no new date yet', plan.counts.postponedUnlisted);
      const told = await tellSavers(tx, plan.news, city, state.now);
      await record(r);
      return { announce: plan.announce, told };
    });
  }

  /** After a run's transaction: open lists show what changed, savers hear of their events. */
  function publishStored({ announce, told }: Awaited<ReturnType<typeof store>>) {
    for (const a of announce) deps.bus.publish('event_update', a);
    publishSavedEventNews(deps.bus, told);
  }

  /** Reads candidates from a URL: schema.org JSON-LD on a page, else iCalendar. */
  async function readUrl(url: string, now: Date) {
    const ctx: ConnectorContext = { fetch: deps.fetch, now, timeZone: city.timeZone, horizonDays: HORIZON_DAYS, listAheadDays: LISTING_HORIZON_DAYS, maxOccurrences: 5 };
    const spec = (connector: 'jsonld' | 'ical'): SourceSpec => ({ id: 'import', name: 'Import', connector, url, sourceType: 'contribution', config: {} });
    const first = /\.ics($|\?)|^webcal:/i.test(url) ? (['ical', 'jsonld'] as const) : (['jsonld', 'ical'] as const);
    let lastError: unknown;
    for (const connector of first) {
      try {
        const result = await CONNECTORS[connector].run(spec(connector), ctx);
        if (result.candidates.length) return result.candidates;
      } catch (err) {
        lastError = err;
      }
    }
    // Not reaching the host is not "no event there": say so, before the refusals below (a refused connection is not a refused address).
    if (lastError instanceof SourceUnreachable) throw invalid(`url: could not reach that address: ${lastError.why}`);
    if (lastError instanceof SourceError && /refused|private|timed out|larger than|HTTP/i.test(lastError.message)) throw invalid(`url: ${lastError.message}`);
    return [];
  }

  type VenueRow = Awaited<ReturnType<SourcesRepository['allVenues']>>[number];
  /**
   * A run's items normalised against the venues known before it and the ones it makes itself. A
   * venue first seen in the run is made from its first item (as the plan makes it), and the other
   * items there take the place they lack (coordinates, address, neighbourhood) from it, as they
   * would on the next run: without this, the next unchanged run rewrote them and announced an
   * update (a real Last.fm calendar: one concert of the venue had no coordinates, the rest did).
   */
  function normaliseRun(candidates: readonly CandidateEvent[], venues: KnownVenues, now: Date): (NormalisedEvent | string)[] {
    const out = candidates.map((c) => normalise(c, { city, now, venues }));
    const learned: KnownVenues = new Map(venues);
    const fresh = new Set<string>();
    for (const n of out) {
      if (typeof n === 'string' || !n.venueName) continue;
      const key = venueKey(n.venueName);
      if (!key || learned.has(key)) continue;
      learned.set(key, venuePlaceOf(n));
      fresh.add(key);
    }
    if (fresh.size === 0) return out;
    return out.map((n, i) => {
      const key = typeof n === 'string' ? '' : venueKey(n.venueName);
      if (typeof n === 'string' || !fresh.has(key)) return n;
      // Normalised again only where the venue has what the item lacks.
      const v = learned.get(key)!;
      const fills = ((n.lat === null || n.geoApprox) && v.lat !== null) || (n.address === null && v.address !== null) || (n.neighbourhood === null && v.neighbourhood !== null);
      return fills ? normalise(candidates[i]!, { city, now, venues: learned }) : n;
    });
  }

  /**
   * A normalised item a member submitted: an event already listed ('same' verdict against the
   * listed events near its start) is answered as is; otherwise it is classified and stored as a
   * pending contribution of theirs, with thin matches proposed to admins as possible duplicates.
   * `within` runs in the same transaction, after the event is stored (or found).
   */
  async function contributeItem<T = undefined>(
    n: NormalisedEvent,
    userId: string,
    link: ContributionLink,
    venueRows: readonly VenueRow[],
    now: Date,
    logContext: object,
    within?: (tx: Db, r: { eventId: string; isNew: boolean }) => Promise<T>,
  ): Promise<{ eventId: string; isNew: boolean; status: NearbyEvent['status']; contributedBy: string | null; extra: T | undefined }> {
    const compared = (await repo.eventsInWindows(slotWindows([n], () => false))).map((e) => ({ e, c: compareEvents(n, { ...e, start: e.startDate }) }));
    const same = compared.find((x) => x.c.verdict === 'same');
    if (same) {
      const r = { eventId: same.e.id, isNew: false };
      return { ...r, status: same.e.status, contributedBy: same.e.contributedBy, extra: within ? await db.transaction((tx) => within(tx, r)) : undefined };
    }
    // Before the transaction: a model request must not hold it open.
    const c = (await classifyWithLlm([classifierInput(n)], { llm, log: withContext(logContext) }))[0]!;
    const id = randomUUID();
    const venueId = (n.venueName && venueRows.find((v) => venueKey(v.name) === venueKey(n.venueName))?.id) || null;
    const row = { ...newEventRow(n, { id, now, sourceType: 'contribution', classification: c, status: 'pending', venueId, isVerified: false, isDemo: false, contributedBy: userId }), sourceUrl: n.url ?? (link.url || null) };
    // Thin evidence against a listed event: both stay, and admins see the pair.
    const pairs: ProposedPair[] = compared
      .filter((x) => x.c.verdict === 'possible')
      .map(({ e, c: cmp }) => ({ eventA: id < e.id ? id : e.id, eventB: id < e.id ? e.id : id, kind: 'cross_source' as const, score: cmp.score, reason: cmp.reason }));
    const extra = await db.transaction(async (tx) => {
      const r = createSourcesRepository(tx);
      await r.insertRunEvents([row]);
      await r.insertRunLinks([{ eventId: id, sourceType: 'contribution', url: link.url, name: link.name, externalId: n.externalId, sourceId: null, seenAt: now, contentHash: null }]);
      await createDuplicatesRepository(tx).insertPairs(pairs, now);
      return within ? within(tx, { eventId: id, isNew: true }) : undefined;
    });
    return { eventId: id, isNew: true, status: 'pending', contributedBy: userId, extra };
  }

  /**
   * Everything members submit (a URL, a flyer, ...) enters through here: the candidate is
   * normalised (400 when it cannot be listed: ended, no valid start, ...), then matched against
   * listed events or stored as a pending contribution (see contributeItem).
   */
  async function contribute<T = undefined>(
    candidate: CandidateEvent,
    userId: string,
    link: ContributionLink,
    within?: (tx: Db, r: { eventId: string; isNew: boolean }) => Promise<T>,
  ): Promise<{ eventId: string; isNew: boolean; status: NearbyEvent['status']; contributedBy: string | null; extra: T | undefined }> {
    const now = clock.now();
    const venueRows = await repo.allVenues();
    const n = normalise(candidate, { city, now, venues: knownVenues(venueRows) });
    if (typeof n === 'string') throw new NotContributable(n);
    if (n.cancelled) throw new NotContributable('cancelled');
    if (n.postponed) throw new NotContributable('postponed, with no new date yet');
    return contributeItem(n, userId, link, venueRows, now, { contribute: link.name }, within);
  }

  /** The event on a member's link (a page's schema.org Event data, or an .ics): matched with one Townbeat has, or sent to review. */
  async function importFromUrl(url: string, userId: string) {
    const now = clock.now();
    const venueRows = await repo.allVenues();
    const venues = knownVenues(venueRows);
    const items = (await readUrl(url, now))
      .map((c) => normalise(c, { city, now, venues }))
      .filter((n): n is NormalisedEvent => typeof n !== 'string' && !n.cancelled && !n.postponed)
      .sort((a, b) => a.start.getTime() - b.start.getTime());
    const n = items[0];
    if (!n) throw invalid('url: no upcoming event was found at that address');
    return contributeItem(n, userId, { url: n.url ?? url, name: 'Contributed by a member' }, venueRows, now, { importUrl: url });
  }

  return {
    /** Whether a language model is configured, and which; for the admin's AI status. */
    languageModel: llm ? { model: llm.model } : null,

    /** Classifies events for the admin: built-in, with the low-confidence ones asked of the model when configured. */
    classify(inputs: readonly ClassifierInput[]): Promise<Classification[]> {
      return classifyWithLlm(inputs, { llm, log: withContext({ classify: inputs.length }) });
    },

    /**
     * A member's contribution: the event at a URL (a page with schema.org Event data, or an
     * .ics link) enters the review queue as theirs; an event already listed is answered as is.
     */
    importFromUrl,

    /**
     * A member's link to an event page: the event goes to review, or the member hears where the
     * event Townbeat already has stands, with its id only when its page is theirs to open.
     */
    async importUrl(url: string, userId: string): Promise<{ eventId: string | null; created: boolean; message: string }> {
      const { eventId, isNew, status, contributedBy } = await importFromUrl(url, userId);
      if (isNew) return { eventId, created: true, message: 'Thanks! Your event was sent for review' };
      const theirs = contributedBy === userId;
      if (status === 'approved') return { eventId, created: false, message: 'This event is already listed on Townbeat' };
      if (status === 'pending') return { eventId: theirs ? eventId : null, created: false, message: theirs ? 'You sent this event already: it is waiting for review' : 'Townbeat already has this event: it is waiting for review' };
      return { eventId: null, created: false, message: 'This event was reviewed before and is not listed' };
    },

    contribute,

    /**
     * An admin confirms a held sudden drop (a venue cleared its season): the listed events the
     * source's last stored run did not meet are marked removed by the source now, rather than once
     * the hold runs out. Never a partial read's: those events may simply be unread. The run's
     * History notes it, and a later run that lists them again brings them back.
     */
    async removeHeld(sourceId: string): Promise<{ removed: number }> {
      if (!(await repo.findById(sourceId))) throw notFound('Source not found');
      const now = clock.now();
      const gone = await db.transaction(async (tx) => {
        const r = createSourcesRepository(tx);
        await r.lockSource(sourceId);
        const last = await r.lastStoredRun(sourceId);
        const held = heldBy(last?.notes ?? []);
        if (last?.notes.some((n) => n.kind === 'removed' && REMOVED_BY_ADMIN_AS.includes(n.reason))) throw conflict('The events the last run of this source held were already removed');
        if (!last || held.reason === null) throw conflict('The last run of this source kept no listed events it did not meet');
        if (held.reason === 'partial-read') throw conflict('The last run of this source did not read all of it: the events it did not meet may simply be unread, so they stay listed until a whole run lacks them');
        const rows = await r.markGone(sourceId, last.startedAt, now);
        await r.setRunNotes(last.id, [...last.notes, { kind: 'removed', reason: REMOVED_BY_ADMIN, count: rows.length, examples: rows.slice(0, NOTE_EXAMPLES).map((e) => e.title) }]);
        await r.update(sourceId, { lastRunHeld: 0, lastRunHeldReason: null });
        return rows;
      });
      // Open lists drop them at once, as a run's removals do.
      for (const e of gone) if (e.status === 'approved') deps.bus.publish('event_update', { id: e.id, action: 'updated' });
      return { removed: gone.length };
    },

    /** Runs one source now; records the run and the source's health whatever happens. */
    async runSource(sourceId: string, trigger: 'schedule' | 'manual' | 'seed' = 'manual'): Promise<RunSummary> {
      const source = await repo.findById(sourceId);
      if (!source) throw notFound('Source not found');
      const startedAt = clock.now();
      const summary: RunSummary = { status: 'success', fetched: 0, created: 0, updated: 0, merged: 0, rejected: 0, skipped: 0, errors: 0, notes: [] };
      let validators: { etag?: string | null; lastModified?: string | null } = {};
      // A run that stores what it read is recorded in the store's transaction; any other, after it.
      let stored: Awaited<ReturnType<typeof store>> | null = null;
      const record = (r: SourcesRepository) => recordRun(r, source, trigger, startedAt, summary, validators);
      // What the run knew before its transaction: a failed one says no more than that.
      let beforeStore: { notes: RunNote[]; rejected: number } | null = null;
      try {
        const connector = CONNECTORS[source.connector as keyof typeof CONNECTORS];
        if (!connector) throw new Error(`The ${source.connector} connector is not available`);
        const ctx: ConnectorContext = { fetch: deps.fetch, now: startedAt, timeZone: city.timeZone, horizonDays: HORIZON_DAYS, listAheadDays: LISTING_HORIZON_DAYS, maxOccurrences: MAX_OCCURRENCES };
        const result = await connector.run(toSpec(source), ctx);
        validators = { etag: result.etag ?? source.etag, lastModified: result.lastModified ?? source.lastModified };
        if (result.notModified) {
          summary.status = 'not_modified';
        } else {
          summary.fetched = result.candidates.length;
          const venues = knownVenues(await repo.allVenues());
          const items: NormalisedEvent[] = [];
          const ids = new Set<string>();
          const notes = createRunNotes();
          notes.addAll(result.notes ?? []);
          normaliseRun(result.candidates, venues, startedAt).forEach((n, i) => {
            if (typeof n === 'string') notes.add('rejected', REFUSED[n] ?? n, result.candidates[i]!.title);
            else if (ids.has(n.externalId)) notes.add('rejected', "repeated another item's id (kept once)", n.title);
            else {
              ids.add(n.externalId);
              items.push(n);
            }
          });
          summary.notes = notes.list();
          summary.rejected = noteCount(summary.notes, 'rejected');
          summary.skipped = noteCount(summary.notes, 'skipped');
          beforeStore = { notes: [...summary.notes], rejected: summary.rejected };
          stored = await store(source, items, startedAt, summary, await classifyWithModel(source, items), record);
        }
      } catch (err) {
        summary.status = 'error';
        summary.errors = 1;
        summary.error = runError(err);
        summary.created = summary.updated = summary.merged = 0;
        // A transaction that failed stored nothing: its notes (removed, kept, cancelled) did not happen.
        if (beforeStore) Object.assign(summary, beforeStore);
        stored = null;
      }
      // A failed run is kept in the error log the admin assistant reads; that log never fails the run.
      if (summary.status === 'error') await createAuditRepository(db).recordError({ origin: 'ingestion', message: `${source.name}: ${summary.error ?? 'failed'}`, detail: { sourceId, trigger }, at: clock.now() }).catch(() => undefined);
      if (stored) publishStored(stored);
      else await db.transaction((tx) => recordRun(createSourcesRepository(tx), source, trigger, startedAt, summary, validators));
      return summary;
    },
  };
}

export type IngestionService = ReturnType<typeof createIngestionService>;
