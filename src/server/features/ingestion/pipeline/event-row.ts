import type { Classification } from '../classifier/classifier.ts';
import type { EventItemFields, RunEventRow } from '../sources.repository.ts';
import { keepFilled, type Filled } from './merge-fill.ts';
import type { NormalisedEvent } from './normalise.ts';

type Status = 'pending' | 'approved' | 'rejected';

/** The one place a normalised item becomes a new event row (a run's and a member's contribution alike). */
export function newEventRow(
  n: NormalisedEvent,
  o: {
    id: string;
    now: Date;
    sourceType: string;
    classification: Classification;
    status: Status;
    venueId: string | null;
    isVerified: boolean;
    isDemo: boolean;
    /** When the item is one with a listed event: that event; the row is kept, merged, with its own status for a split. */
    mergedInto?: string | null;
    contributedBy?: string | null;
    /** The item says its event is cancelled or postponed: a record kept gone, saying so (only ever merged into the event it is one with). */
    off?: 'cancelled' | 'postponed';
  },
): RunEventRow {
  return {
    ...itemFields(n),
    id: o.id,
    category: o.classification.category,
    categoryConfidence: o.classification.confidence,
    sourceType: o.sourceType,
    timeZone: n.timeZone,
    venueId: o.venueId,
    attendeeCount: n.attendeeCount,
    isVerified: o.isVerified,
    isDemo: o.isDemo,
    status: o.mergedInto ? 'merged' : o.status,
    mergedInto: o.mergedInto ?? null,
    premergeStatus: o.mergedInto ? o.status : null,
    contributedBy: o.contributedBy ?? null,
    goneAt: o.off ? o.now : null,
    cancelledBySource: o.off === 'cancelled',
    postponedBySource: o.off === 'postponed',
    createdAt: o.now,
    updatedAt: o.now,
  };
}

/** What a source's item says about the event, as columns. */
export function itemFields(n: NormalisedEvent): EventItemFields {
  return {
    title: n.title,
    description: n.description,
    startDate: n.start,
    endDate: n.end,
    endGiven: n.endGiven,
    allDay: n.allDay,
    venueName: n.venueName,
    address: n.address,
    neighbourhood: n.neighbourhood,
    lat: n.lat,
    lng: n.lng,
    geoApprox: n.geoApprox,
    price: n.price,
    priceMax: n.priceMax,
    priceNote: n.priceNote,
    isFree: n.isFree,
    imageUrl: n.imageUrl,
    sourceUrl: n.url,
  };
}

/**
 * The columns each field an admin set sets (the Edit dialog, events.service edit; a neighbourhood
 * named when adding the event, events.service create): a source or a merge leaves them be.
 */
const EDITED_COLUMNS: Record<string, (keyof EventItemFields)[]> = {
  title: ['title'],
  venue: ['venueName'],
  price: ['price', 'priceMax', 'priceNote', 'isFree'],
  startDate: ['startDate', 'endDate', 'endGiven'],
  neighbourhood: ['neighbourhood'],
};

/** The columns of the fields an admin corrected (events.edited_fields). */
export const editedColumns = (fields: readonly string[]): (keyof EventItemFields)[] => fields.flatMap((f) => EDITED_COLUMNS[f] ?? []);

/**
 * What a source's changed item sets on the event it links: image and URL are kept when the item
 * has none, what an admin corrected stays as the admin set it, and what a merge filled in stays
 * while the item still leaves it blank (merge-fill.ts).
 */
export function eventPatch(
  n: NormalisedEvent,
  old: EventItemFields & { editedFields: readonly string[]; filled: Filled },
): EventItemFields & { goneAt: null; cancelledBySource: false; postponedBySource: false; filled: Filled } {
  const own: EventItemFields = { ...itemFields(n), imageUrl: n.imageUrl ?? old.imageUrl, sourceUrl: n.url ?? old.sourceUrl };
  const { item, filled } = keepFilled(own, old, old.filled);
  for (const column of editedColumns(old.editedFields)) Object.assign(item, { [column]: old[column] });
  return { ...item, goneAt: null, cancelledBySource: false, postponedBySource: false, filled };
}
