import { createHash, randomUUID } from 'node:crypto';
import type { CityConfig } from '../../../contract/city.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { invalid, notFound } from '../../errors.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import type { LlmClient } from '../../lib/llm.ts';
import { classify, type Classification, type ClassifierInput } from './classifier/classifier.ts';
import { APPROVE_CONFIDENCE, classifyWithLlm, type LlmClassifyLog } from './classifier/llm-classify.ts';
import { CONNECTORS } from './connectors/index.ts';
import { SourceError, type ConnectorContext, type SafeFetch, type SourceSpec } from './ingestion.types.ts';
import { isSameEvent, START_WINDOW_MS } from './pipeline/dedupe.ts';
import { normalise, venueKey, type KnownVenues, type NormalisedEvent } from './pipeline/normalise.ts';
import { createSourcesRepository, type EventUpdate, type RunEventRow, type RunLinkRow, type SourceRow } from './sources.repository.ts';

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
  errors: number;
  error?: string;
}

type Slot = { id: string; title: string; start: Date; venueName: string; lat: number | null; lng: number | null };
const slotOf = (d: Date) => Math.floor(d.getTime() / START_WINDOW_MS);

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

/** What a source says about one item; a run compares it with the hash stored on the link. */
export function itemHash(n: NormalisedEvent): string {
  const fields = [n.title, n.description, n.start.toISOString(), n.end.toISOString(), n.allDay, n.venueName, n.address, n.neighbourhood, n.lat, n.lng, n.price, n.isFree, n.imageUrl, n.url];
  return createHash('sha1').update(JSON.stringify(fields)).digest('base64url');
}

