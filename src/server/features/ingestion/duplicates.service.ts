import { DESCRIPTION_PREVIEW, type DuplicateListResponse, type MergedRecord } from '../../../contract/duplicates.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { AppError, conflict, invalid, notFound } from '../../errors.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { createEventsRepository } from '../events/events.repository.ts';
import { toEventSummary } from '../events/events.mapper.ts';
import { createDuplicatesRepository } from './duplicates.repository.ts';
import { compareEvents, learnedMergeThreshold } from './pipeline/dedupe.ts';

/** Proposals listed at once, the most likely first; the rest follow as these are decided. */
const LIST_LIMIT = 100;

/**
 * Possible duplicates for admins: list the proposals, merge a pair or keep it apart (each
 * decision remembered and training the merge threshold), and split a merged event back into
 * its sources' records. Nothing is deleted: a merge keeps the merged record whole.
 */
export function createDuplicatesService(deps: { db: Db; clock: Clock; bus: EventBus; unit: 'mi' | 'km' }) {
  const { db, clock } = deps;
  const repo = createDuplicatesRepository(db);
  const eventsRepo = createEventsRepository(db);

  async function mergeThreshold(r = repo): Promise<number | null> {
    return learnedMergeThreshold((await r.decisions()).map((d) => ({ score: d.score, merged: d.status === 'merged' })));
  }

  /** Each pair a split gives back its own listing is remembered as kept apart (a decision that trains the threshold). */
  async function rememberSplit(r: ReturnType<typeof createDuplicatesRepository>, eventId: string, ids: readonly string[], adminId: string, now: Date) {
    const rows = new Map((await r.comparables([eventId, ...ids])).map((e) => [e.id, e]));
    const me = rows.get(eventId)!;
    for (const id of ids) {
      const other = rows.get(id);
      if (!other) continue;
      const c = compareEvents({ ...me, start: me.startDate }, { ...other, start: other.startDate });
      const [x, y] = eventId < id ? [eventId, id] : [id, eventId];
      await r.upsertDecision({ eventA: x, eventB: y, kind: 'cross_source', score: c.verdict === 'different' ? 0 : c.score, reason: `split by an admin (${c.reason})` }, 'kept_apart', adminId, now);
    }
  }

  const service = {
    mergeThreshold,

    /**
     * Fills the events merged before merges filled the kept row (migration 0037) as a merge now
     * does, so their lists, filters and calendars show what their merged records give. Returns
     * the events it changed; open lists hear of them.
     */
    async fillEarlierMerges(): Promise<string[]> {
      const changed = await db.transaction(async (tx) => {
        const r = createDuplicatesRepository(tx);
        return r.fillFromMergedRecords(await r.unfilledMergeTargets());
      });
      for (const id of changed) deps.bus.publish('event_update', { id, action: 'updated' });
      return changed;
    },

    async list(): Promise<DuplicateListResponse> {
      const [rows, open, decisions] = [await repo.listOpen(LIST_LIMIT), await repo.countOpen(), await repo.decisions()];
      const ids = [...new Set(rows.flatMap((p) => [p.eventA, p.eventB]))];
      const byId = new Map((await eventsRepo.findByIds(ids)).map((r) => [r.event.id, r]));
      const names = await repo.sourceNames(ids);
      const preview = (text: string) => (text.length > DESCRIPTION_PREVIEW ? `${text.slice(0, DESCRIPTION_PREVIEW - 1).trimEnd()}…` : text);
      const side = (e: NonNullable<ReturnType<typeof byId.get>>) => ({ ...toEventSummary(e, deps.unit), sourceNames: names.get(e.event.id) ?? [], description: preview(e.event.description.trim()), removedBySource: e.event.goneAt !== null });
      const pairs: DuplicateListResponse['pairs'] = [];
      for (const p of rows) {
        const [a, b] = [byId.get(p.eventA), byId.get(p.eventB)];
        if (!a || !b) continue;
        pairs.push({ id: p.id, kind: p.kind, score: p.score, reason: p.reason, createdAt: p.createdAt.toISOString(), a: side(a), b: side(b) });
      }
      return {
        pairs,
        open,
        mergeThreshold: learnedMergeThreshold(decisions.map((d) => ({ score: d.score, merged: d.status === 'merged' }))),
        decisions: { merged: decisions.filter((d) => d.status === 'merged').length, keptApart: decisions.filter((d) => d.status === 'kept_apart').length },
      };
    },

    /** Merges a proposed pair: `keepId` (else the older event) stays listed, the other becomes its record. */
    /**
     * `automatic`: merged because an approval let it (mergeOnApproval), not an admin's judgement of
     * the pair: both must still be listed, and the decision does not train the threshold.
     */
    async merge(pairId: string, adminId: string, keepId?: string, opts: { automatic?: boolean } = {}): Promise<{ eventId: string; mergedId: string }> {
      const result = await db.transaction(async (tx) => {
        const r = createDuplicatesRepository(tx);
        const pair = await r.findById(pairId);
        if (!pair) throw notFound('Duplicate pair not found');
        if (pair.status !== 'open') throw conflict(`This pair was already decided (${pair.status === 'merged' ? 'merged' : 'kept apart'})`);
        if (keepId && keepId !== pair.eventA && keepId !== pair.eventB) throw invalid('keepId must be the id of one of the two events');
        await r.lockEvents([pair.eventA, pair.eventB]);
        // In turn: the transaction is one connection.
        const a = await r.findEvent(pair.eventA);
        const b = await r.findEvent(pair.eventB);
        if (!a || !b) throw notFound('Event not found');
        if (a.status === 'merged' || b.status === 'merged') throw conflict('One of the two events was merged into another since');
        if (opts.automatic && [a, b].some((e) => e.status !== 'approved' || e.goneAt)) throw conflict('One of the two events is no longer listed');
        // The listing a source still lists is kept, never merged into one its source dropped (it would leave every list).
        const [goneA, goneB] = [a.goneAt !== null, b.goneAt !== null];
        if (keepId && (keepId === a.id ? goneA : goneB) && !(keepId === a.id ? goneB : goneA)) {
          throw conflict('That listing was removed by its source: keep the other one, which its source still lists');
        }
        const target = keepId ? (keepId === a.id ? a : b) : goneA !== goneB ? (goneA ? b : a) : a.createdAt <= b.createdAt ? a : b;
        const child = target === a ? b : a;
        const now = clock.now();
        await r.mergeInto(child.id, target.id, now);
        await r.fillFromMergedRecords([target.id]);
        await r.decide(pair.id, 'merged', opts.automatic ? null : adminId, now);
        return { eventId: target.id, mergedId: child.id };
      });
      deps.bus.publish('event_update', { id: result.mergedId, action: 'removed' });
      deps.bus.publish('event_update', { id: result.eventId, action: 'updated' });
      return result;
    },

    /**
     * After an admin approves an event: a proposal held back only because one side waited for
     * review (a run never merges a listed record into an unlisted event) merges as a run would
     * have merged it, when the two are still one event beyond doubt; the event listed first is
     * kept. Returns the event it was merged into, if any.
     */
    async mergeOnApproval(eventId: string, adminId: string): Promise<string | null> {
      for (const pair of await repo.openCrossSourceOf(eventId)) {
        const otherId = pair.eventA === eventId ? pair.eventB : pair.eventA;
        const rows = new Map((await repo.comparables([eventId, otherId])).map((e) => [e.id, e]));
        const [me, other] = [rows.get(eventId), rows.get(otherId)];
        if (!me || !other || me.status !== 'approved' || other.status !== 'approved' || me.goneAt || other.goneAt) continue;
        if (compareEvents({ ...me, start: me.startDate }, { ...other, start: other.startDate }).verdict !== 'same') continue;
        try {
          await service.merge(pair.id, adminId, otherId, { automatic: true });
          return otherId;
        } catch (err) {
          // Decided, merged or unlisted since it was read: the next proposal, if any, is tried.
          if (err instanceof AppError && err.status === 409) continue;
          throw err;
        }
      }
      return null;
    },

    async keepApart(pairId: string, adminId: string): Promise<{ id: string; status: 'kept_apart' }> {
      const pair = await repo.findById(pairId);
      if (!pair) throw notFound('Duplicate pair not found');
      if (pair.status !== 'open') throw conflict(`This pair was already decided (${pair.status === 'merged' ? 'merged' : 'kept apart'})`);
      await repo.decide(pair.id, 'kept_apart', adminId, clock.now());
      return { id: pair.id, status: 'kept_apart' };
    },

    /**
     * Splits an event back into its sources: every record merged into it is listed on its own
     * again, and a source linked to it directly (merges from before records were kept) gets a copy
     * of its own. Each split pair is remembered as kept apart.
     */
    async split(eventId: string, adminId: string): Promise<{ eventId: string; restored: string[] }> {
      const restored = await db.transaction(async (tx) => {
        const r = createDuplicatesRepository(tx);
        await r.lockEvents([eventId]);
        const event = await r.findEvent(eventId);
        if (!event) throw notFound('Event not found');
        if (event.status === 'merged') throw conflict('This event is merged into another: split that one');
        const now = clock.now();
        const ids = await r.restoreMerged(eventId, now);
        // No record is merged into it now: what they filled goes back to its own record's values,
        // on the records given back too (one may hold what a record merged into it earlier filled).
        await r.fillFromMergedRecords([eventId, ...ids]);
        const links = await r.ownLinks(eventId);
        const seen = new Set<string>();
        for (const l of links) {
          const key = l.sourceId ?? `${l.sourceType}:${l.url}`;
          if (seen.size === 0 || seen.has(key)) {
            seen.add(key);
            continue;
          }
          seen.add(key);
          ids.push(await r.splitLinkToCopy(eventId, l, now));
        }
        if (!ids.length) throw conflict('This event has a single source: nothing to split');
        await rememberSplit(r, eventId, ids, adminId, now);
        return ids;
      });
      for (const id of restored) deps.bus.publish('event_update', { id, action: 'created' });
      deps.bus.publish('event_update', { id: eventId, action: 'updated' });
      return { eventId, restored };
    },

    /**
     * Splits one record out of the event it is merged into (a wrong merge among right ones): it
     * is listed on its own again, the event keeps its other records, and that pair alone is
     * remembered as kept apart.
     */
    async splitRecord(eventId: string, recordId: string, adminId: string): Promise<{ eventId: string; restored: string[] }> {
      await db.transaction(async (tx) => {
        const r = createDuplicatesRepository(tx);
        // The event before its record, as a run of the record's source (lockMergedTargets) or a whole split locks them.
        await r.lockEvents([eventId]);
        await r.lockEvents([recordId]);
        const [event, record] = [await r.findEvent(eventId), await r.findEvent(recordId)];
        if (!event) throw notFound('Event not found');
        if (event.status === 'merged') throw conflict('This event is merged into another: split that one');
        if (!record || record.mergedInto !== eventId || record.status !== 'merged') throw invalid('recordId must be the id of a record merged into the event');
        const now = clock.now();
        await r.restoreMerged(eventId, now, recordId);
        await r.fillFromMergedRecords([eventId, recordId]);
        await rememberSplit(r, eventId, [recordId], adminId, now);
      });
      deps.bus.publish('event_update', { id: recordId, action: 'created' });
      deps.bus.publish('event_update', { id: eventId, action: 'updated' });
      return { eventId, restored: [recordId] };
    },

    /** The records merged into an event, as their sources give them (what an admin may split out one by one). */
    async records(eventId: string): Promise<MergedRecord[]> {
      const event = await repo.findEvent(eventId);
      if (!event) throw notFound('Event not found');
      const rows = await eventsRepo.findMergedRecords([eventId]);
      const names = await repo.ownSourceNames(rows.map((m) => m.event.id));
      return rows.map((m) => ({
        id: m.event.id,
        title: m.event.title,
        startDate: m.event.startDate.toISOString(),
        venue: m.event.venueName,
        sourceNames: names.get(m.event.id) ?? [],
        dropped: m.event.goneAt !== null,
      }));
    },
  };
  return service;
}

export type DuplicatesService = ReturnType<typeof createDuplicatesService>;
