import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { CityConfig } from '../../../contract/city.ts';
import { PENDING_PAGE, type EventDetail, type EventFacets, type EventInput, type EventListQuery, type EventPatch, type EventStats, type EventSummary, type SavedEvent } from '../../../contract/events.ts';
import { zonedDayBounds } from '../../../contract/time.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { notFound } from '../../errors.ts';
import { htmlToText } from '../../lib/text.ts';
import { announceAward, payAward } from '../gaming/awards.ts';
import { RULES } from '../gaming/rules.ts';
import { withoutFilled } from '../ingestion/pipeline/merge-fill.ts';
import { knownVenues, placeAfterVenueChange, placeOf, venueKey } from '../ingestion/pipeline/normalise.ts';
import { publishSavedEventNews, tellSavers } from '../ingestion/saved-event-news.ts';
import { createNotification, publishNotifications, type NotificationInput } from '../notifications/notifications.service.ts';
import type { UserRow } from '../users/users.table.ts';
import { AGGREGATE_BUCKET_MS, createEventsRepository, sourcesSayOf, type EventFilter, type SummaryRow } from './events.repository.ts';
import { hasEnded, metresPerUnit, toEventDetail, toEventSummary, withSourcesWord } from './events.mapper.ts';

export const FAVORITE_DISCOVERY_POINTS = RULES.discovered.points;
const DEFAULT_DURATION_MS = 2 * 3600 * 1000;
const WEEK_MS = 7 * 24 * 3600 * 1000;

export interface Viewer {
  id: string;
  role: UserRow['role'];
}

/** What a contributor hears of an admin's decision on their event. */
export function reviewNews(title: string, id: string, status: 'approved' | 'rejected'): NotificationInput {
  return status === 'approved'
    ? { type: 'success', title: 'Your event is listed', message: `“${title}” was approved and is now listed for everyone.`, link: `/events/${id}` }
    : { type: 'info', title: 'Your event was not listed', message: `“${title}” was reviewed and will not be listed.` };
}