const classifierInput = (n: NormalisedEvent): ClassifierInput => ({ title: n.title, description: n.description, venue: n.venueName, categories: n.categories });

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
}) {
  const { db, clock, city, llm } = deps;
  const repo = createSourcesRepository(db);
  const withContext = (context: object): LlmClassifyLog => ({ warn: (obj, msg) => deps.log.warn({ ...context, ...obj }, msg) });

  /**
   * With a language model, the items a run may create are classified before its transaction, so
   * no model request is made while the transaction holds the source's lock. Without one, store()
   * classifies inline as items turn out to be new (no network, no extra query).
   */
  async function classifyNew(source: SourceRow, items: NormalisedEvent[]): Promise<Map<string, Classification>> {
    const out = new Map<string, Classification>();
    if (!llm) return out;
    const linked = new Set((await repo.linksOfSource(source.id)).map((l) => l.externalId));
    const fresh = items.filter((n) => !n.cancelled && !linked.has(n.externalId));
    const results = await classifyWithLlm(fresh.map(classifierInput), { llm, log: withContext({ source: source.name }) });
    fresh.forEach((n, i) => out.set(n.externalId, results[i]!));
    return out;
  }

  function changed(old: Record<string, unknown>, next: Record<string, unknown>) {
    return Object.keys(next).some((k) => {
      const a = old[k];
      const b = next[k];
      if (a instanceof Date && b instanceof Date) return a.getTime() !== b.getTime();
      return a !== b;
    });
  }

  async function store(source: SourceRow, items: NormalisedEvent[], runStart: Date, summary: RunSummary, classified: Map<string, Classification>) {
    const announce: { id: string; action: 'created' | 'updated' }[] = [];
    await db.transaction(async (tx) => {
      const r = createSourcesRepository(tx);
      await r.lockSource(source.id);
      const now = clock.now();
      const linkRows = await r.linksOfSource(source.id);
      const links = new Map(linkRows.map((l) => [l.externalId, l.eventId]));
      const hashes = new Map(linkRows.map((l) => [l.externalId, l.contentHash]));
      const known = await r.linkedEvents([...new Set(items.map((i) => links.get(i.externalId)).filter((x): x is string => Boolean(x)))]);
      const knownById = new Map(known.map((e) => [e.id, e]));

      // Events in the time window of this batch, bucketed by 30-minute slot, for matching.
      const buckets = new Map<number, Slot[]>();
      const addToBucket = (s: Slot) => {
        const k = slotOf(s.start);
        const list = buckets.get(k);
        if (list) list.push(s);
        else buckets.set(k, [s]);
      };
      // Only the slots next to those of items that may need a match are read, not the whole span
      // of the batch (a feed spread over months would otherwise read every event in them).
      const slots = [...new Set(items.filter((i) => !i.cancelled && !links.has(i.externalId)).map((i) => slotOf(i.start)))].sort((a, b) => a - b);
      const windows: { from: Date; to: Date }[] = [];
      for (const k of slots) {
        const last = windows[windows.length - 1];
        const from = (k - 1) * START_WINDOW_MS;
        const to = (k + 2) * START_WINDOW_MS;
        if (last && last.to.getTime() >= from) last.to = new Date(to);
        else windows.push({ from: new Date(from), to: new Date(to) });
      }
      for (const e of await r.eventsInWindows(windows)) addToBucket({ id: e.id, title: e.title, start: e.startDate, venueName: e.venueName, lat: e.lat, lng: e.lng });
      const findMatch = (n: NormalisedEvent) => {
        const k = slotOf(n.start);
        for (const key of [k - 1, k, k + 1]) for (const s of buckets.get(key) ?? []) if (isSameEvent(n, s)) return s;
        return undefined;
      };

      const venueRows = await r.allVenues();
      const venueIds = new Map(venueRows.map((v) => [venueKey(v.name), v.id]));
      const newVenues: { id: string; name: string; address: string | null; neighbourhood: string | null; lat: number | null; lng: number | null }[] = [];
      const newEvents: RunEventRow[] = [];
      const newLinks: RunLinkRow[] = [];
      // By event id: when two items link one event, the last one's values win, as they would one by one.
      const updates = new Map<string, EventUpdate>();
      const seen: { externalId: string; contentHash: string }[] = [];

      for (const n of items) {
        const linkedId = links.get(n.externalId);
        const hash = itemHash(n);
        if (linkedId) {
          seen.push({ externalId: n.externalId, contentHash: hash });
          const old = knownById.get(linkedId);
          if (!old) continue;
          // The source's item is as last applied: the event keeps what it has (an admin's edit,
          // or another source's newer version), and comes back if it was marked gone.
          if (!n.cancelled && hashes.get(n.externalId) === hash) {
            if (old.goneAt && !updates.has(old.id)) {
              updates.set(old.id, { ...old, goneAt: null, updatedAt: now });
              summary.updated += 1;
              if (old.status === 'approved') announce.push({ id: old.id, action: 'updated' });
            }
            continue;
          }
          if (n.cancelled) {
            if (!old.goneAt) updates.set(old.id, { ...(updates.get(old.id) ?? old), goneAt: now, updatedAt: now });
            summary.updated += 1;
            continue;
          }
          const patch = {
            title: n.title,
            description: n.description,
            startDate: n.start,
            endDate: n.end,
            allDay: n.allDay,
            venueName: n.venueName,
            address: n.address,
            neighbourhood: n.neighbourhood,
            lat: n.lat,
            lng: n.lng,
            price: n.price,
            isFree: n.isFree,
            imageUrl: n.imageUrl ?? old.imageUrl,
            sourceUrl: n.url ?? old.sourceUrl,
            goneAt: null,
          };
          if (changed(old as unknown as Record<string, unknown>, patch)) {
            updates.set(old.id, { id: old.id, ...patch, updatedAt: now });
            summary.updated += 1;
            if (old.status === 'approved') announce.push({ id: old.id, action: 'updated' });
          }
          continue;
        }
        if (n.cancelled) {
          summary.rejected += 1;
          continue;
        }
        const match = findMatch(n);
        if (match) {
          newLinks.push({ eventId: match.id, sourceType: source.sourceType, url: n.url ?? '', name: source.name, externalId: n.externalId, sourceId: source.id, seenAt: now, contentHash: hash });
          links.set(n.externalId, match.id);
          summary.merged += 1;
          continue;
        }
        const c = classified.get(n.externalId) ?? classify(classifierInput(n));
        const id = randomUUID();
        let venueId: string | null = null;
        if (n.venueName) {
          const key = venueKey(n.venueName);
          venueId = venueIds.get(key) ?? null;
          if (!venueId && key) {
            venueId = randomUUID();
            venueIds.set(key, venueId);
            newVenues.push({ id: venueId, name: n.venueName, address: n.address, neighbourhood: n.neighbourhood, lat: n.lat, lng: n.lng });
          }
        }
        const status = source.trusted && c.confidence >= APPROVE_CONFIDENCE ? 'approved' : 'pending';
        newEvents.push({
          id,
          title: n.title,
          description: n.description,
          category: c.category,
          categoryConfidence: c.confidence,
          sourceType: source.sourceType,
          sourceUrl: n.url,
          imageUrl: n.imageUrl,
          startDate: n.start,
          endDate: n.end,
          timeZone: n.timeZone,
          allDay: n.allDay,
          venueId,
          venueName: n.venueName,
          address: n.address,
          neighbourhood: n.neighbourhood,
          lat: n.lat,
          lng: n.lng,
          attendeeCount: n.attendeeCount,
          price: n.price,
          isFree: n.isFree,
          isVerified: source.trusted,
          isDemo: source.isDemo,
          status,
          createdAt: now,
          updatedAt: now,
        });
        newLinks.push({ eventId: id, sourceType: source.sourceType, url: n.url ?? '', name: source.name, externalId: n.externalId, sourceId: source.id, seenAt: now, contentHash: hash });
        links.set(n.externalId, id);
        addToBucket({ id, title: n.title, start: n.start, venueName: n.venueName, lat: n.lat, lng: n.lng });
        summary.created += 1;
        if (status === 'approved') announce.push({ id, action: 'created' });
      }
      const CHUNK = 1000;
      for (let i = 0; i < newVenues.length; i += CHUNK) await r.insertVenues(newVenues.slice(i, i + CHUNK));
      for (let i = 0; i < newEvents.length; i += CHUNK) await r.insertRunEvents(newEvents.slice(i, i + CHUNK));
      for (let i = 0; i < newLinks.length; i += CHUNK) await r.insertRunLinks(newLinks.slice(i, i + CHUNK));
      const updateRows = [...updates.values()];
      for (let i = 0; i < updateRows.length; i += CHUNK) await r.updateEvents(updateRows.slice(i, i + CHUNK));
      if (seen.length) await r.touchLinks(source.id, seen, now);
      await r.markGone(source.id, runStart, now);
    });
    for (const a of announce) deps.bus.publish('event_update', a);
  }

  /** Reads candidates from a URL: schema.org JSON-LD on a page, else iCalendar. */
  async function readUrl(url: string, now: Date) {
    const ctx: ConnectorContext = { fetch: deps.fetch, now, timeZone: city.timeZone, horizonDays: HORIZON_DAYS, maxOccurrences: 5 };
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
    if (lastError instanceof SourceError && /refused|private|timed out|larger than|HTTP/i.test(lastError.message)) throw invalid(`url: ${lastError.message}`);
    return [];
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
    async importUrl(url: string, userId: string): Promise<{ eventId: string; created: boolean }> {
      const now = clock.now();
      const venues: KnownVenues = new Map((await repo.allVenues()).map((v) => [venueKey(v.name), v]));
      const items = (await readUrl(url, now))
        .map((c) => normalise(c, { city, now, horizonDays: HORIZON_DAYS, venues }))
        .filter((n): n is NormalisedEvent => typeof n !== 'string' && !n.cancelled)
        .sort((a, b) => a.start.getTime() - b.start.getTime());
      const n = items[0];
      if (!n) throw invalid('url: no upcoming event was found at that address');
      const nearby = await repo.eventsStartingBetween(new Date(n.start.getTime() - START_WINDOW_MS), new Date(n.start.getTime() + START_WINDOW_MS));
      const same = nearby.find((e) => isSameEvent(n, { title: e.title, start: e.startDate, venueName: e.venueName, lat: e.lat, lng: e.lng }));
      if (same) return { eventId: same.id, created: false };
      // Before the transaction: a model request must not hold it open.
      const c = (await classifyWithLlm([classifierInput(n)], { llm, log: withContext({ importUrl: url }) }))[0]!;
      const id = randomUUID();
      await db.transaction(async (tx) => {
        const r = createSourcesRepository(tx);
        await r.insertEvents([
          {
            id,
            title: n.title,
            description: n.description,
            category: c.category,
            categoryConfidence: c.confidence,
            sourceType: 'contribution',
            sourceUrl: n.url ?? url,
            imageUrl: n.imageUrl,
            startDate: n.start,
            endDate: n.end,
            timeZone: n.timeZone,
            allDay: n.allDay,
            venueName: n.venueName,
            address: n.address,
            neighbourhood: n.neighbourhood,
            lat: n.lat,
            lng: n.lng,
            price: n.price,
            isFree: n.isFree,
            status: 'pending',
            contributedBy: userId,
            createdAt: now,
            updatedAt: now,
          },
        ]);
        await r.insertLinks([{ eventId: id, sourceType: 'contribution', url: n.url ?? url, name: 'Contributed by a member', externalId: n.externalId, seenAt: now }]);
      });
      return { eventId: id, created: true };
    },

    /** Runs one source now; records the run and the source's health whatever happens. */
    async runSource(sourceId: string, trigger: 'schedule' | 'manual' | 'seed' = 'manual'): Promise<RunSummary> {
      const source = await repo.findById(sourceId);
      if (!source) throw notFound('Source not found');
      const startedAt = clock.now();
      const summary: RunSummary = { status: 'success', fetched: 0, created: 0, updated: 0, merged: 0, rejected: 0, errors: 0 };
      let validators: { etag?: string | null; lastModified?: string | null } = {};
      try {
        const connector = CONNECTORS[source.connector as keyof typeof CONNECTORS];
        if (!connector) throw new Error(`The ${source.connector} connector is not available`);
        const ctx: ConnectorContext = { fetch: deps.fetch, now: startedAt, timeZone: city.timeZone, horizonDays: HORIZON_DAYS, maxOccurrences: MAX_OCCURRENCES };
        const result = await connector.run(toSpec(source), ctx);
        validators = { etag: result.etag ?? source.etag, lastModified: result.lastModified ?? source.lastModified };
        if (result.notModified) {
          summary.status = 'not_modified';
        } else {
          summary.fetched = result.candidates.length;
          const venues: KnownVenues = new Map((await repo.allVenues()).map((v) => [venueKey(v.name), v]));
          const items: NormalisedEvent[] = [];
          const ids = new Set<string>();
          for (const c of result.candidates) {
            const n = normalise(c, { city, now: startedAt, horizonDays: HORIZON_DAYS, venues });
            if (typeof n === 'string' || ids.has(n.externalId)) summary.rejected += 1;
            else {
              ids.add(n.externalId);
              items.push(n);
            }
          }
          await store(source, items, startedAt, summary, await classifyNew(source, items));
        }
      } catch (err) {
        summary.status = 'error';
        summary.errors = 1;
        summary.error = err instanceof Error ? err.message : String(err);
        summary.created = summary.updated = summary.merged = 0;
      }
      const finishedAt = clock.now();
      await repo.insertRun({
        sourceId,
        startedAt,
        finishedAt,
        status: summary.status,
        trigger,
        fetched: summary.fetched,
        created: summary.created,
        updated: summary.updated,
        merged: summary.merged,
        rejected: summary.rejected,
        errors: summary.errors,
        errorMessage: summary.error ?? null,
      });
      await repo.update(sourceId, {
        lastRunAt: finishedAt,
        ...(summary.status === 'error'
          ? { lastError: summary.error ?? 'failed', consecutiveFailures: source.consecutiveFailures + 1 }
          : { lastSuccessAt: finishedAt, lastError: null, consecutiveFailures: 0, eventsSeen: summary.status === 'success' ? summary.fetched : source.eventsSeen, ...validators }),
      });
      return summary;
    },
  };
}

export type IngestionService = ReturnType<typeof createIngestionService>;
