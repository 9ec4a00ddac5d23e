import type { EventDetail, EventSummary } from '../../../contract/events.ts';
import { servedImage } from '../images/image-urls.ts';
import type { DetailRow, SummaryRow } from './events.repository.ts';

const METRES_PER_UNIT = { mi: 1609.344, km: 1000 } as const;

/**
 * Attendees, as every screen and API shows them: the source's own RSVPs plus the members who saved
 * the event or checked in at it, each person once (events.people_count).
 */
export const attendeesOf = (e: { attendeeCount: number; peopleCount: number }) => e.attendeeCount + e.peopleCount;

/** A database row as the wire shows it; distances in the city's unit, one decimal. */
export function toEventSummary(row: SummaryRow, unit: 'mi' | 'km' = 'mi'): EventSummary {
  const e = row.event;
  // Only a copy we keep is shown: a source's own address would have every reader's browser call it.
  const image = e.imageId && row.imageWidth ? servedImage(e.imageId, row.imageWidth) : { imageUrl: null, imageSrcset: null };
  return {
    id: e.id,
    title: e.title,
    category: e.category,
    categoryConfidence: e.categoryConfidence,
    sourceType: e.sourceType,
    sourceUrl: e.sourceUrl,
    imageUrl: image.imageUrl,
    imageSrcset: image.imageSrcset,
    startDate: e.startDate.toISOString(),
    endDate: e.endDate.toISOString(),
    timeZone: e.timeZone,
    allDay: e.allDay,
    venue: e.venueName,
    address: e.address,
    neighbourhood: e.neighbourhood,
    lat: e.lat,
    lng: e.lng,
    attendeeCount: attendeesOf(e),
    price: e.price === null ? null : Number(e.price),
    priceMax: e.priceMax === null ? null : Number(e.priceMax),
    priceNote: e.priceNote,
    isFree: e.isFree,
    isVerified: e.isVerified,
    isDemo: e.isDemo,
    // A merged record answers as the event it is merged into; were one to reach a list, it shows the status it had.
    status: e.status === 'merged' ? (e.premergeStatus ?? 'pending') : e.status,
    favoriteCount: e.favoriteCount,
    moreDates: row.moreDates ?? 0,
    isFavorited: Boolean(row.isFavorited),
    distance: row.distanceM === null || row.distanceM === undefined ? null : Math.round((Number(row.distanceM) / METRES_PER_UNIT[unit]) * 10) / 10,
  };
}

/**
 * An event no source lists any more whose last listing only left a feed, while another source's
 * record of it said it is cancelled (or postponed): it is that, as the one source that said
 * anything of it says (a record that took it over, then dropped, leaves only that word).
 */
export function withSourcesWord<T extends Pick<EventDetail, 'removedBySource' | 'cancelledBySource' | 'postponedBySource' | 'calledOffBy' | 'stillListedBy'>>(e: T): T {
  if (!e.removedBySource || e.cancelledBySource || e.postponedBySource || e.stillListedBy.length || !e.calledOffBy.length) return e;
  const cancelled = e.calledOffBy.some((s) => s.kind === 'cancelled');
  return { ...e, cancelledBySource: cancelled, postponedBySource: !cancelled };
}

export function toEventDetail(
  row: DetailRow,
  sources: { sourceType: string; url: string; name: string }[],
  unit: 'mi' | 'km',
  now: Date,
  extra: Partial<Pick<EventDetail, 'mergedRecords' | 'calledOffBy' | 'stillListedBy'>> & { dates?: { id: string; startDate: Date; endDate: Date }[] } = {},
): EventDetail {
  const e = row.event;
  const dates = (extra.dates?.length ? extra.dates : [e]).map((d) => ({ id: d.id, startDate: d.startDate.toISOString(), endDate: d.endDate.toISOString() }));
  // Rows stored before the end's origin was recorded (null) are read as given, as they were shown.
  return withSourcesWord({
    ...toEventSummary(row, unit),
    description: e.description,
    endGiven: e.endGiven !== false,
    ended: hasEnded(e, now),
    sources,
    removedBySource: e.goneAt !== null,
    cancelledBySource: e.goneAt !== null && e.cancelledBySource,
    postponedBySource: e.goneAt !== null && e.postponedBySource,
    mergedRecords: extra.mergedRecords ?? 0,
    calledOffBy: extra.calledOffBy ?? [],
    stillListedBy: extra.stillListedBy ?? [],
    dates,
  });
}

