import { z } from 'zod';

export const CATEGORIES = ['Music', 'Food', 'Business', 'Sports', 'Arts', 'Tech', 'Wellness'] as const;
export const Category = z.enum([...CATEGORIES, 'Other']);
export type Category = z.infer<typeof Category>;

/** The spec's default source types, in the filter panel's order. */
export const DEFAULT_SOURCE_TYPES = ['facebook', 'meetup', 'municipal'] as const;
export const OFFERED_SOURCE_TYPES = ['facebook', 'meetup', 'municipal', 'eventbrite'] as const;

/** Discover's date ranges (spec section 9), counted from now: today = the next 24 h, week = 7 days, month = 30 days. */
export const DATE_RANGE_MS = {
  today: 24 * 60 * 60 * 1000,
  week: 7 * 24 * 60 * 60 * 1000,
  month: 30 * 24 * 60 * 60 * 1000,
} as const satisfies Record<'today' | 'week' | 'month', number>;

export const SORTS = ['relevance', 'date', 'distance', 'popularity'] as const;
export const SortBy = z.enum(SORTS);
export type SortBy = z.infer<typeof SortBy>;

export const EventStatus = z.enum(['pending', 'approved', 'rejected']);

/** An event as lists show it: spec section 3's fields plus what a real product needs. */
export const EventSummary = z.object({
  id: z.string(),
  title: z.string(),
  category: z.string(),
  categoryConfidence: z.number(),
  sourceType: z.string(),
  sourceUrl: z.string().nullable(),
  imageUrl: z.string().nullable(),
  /** Resized copies of the image for `<img srcset>`, when it has been fetched and kept. */
  imageSrcset: z.string().nullable(),
  startDate: z.string(),
  endDate: z.string(),
  timeZone: z.string(),
  allDay: z.boolean(),
  venue: z.string(),
  address: z.string().nullable(),
  neighbourhood: z.string().nullable(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  /** People going: check-ins, plus the source's own RSVP count, plus people who saved it. */
  attendeeCount: z.number().int(),
  /** The lowest price. */
  price: z.number().nullable(),
  /** The highest price, when the source gives a range. */
  priceMax: z.number().nullable(),
  /** How the price is meant: 'at the door', 'suggested donation', 'pay what you can', 'with RSVP'. */
  priceNote: z.string().nullable(),
  isFree: z.boolean(),
  isVerified: z.boolean(),
  isDemo: z.boolean(),
  status: EventStatus,
  /** Later occurrences of the same recurring event within the request's filters (lists show a series once). */
  moreDates: z.number().int(),
  favoriteCount: z.number().int(),
  /** Only for a signed-in request; false otherwise. */
  isFavorited: z.boolean(),
  /** Miles (or km, per the city) from the requested or default point, when it could be computed. */
  distance: z.number().nullable(),
});
export type EventSummary = z.infer<typeof EventSummary>;

export const EventSource = z.object({ sourceType: z.string(), url: z.string(), name: z.string() });

export const EventDetail = EventSummary.extend({
  description: z.string(),
  /**
   * Whether endDate is the source's own end. False when the source gave none and a default duration
   * keeps the event listed until then: the page shows only its start.
   */
  endGiven: z.boolean(),
  /** Its end (endDate) has passed by the server's clock: out of lists; saving it earns no points. */
  ended: z.boolean(),
  /** Every source that lists it, those of records merged into it included. */
  sources: z.array(EventSource),
  /** Every source that listed it has dropped it: kept for people who saved it, out of lists. */
  removedBySource: z.boolean(),
  /** Removed because a source said it is cancelled (then removedBySource is true as well). */
  cancelledBySource: z.boolean(),
  /** Removed because a source said it is postponed, with no new date yet (removedBySource is true as well; never with cancelledBySource). */
  postponedBySource: z.boolean(),
  /**
   * Sources whose record of this event says it is cancelled or postponed: its own (removedBySource
   * is then true), or a record merged into it while its own still lists it. One each, by name.
   */
  calledOffBy: z.array(z.object({ name: z.string(), kind: z.enum(['cancelled', 'postponed']) })),
  /** Sources whose records of this event still list it (when another calls it off, people learn the sources disagree). */
  stillListedBy: z.array(z.string()),
  /** Other sources' records merged into this event; an admin can split them back out. */
  mergedRecords: z.number().int(),
  /** Every upcoming date of its series, this one included, soonest first (one entry for a one-off event). */
  dates: z.array(z.object({ id: z.string(), startDate: z.string(), endDate: z.string() })),
});
export type EventDetail = z.infer<typeof EventDetail>;

/**
 * One of a member's saved events (GET /api/user/favorites): those the sources dropped stay, marked,
 * and so do those an admin turned down after they were saved (`status` 'rejected'; their page stays
 * open to the member, saying so).
 */
export const SavedEvent = EventSummary.extend({
  /** Every source that listed it has dropped it: out of lists, kept here for the member who saved it. */
  removedBySource: z.boolean(),
  /** Removed because a source said it is cancelled. */
  cancelledBySource: z.boolean(),
  /** Removed because a source said it is postponed, with no new date yet. */
  postponedBySource: z.boolean(),
  /** As EventDetail's: the sources that call it off, and those that still list it. */
  calledOffBy: EventDetail.shape.calledOffBy,
  stillListedBy: EventDetail.shape.stillListedBy,
  /** Whether endDate is the source's own end (as EventDetail.endGiven): a calendar entry has no end the source never gave. */
  endGiven: z.boolean(),
  /** Its end has passed (as EventDetail.ended): My Events shows it among past events. */
  ended: z.boolean(),
});
export type SavedEvent = z.infer<typeof SavedEvent>;

/** A day (2026-12-01, midnight UTC) or a date-time (2026-12-01T08:00:00Z or with an offset); never '-1' or 30 February. */
const isoDate = (name: string) =>
  z
    .union([z.iso.date(), z.iso.datetime({ offset: true })], { error: `${name} must be an ISO date (2026-12-01) or date-time (2026-12-01T08:00:00Z)` })
    .transform((s) => new Date(s));

const list = z
  .string()
  .max(500)
  .transform((s) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  )
  .transform((l) => (l.includes('all') ? [] : l));

/** GET /api/events query: filters, sort and page. */
export const EventListQuery = z
  .object({
    category: list.optional(),
    sourceType: list.optional(),
    /** The city's neighbourhoods (comma-separated, any case): events whose neighbourhood is one of them. */
    neighbourhood: list.optional(),
    search: z.string().trim().max(200, 'search must be at most 200 characters').optional(),
    sortBy: z.enum(SORTS, { message: `sortBy must be one of ${SORTS.join(', ')}` }).optional(),
    /**
     * The window [startDate, endDate): events that overlap it, ending after startDate and starting
     * before endDate: one that ends as it opens or starts as it closes only touches it; one with
     * no length (start = end) at startDate is in it. Discover sends a custom day as its midnight
     * to the next midnight in the city's zone.
     */
    startDate: isoDate('startDate').optional(),
    endDate: isoDate('endDate').optional(),
    lat: z.coerce.number({ error: 'lat must be a number' }).min(-90, 'lat must be between -90 and 90').max(90, 'lat must be between -90 and 90').optional(),
    lng: z.coerce.number({ error: 'lng must be a number' }).min(-180, 'lng must be between -180 and 180').max(180, 'lng must be between -180 and 180').optional(),
    radius: z.coerce.number({ error: 'radius must be a number' }).min(1, 'radius must be between 1 and 50').max(50, 'radius must be between 1 and 50').optional(),
    limit: z.coerce.number({ error: 'limit must be a whole number' }).int('limit must be a whole number').min(1, 'limit must be at least 1').max(100, 'limit must be at most 100').default(24),
    offset: z.coerce.number({ error: 'offset must be a whole number' }).int('offset must be a whole number').min(0, 'offset must be 0 or more').max(100_000, 'offset must be at most 100000').default(0),
  })
  .refine((q) => (q.lat === undefined) === (q.lng === undefined), { message: 'lat and lng must be given together', path: ['lat'] })
  .refine((q) => !q.startDate || !q.endDate || q.startDate <= q.endDate, { message: 'endDate must not be before startDate', path: ['endDate'] });
export type EventListQuery = z.infer<typeof EventListQuery>;

/** Pending events GET /api/admin/events/pending answers at once, newest first; `x-total-count` tells how many wait in all. */
export const PENDING_PAGE = 200;
export const PendingQuery = z.object({
  offset: z.coerce.number({ error: 'offset must be a whole number' }).int('offset must be a whole number').min(0, 'offset must be 0 or more').max(10_000_000, 'offset is too large').default(0),
});
export type EventListQueryInput = z.input<typeof EventListQuery>;

export const EventIdParams = z.object({ id: z.uuid('id must be an event id') });

export const EventStats = z.object({
  totalEvents: z.number().int(),
  todayEvents: z.number().int(),
  /** Enabled sources (feeds, APIs, uploads) with a listed event that has not ended; an admin's own events and members' contributions are not sources. */
  activeSources: z.number().int(),
  /** Percentage with one decimal: neighbourhoods with an upcoming event this week. */
  coverage: z.number(),
});
export type EventStats = z.infer<typeof EventStats>;

export const FacetCount = z.object({ value: z.string(), count: z.number().int() });
/** `estimated`: the total or some counts are estimates (a broad filter past a thousand events), rounded to two figures. */
export const EventFacets = z.object({ categories: z.array(FacetCount), sourceTypes: z.array(FacetCount), total: z.number().int(), estimated: z.boolean() });
export type EventFacets = z.infer<typeof EventFacets>;

export const FavoriteToggleResponse = z.object({ isFavorited: z.boolean() });

export const CalendarLink = z.object({ url: z.string() });

/** An event an admin enters by hand (POST /api/admin/events) or edits. */
export const EventInput = z.object({
  title: z.string().trim().min(1, 'title is required').max(300),
  description: z.string().max(20_000).default(''),
  category: Category.default('Other'),
  sourceType: z.string().trim().min(1).max(40).default('municipal'),
  sourceUrl: z.url().max(2000).nullable().default(null),
  imageUrl: z.url().max(2000).nullable().default(null),
  startDate: z.iso.datetime({ offset: true, message: 'startDate must be an ISO date-time' }),
  endDate: z.iso.datetime({ offset: true, message: 'endDate must be an ISO date-time' }).nullable().default(null),
  venue: z.string().trim().max(300).default(''),
  address: z.string().trim().max(500).nullable().default(null),
  neighbourhood: z.string().trim().max(100).nullable().default(null),
  lat: z.number().min(-90).max(90).nullable().default(null),
  lng: z.number().min(-180).max(180).nullable().default(null),
  price: z.number().min(0).max(100_000).nullable().default(null),
  attendeeCount: z.number().int().min(0).default(0),
  status: EventStatus.default('approved'),
});
export type EventInput = z.infer<typeof EventInput>;
export type EventInputRaw = z.input<typeof EventInput>;

const money = (n: number) => (n % 1 === 0 ? n.toFixed(0) : n.toFixed(2));

/**
 * Spec section 5: 'Free' when isFree or there is no price; otherwise the price 'per person'
 * ('$12–15 per person' for a range). One case the spec did not foresee: a source that names no
 * amount but says the event is not free ('pay what you can') shows those words, not 'Free'.
 */
export function priceLabel(e: { isFree: boolean; price: number | null; priceMax?: number | null; priceNote?: string | null }): string {
  if (e.isFree) return 'Free';
  if (e.price === null || e.price === undefined) {
    return e.priceNote && /pay what you can|donation|sliding/i.test(e.priceNote) ? e.priceNote.charAt(0).toUpperCase() + e.priceNote.slice(1) : 'Free';
  }
  const range = e.priceMax !== null && e.priceMax !== undefined && e.priceMax > e.price ? `–${money(e.priceMax)}` : '';
  return `$${money(e.price)}${range} per person`;
}

/** PATCH /api/admin/events/:id: the review table's Edit dialog. */
export const EventPatch = z
  .object({
    title: z.string().trim().min(1, 'title is required').max(300),
    category: Category,
    startDate: z.iso.datetime({ offset: true, message: 'startDate must be an ISO date-time' }),
    venue: z.string().trim().max(300),
    price: z.number().min(0, 'price must be 0 or more').max(100_000).nullable(),
  })
  .partial()
  .refine((p) => Object.keys(p).length > 0, { message: 'body must change at least one field' });
export type EventPatch = z.infer<typeof EventPatch>;

/** "A", "A and B", "A, B and C": source names in a sentence. */
export const namesOf = (names: readonly string[]): string => new Intl.ListFormat('en', { type: 'conjunction' }).format(names);

/**
 * When sources disagree, what they say, for a page or a calendar: "Poetry Blog says it is
 * cancelled, while Central Library still lists it". Null when none calls it off or none still lists it.
 */
export function sourcesDisagree(e: Pick<EventDetail, 'calledOffBy' | 'stillListedBy'>): string | null {
  if (!e.calledOffBy.length || !e.stillListedBy.length) return null;
  const n = e.stillListedBy.length;
  return `${e.calledOffBy.map((s) => `${s.name} says it is ${s.kind}`).join('; ')}, while ${namesOf(e.stillListedBy)} still ${n === 1 ? 'lists' : 'list'} it`;
}