/** Finding, reading and keeping events. */
export function createEventsService(deps: { db: Db; clock: Clock; city: CityConfig; bus: EventBus; afterApproved?: (id: string, adminId: string) => Promise<unknown>; log?: Pick<FastifyBaseLogger, 'error'> }) {
  const { db, clock, city } = deps;
  const repo = createEventsRepository(db);
  const unit = city.distanceUnit;
  const summary = (r: SummaryRow) => toEventSummary(r, unit);

  function toFilter(q: EventListQuery, now: Date): EventFilter {
    const wantsDistance = q.radius !== undefined || q.sortBy === 'distance' || q.lat !== undefined;
    const centre = q.lat !== undefined && q.lng !== undefined ? { lat: q.lat, lng: q.lng } : city.center;
    return {
      now,
      categories: q.category,
      sourceTypes: q.sourceType,
      neighbourhoods: q.neighbourhood,
      search: q.search || undefined,
      from: q.startDate,
      to: q.endDate,
      near: wantsDistance ? { ...centre, radiusM: q.radius ? q.radius * metresPerUnit(unit) : undefined } : undefined,
    };
  }

  return {
    /** One page of approved events that have not ended, and the filter's total (exact, or estimated past EXACT_COUNT_LIMIT). */
    async list(q: EventListQuery, viewer: Viewer | null, now = clock.now()): Promise<{ items: EventSummary[]; total: number; estimated: boolean }> {
      const f = toFilter(q, now);
      const [rows, total] = await Promise.all([
        repo.list(f, q.sortBy ?? 'relevance', { limit: q.limit, offset: q.offset }, viewer?.id ?? null),
        repo.count(f),
      ]);
      // The last page tells the total exactly, whatever the count said.
      if (total.estimated && rows.length < q.limit && (rows.length > 0 || q.offset === 0)) return { items: rows.map(summary), total: q.offset + rows.length, estimated: false };
      return { items: rows.map(summary), total: total.n, estimated: total.estimated };
    },

    async facets(q: EventListQuery, now = clock.now()): Promise<EventFacets> {
      const f = toFilter(q, now);
      const { categories, sourceTypes, total } = await repo.facets(f);
      return { categories: categories.values, sourceTypes: sourceTypes.values, total: total.n, estimated: total.estimated || categories.estimated || sourceTypes.estimated };
    },

    /**
     * What every public list, facet and stats answer depends on besides its URL: the events version
     * and the clock's bucket (events that end leave the lists). A weak ETag for anonymous readers.
     * Given the request's clock reading, the answer reuses the version read for it (one read).
     */
    async listingTag(now: Date): Promise<string> {
      return `W/"ev-${await repo.version(now)}-${Math.floor(now.getTime() / AGGREGATE_BUCKET_MS)}"`;
    },

    /** The events version as read for the request's clock reading (the one listingTag reads). */
    listingVersion: (now: Date) => repo.version(now),

    /** Whether an answer given at `now` used a whole-listing aggregate of the previous clock bucket (see `bucketed`). */
    isProvisional: (now: Date) => repo.answeredFromPreviousBucket(now),

    /** One event; a record merged into another answers as that event (a saved link keeps working). */
    async get(id: string, viewer: Viewer | null): Promise<EventDetail> {
      let row = await repo.findById(id, viewer?.id ?? null);
      if (row?.event.status === 'merged' && row.event.mergedInto) row = await repo.findById(row.event.mergedInto, viewer?.id ?? null);
      // Admins see every event; a member sees an event of theirs still in review (a flyer they scanned),
      // and one they saved that an admin has since turned down: their link leads to a page that says
      // it was removed, as it does for an event its sources dropped. Nobody else learns it existed.
      const isAdmin = viewer?.role === 'admin';
      const savedThenRejected = row?.event.status === 'rejected' && row.isFavorited;
      const mayView = row && (row.event.status === 'approved' || isAdmin || savedThenRejected || (viewer && row.event.contributedBy === viewer.id && row.event.status === 'pending'));
      if (!row || !mayView) throw notFound('Event not found');
      const links = await repo.findSources(row.event.id);
      const own = links.filter((l) => l.eventId === row.event.id);
      // Records merged into it, and (from before merges kept records) further sources linked to it directly.
      const mergedRecords = links.length - own.length + Math.max(0, new Set(own.map((l) => l.sourceId ?? `${l.sourceType}:${l.url}`)).size - 1);
      // The sources that list it now: not one that dropped its record merged into it.
      const sources = links.filter((l) => !l.dropped).map(({ sourceType, url, name }) => ({ sourceType, url, name }));
      // Where sources disagree (one says cancelled, another still lists it), the page says so.
      const said = sourcesSayOf(links);
      const now = clock.now();
      // The other dates of a turned-down series are turned down too, and were never saved: only admins see them.
      const dates = savedThenRejected && !isAdmin ? [] : await repo.seriesDates(row.event, now);
      return toEventDetail(row, sources, unit, now, { mergedRecords, dates, ...said });
    },

    async stats(now = clock.now()): Promise<EventStats> {
      const day = zonedDayBounds(now, city.timeZone);
      const f = { now };
      const version = await repo.version(now);
      const [total, todayEvents, activeSources, covered] = await Promise.all([
        repo.count(f),
        repo.cachedAggregate(version, `today:${day.start.toISOString()}`, now, () => repo.countStartingBetween(day.start, day.end, now)),
        repo.cachedAggregate(version, 'activeSources', now, () => repo.countActiveSources(now)),
        repo.cachedAggregate(version, 'neighbourhoods', now, () => repo.neighbourhoodsWithEvents(now, new Date(now.getTime() + WEEK_MS))),
      ]);
      const names = new Set(covered);
      const hit = city.neighbourhoods.filter((n) => names.has(n.name.toLowerCase())).length;
      const coverage = Math.round((hit / city.neighbourhoods.length) * 1000) / 10;
      // The unfiltered total is always exact (see EventsRepository.count).
      return { totalEvents: total.n, todayEvents, activeSources, coverage };
    },

    /**
     * The member's saved events, marked (not left out) when every source has since dropped one or an
     * admin has turned it down (status 'rejected'): the member planned around it and must hear why it went.
     */
    async favorites(viewer: Viewer, now = clock.now()): Promise<SavedEvent[]> {
      const rows = await repo.listFavorites(viewer.id);
      const said = await repo.sourcesSay(rows.map((row) => row.event.id));
      return rows.map((row) =>
        withSourcesWord({
        ...summary(row),
        removedBySource: row.removedBySource,
        cancelledBySource: row.cancelledBySource,
        postponedBySource: row.postponedBySource,
        calledOffBy: said.get(row.event.id)?.calledOffBy ?? [],
        stillListedBy: said.get(row.event.id)?.stillListedBy ?? [],
        endGiven: row.endGiven,
        ended: hasEnded(row.event, now),
      }),
      );
    },

    /**
     * Toggles a favourite. Becoming favourited pays the 'discovered' 5 points once per user and
     * event, however often the heart is toggled: the ledger's idempotency key decides. An event
     * that has ended can still be saved (to remember it) but pays nothing: there is nothing left
     * to discover, and points for the past could be farmed from an archive.
     */
    async toggleFavorite(viewer: Viewer, eventId: string): Promise<{ isFavorited: boolean; points: number | null }> {
      const result = await db.transaction(async (tx) => {
        const txRepo = createEventsRepository(tx);
        await txRepo.lockFavorite(viewer.id, eventId);
        const row = await txRepo.findById(eventId, viewer.id);
        // A member who saved an event an admin then turned down can still take it off My Events
        // (its page keeps the heart); saving one, or any unlisted event, stays impossible.
        const mayUnsave = row?.event.status === 'rejected' && row.isFavorited;
        if (!row || (row.event.status !== 'approved' && !mayUnsave)) throw notFound('Event not found');
        if (await txRepo.deleteFavorite(viewer.id, eventId)) {
          await txRepo.addToFavoriteCount(eventId, viewer.id, -1);
          return { isFavorited: false, points: null, paid: null };
        }
        const now = clock.now();
        await txRepo.insertFavorite(viewer.id, eventId, now);
        await txRepo.addToFavoriteCount(eventId, viewer.id, 1);
        if (hasEnded(row.event, now)) return { isFavorited: true, points: null, paid: null };
        // The shared award path: paid once per event; badges it unlocks are earned in this transaction.
        const paid = await payAward(
          tx,
          RULES.discovered,
          {
            userId: viewer.id,
            activityType: 'discovered',
            reason: 'favorite',
            targetType: 'event',
            targetId: eventId,
            eventId,
            points: FAVORITE_DISCOVERY_POINTS,
            description: `Discovered ${row.event.title}`,
            idempotencyKey: `discovered:event:${eventId}:${viewer.id}`,
            at: now,
          },
          city.timeZone,
        );
        return { isFavorited: true, points: paid.status === 'paid' ? paid.total : null, paid };
      });
      // After commit: gaming_update with the new total, and any badge notifications; the
      // attendee count moved for everyone looking at the event.
      announceAward(deps.bus, viewer.id, result.paid);
      deps.bus.publish('event_update', { id: eventId, action: 'updated' });
      deps.bus.publish('buzz', { actorId: viewer.id });
      return { isFavorited: result.isFavorited, points: result.points };
    },

    /**
     * An event an admin enters by hand; approved unless the admin says otherwise. It is placed as
     * ingestion places a source's item (placeOf): a neighbourhood from its coordinates, venue or
     * address unless the admin names one, which is then theirs (editedFields) for good.
     */
    async create(input: EventInput, admin: Viewer): Promise<EventDetail> {
      const start = new Date(input.startDate);
      const end = input.endDate ? new Date(input.endDate) : new Date(start.getTime() + DEFAULT_DURATION_MS);
      const named = input.neighbourhood || null;
      const place = placeOf(city, knownVenues(await repo.allVenues()), { venueName: input.venue, address: input.address, lat: input.lat, lng: input.lng, neighbourhood: named });
      const row = await repo.insert(
        {
          title: htmlToText(input.title),
          description: htmlToText(input.description),
          category: input.category,
          categoryConfidence: 1,
          sourceType: input.sourceType,
          sourceUrl: input.sourceUrl,
          imageUrl: input.imageUrl,
          startDate: start,
          endDate: end < start ? start : end,
          endGiven: input.endDate !== null,
          timeZone: city.timeZone,
          venueName: input.venue,
          ...place,
          editedFields: named ? ['neighbourhood'] : [],
          // Free only when the admin says so (price 0); no price is unknown, not free.
          price: input.price === 0 ? null : input.price,
          isFree: input.price === 0,
          attendeeCount: input.attendeeCount,
          isVerified: true,
          status: input.status,
          contributedBy: admin.id,
        },
        { sourceType: input.sourceType, url: input.sourceUrl ?? '', name: 'Added by an admin' },
      );
      return this.get(row.id, admin);
    },

    /** The review queue: a page of pending events, newest first, and how many wait in all. */
    async pending(offset: number): Promise<{ items: EventSummary[]; total: number }> {
      const now = clock.now();
      const [rows, total] = [await repo.listAwaitingReview(now, PENDING_PAGE, offset), await repo.countAwaitingReview(now)];
      return { items: rows.map((event) => summary({ event, isFavorited: false, distanceM: null })), total };
    },

    /**
     * An admin's review decision. A member who contributed the event (a URL import, a flyer scan)
     * hears it in the bell when it leaves the queue: listed, with its page, or not.
     */
    async setStatus(id: string, status: 'approved' | 'rejected', adminId: string): Promise<EventSummary> {
      const { row, told } = await db.transaction(async (tx) => {
        const r = createEventsRepository(tx);
        // Two admins deciding at once: the second sees the first's decision, and the member hears one.
        await r.lock(id);
        const before = await r.findById(id, null);
        const row = await r.update(id, { status });
        if (!before || !row) throw notFound('Event not found');
        const contributor = before.event.status === 'pending' && row.contributedBy && row.contributedBy !== adminId ? row.contributedBy : null;
        const told = contributor ? { userId: contributor, n: await createNotification(tx, contributor, reviewNews(row.title, row.id, status), clock.now()) } : null;
        return { row, told };
      });
      deps.bus.publish('event_update', { id, action: status });
      if (told) publishNotifications(deps.bus, told.userId, [told.n]);
      // Listed now: what waited only for this decision follows it (a duplicate merges, see ingestion's duplicates).
      // The approval stands whatever follows: a failure there is logged, not the approval's.
      if (status === 'approved') await deps.afterApproved?.(id, adminId).catch((err: unknown) => deps.log?.error({ err, eventId: id }, 'after approving an event'));
      return summary({ event: row, isFavorited: false, distanceM: null });
    },

    async edit(id: string, patch: EventPatch): Promise<EventSummary> {
      const current = await repo.findById(id, null);
      if (!current) throw notFound('Event not found');
      // What the admin corrects stays corrected when a source later changes its item (see eventPatch).
      const changes: Parameters<typeof repo.update>[1] = { editedFields: [...new Set([...current.event.editedFields, ...Object.keys(patch)])].sort() };
      if (patch.title !== undefined) changes.title = patch.title;
      if (patch.category !== undefined) Object.assign(changes, { category: patch.category, categoryConfidence: 1 });
      // A new venue may say where the event is: placed again as ingestion would place it.
      if (patch.venue !== undefined) {
        changes.venueName = patch.venue;
        const e = current.event;
        const venues = await repo.allVenues();
        Object.assign(changes, placeAfterVenueChange(city, knownVenues(venues), { ...e, neighbourhoodSet: e.editedFields.includes('neighbourhood') }, patch.venue));
        // The known venue follows the name: deduplication takes one venue id for one place.
        changes.venueId = (patch.venue && venues.find((v) => venueKey(v.name) === venueKey(patch.venue!))?.id) || null;
      }
      // A new price replaces the source's range and words about it.
      if (patch.price !== undefined) Object.assign(changes, { price: patch.price === 0 ? null : patch.price, priceMax: null, priceNote: null, isFree: patch.price === 0 });
      if (patch.startDate !== undefined) {
        const start = new Date(patch.startDate);
        const duration = current.event.endDate.getTime() - current.event.startDate.getTime();
        Object.assign(changes, { startDate: start, endDate: new Date(start.getTime() + Math.max(0, duration)) });
      }
      // What the admin sets is the event's own now, not a value a merge filled in (merge-fill.ts).
      changes.filled = withoutFilled(current.event.filled, Object.keys(changes));
      const moved = changes.startDate !== undefined && changes.startDate.getTime() !== current.event.startDate.getTime();
      // One transaction: the edit and the word to whoever saved the event that it moved.
      const { row, told } = await db.transaction(async (tx) => {
        const row = await createEventsRepository(tx).update(id, changes);
        if (!row) throw notFound('Event not found');
        const news = moved && row.status === 'approved' ? [{ id, title: row.title, allDay: row.allDay, kind: 'moved' as const, from: current.event.startDate, to: row.startDate }] : [];
        return { row, told: await tellSavers(tx, news, city, clock.now()) };
      });
      if (row.status === 'approved') deps.bus.publish('event_update', { id, action: 'updated' });
      publishSavedEventNews(deps.bus, told);
      return summary({ event: row, isFavorited: false, distanceM: null });
    },

    newCalendarSecret: () => randomBytes(24).toString('base64url'),
  };
}

export type EventsService = ReturnType<typeof createEventsService>;