/**
 * Whether an event is over at `now`: from the moment it leaves the lists (they keep `end_date > now`),
 * the default end of one whose source gave none included. Saving it from then on earns no points.
 */
export const hasEnded = (e: { endDate: Date }, now: Date) => e.endDate.getTime() <= now.getTime();

export const metresPerUnit = (unit: 'mi' | 'km') => METRES_PER_UNIT[unit];

/**
 * An event as its sources together tell it: where the kept record leaves a field blank (no
 * description, no price, no place, no end) and a record merged into it gives one, that record's.
 * A merge writes the result on the kept row, remembering the record's own values for a split
 * (duplicates.repository fillFromMergedRecords, pipeline/merge-fill.ts). Only records that were
 * listed before the merge (or, for an event still in review, any) and that their source still
 * lists fill a listed event's blanks.
 */
export function fillFromMerged(row: DetailRow, merged: DetailRow[]): DetailRow {
  const listed = row.event.status === 'approved';
  const donors = merged.filter((m) => m.event.goneAt === null && (!listed || m.event.premergeStatus === 'approved'));
  if (!donors.length) return row;
  const e = { ...row.event };
  /** The first donor's value that is there. */
  const first = <T>(pick: (d: DetailRow) => T | null | undefined): T | undefined => {
    for (const d of donors) {
      const v = pick(d);
      if (v !== null && v !== undefined) return v;
    }
    return undefined;
  };
  if (!e.description.trim()) e.description = first((d) => d.event.description.trim() || null) ?? e.description;
  // A price is its amount, range, note and freeness together: taken whole from one record.
  if (e.price === null && !e.isFree) {
    const p = first((d) => (d.event.price !== null || d.event.isFree ? d.event : null));
    if (p) Object.assign(e, { price: p.price, priceMax: p.priceMax, priceNote: p.priceNote, isFree: p.isFree });
  }
  // A place too: its name, address, neighbourhood and position from one record, or only what is missing.
  if (!e.venueName.trim()) {
    const v = first((d) => (d.event.venueName.trim() ? d.event : null));
    if (v) {
      e.venueName = v.venueName;
      if (e.lat === null || e.lng === null || e.geoApprox) Object.assign(e, { lat: v.lat, lng: v.lng, geoApprox: v.geoApprox, neighbourhood: v.neighbourhood ?? e.neighbourhood });
      e.address ??= v.address;
    }
  }
  // A named place without its position (or with only its neighbourhood's centre): a merged
  // record, one event at one place with it, gives the venue's own point.
  if (e.lat === null || e.lng === null || e.geoApprox) {
    const p = first((d) => (d.event.lat !== null && d.event.lng !== null && !d.event.geoApprox ? d.event : null));
    if (p) Object.assign(e, { lat: p.lat, lng: p.lng, geoApprox: false, neighbourhood: e.neighbourhood ?? p.neighbourhood });
  }
  e.address ??= first((d) => d.event.address) ?? null;
  e.neighbourhood ??= first((d) => d.event.neighbourhood) ?? null;
  // An end the kept record's source never gave, when another source gives one for the same start.
  if (e.endGiven === false) {
    const end = first((d) => (d.event.endGiven === true && d.event.startDate.getTime() === e.startDate.getTime() && d.event.endDate > e.startDate ? d.event.endDate : null));
    if (end) Object.assign(e, { endDate: end, endGiven: true });
  }
  return { ...row, event: e };
}
