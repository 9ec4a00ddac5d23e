import type { EventDetail, EventSummary } from '../../../contract/events.ts';
import type { SummaryRow } from './events.repository.ts';

const METRES_PER_UNIT = { mi: 1609.344, km: 1000 } as const;

/** A database row as the wire shows it; distances in the city's unit, one decimal. */
export function toEventSummary(row: SummaryRow, unit: 'mi' | 'km' = 'mi'): EventSummary {
  const e = row.event;
  return {
    id: e.id,
    title: e.title,
    category: e.category,
    categoryConfidence: e.categoryConfidence,
    sourceType: e.sourceType,
    sourceUrl: e.sourceUrl,
    imageUrl: e.imageUrl,
    startDate: e.startDate.toISOString(),
    endDate: e.endDate.toISOString(),
    timeZone: e.timeZone,
    allDay: e.allDay,
    venue: e.venueName,
    address: e.address,
    neighbourhood: e.neighbourhood,
    lat: e.lat,
    lng: e.lng,
    attendeeCount: e.attendeeCount,
    price: e.price === null ? null : Number(e.price),
    isFree: e.isFree,
    isVerified: e.isVerified,
    isDemo: e.isDemo,
    // A merged record answers as the event it is merged into; were one to reach a list, it shows the status it had.
    status: e.status === 'merged' ? (e.premergeStatus ?? 'pending') : e.status,
    favoriteCount: e.favoriteCount,
    isFavorited: Boolean(row.isFavorited),
    distance: row.distanceM === null || row.distanceM === undefined ? null : Math.round((Number(row.distanceM) / METRES_PER_UNIT[unit]) * 10) / 10,
  };
}

export function toEventDetail(row: SummaryRow, sources: { sourceType: string; url: string; name: string }[], unit: 'mi' | 'km' = 'mi', extra: { mergedRecords?: number } = {}): EventDetail {
  return { ...toEventSummary(row, unit), description: row.event.description, sources, removedBySource: row.event.goneAt !== null, mergedRecords: extra.mergedRecords ?? 0 };
}

export const metresPerUnit = (unit: 'mi' | 'km') => METRES_PER_UNIT[unit];
