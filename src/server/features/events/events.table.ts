import { sql, type SQL } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/** An image a source points at, fetched through the guarded fetch once and kept as resized copies. */
export const images = pgTable(
  'images',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sourceUrl: text('source_url').notNull(),
    status: text('status', { enum: ['pending', 'ready', 'failed'] }).notNull().default('pending'),
    /** Why it could not be used (not an image, too large, unreachable), for the sources page. */
    error: text('error'),
    width: integer('width'),
    height: integer('height'),
    attempts: integer('attempts').notNull().default(0),
    isDemo: boolean('is_demo').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('images_source_url_idx').on(t.sourceUrl)],
);

/** One resized copy of an image: WebP at a fixed width, served with long cache headers. */
export const imageVariants = pgTable(
  'image_variants',
  {
    imageId: uuid('image_id')
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    contentType: text('content_type').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.imageId, t.width] })],
);

export const venues = pgTable(
  'venues',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    address: text('address'),
    neighbourhood: text('neighbourhood'),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('venues_name_idx').on(sql`lower(${t.name})`)],
);

export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    category: text('category').notNull().default('Other'),
    categoryConfidence: real('category_confidence').notNull().default(0),
    sourceType: text('source_type').notNull(),
    sourceUrl: text('source_url'),
    imageUrl: text('image_url'),
    startDate: timestamp('start_date', { withTimezone: true }).notNull(),
    /** Always set: ingestion fills a default duration when a source gives none. */
    endDate: timestamp('end_date', { withTimezone: true }).notNull(),
    /**
     * Whether the end is the source's (or the admin's) own. False when it was filled in (a default
     * duration) so the event can be listed until then: pages show only the start. Null for rows stored
     * before this was known, read as given; a source's next run records it.
     */
    endGiven: boolean('end_given'),
    timeZone: text('time_zone').notNull(),
    allDay: boolean('all_day').notNull().default(false),
    venueId: uuid('venue_id').references(() => venues.id, { onDelete: 'set null' }),
    venueName: text('venue_name').notNull().default(''),
    address: text('address'),
    neighbourhood: text('neighbourhood'),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
    /** True when lat/lng are a neighbourhood's centre, not the venue's own position (no evidence for matching). */
    geoApprox: boolean('geo_approx').notNull().default(false),
    /** The source's own RSVP or attendee count (Meetup, Eventbrite, Mobilizon); 0 when it gives none. */
    attendeeCount: integer('attendee_count').notNull().default(0),
    /** People who checked in with the event's signed QR code. */
    checkinCount: integer('checkin_count').notNull().default(0),
    /**
     * Members who saved the event or checked in at it, each person once (saving and checking in is
     * one person). Attendees everywhere = attendeeCount + peopleCount. Kept by the favourite toggle
     * and the check-in in their transactions, recounted on merges and splits (peopleOf).
     */
    peopleCount: integer('people_count').notNull().default(0),
    /** The lowest price; with `priceMax`, the range a source or its text gives ("Tickets $12-15"). */
    price: numeric('price', { precision: 10, scale: 2, mode: 'number' }),
    priceMax: numeric('price_max', { precision: 10, scale: 2, mode: 'number' }),
    /** How the price is meant, from the source's words: "at the door", "suggested donation", "pay what you can". */
    priceNote: text('price_note'),
    isFree: boolean('is_free').notNull().default(false),
    isVerified: boolean('is_verified').notNull().default(false),
    isDemo: boolean('is_demo').notNull().default(false),
    /** 'merged': another source's record of the event in `mergedInto`; kept whole so a split restores it. */
    status: text('status', { enum: ['pending', 'approved', 'rejected', 'merged'] }).notNull().default('pending'),
    mergedInto: uuid('merged_into').references((): AnyPgColumn => events.id, { onDelete: 'set null' }),
    /** The status it had before it was merged, given back by a split. */
    premergeStatus: text('premerge_status', { enum: ['pending', 'approved', 'rejected'] }),
    /** Set when the event vanished from every feed that listed it; kept, not deleted. */
    goneAt: timestamp('gone_at', { withTimezone: true }),
    /** Gone because a source said it is cancelled (its item's STATUS), not only dropped from the feed. */
    cancelledBySource: boolean('cancelled_by_source').notNull().default(false),
    /**
     * Gone because a source said it is postponed with no new date yet (schema.org EventPostponed);
     * cleared, as cancelled is, when the source lists it again (usually at its new date).
     */
    postponedBySource: boolean('postponed_by_source').notNull().default(false),
    /**
     * What an admin corrected ('title', 'venue', 'price', 'startDate', the Edit dialog's fields) or
     * set ('neighbourhood', named when adding the event): a source's later change of its item, a
     * merge's fill and a changed venue leave these as the admin set them.
     */
    editedFields: text('edited_fields').array().notNull().default(sql`'{}'::text[]`),
    /**
     * The fields a merge filled from the records merged into this event, because its own record
     * left them blank (description, price, place, end): column -> the record's own value (JSON).
     * A split puts those back; a source's later change of such a field takes it over (merge-fill.ts).
     */
    filled: jsonb('filled').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    favoriteCount: integer('favorite_count').notNull().default(0),
    /** A cached copy of the event's image, once fetched and resized (see features/images). */
    imageId: uuid('image_id').references(() => images.id, { onDelete: 'set null' }),
    /**
     * Occurrences of one recurring event share it: the same title at the same place (or, with no
     * place, from the same kind of source). Lists show a series as one card, its next date first.
     */
    seriesKey: text('series_key').generatedAlwaysAs(
      (): SQL => sql`lower(title) || '|' || coalesce(nullif(lower(venue_name), ''), 'source:' || source_type)`,
    ),
    /**
     * The latest end among the earlier listed occurrences of its series (null for none), kept by
     * a trigger (migration 0014). A row is its series' card when this has passed: the list's
     * "is there an earlier occurrence still to come?" test reads a column instead of the index.
     * Never written by the app.
     */
    seriesPrevEnd: timestamp('series_prev_end', { withTimezone: true }),
    /**
     * The source types of the other records merged into this event (status 'merged', not gone),
     * distinct and sorted, without the event's own; null when there are none, as for nearly every
     * event. Kept by triggers (migration 0038) so the source filter and facets read the event's
     * types from its row or the listing indexes, which carry it. Never written by the app.
     */
    otherSourceTypes: text('other_source_types').array(),
    contributedBy: uuid('contributed_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    search: tsvector('search').generatedAlwaysAs(
      (): SQL =>
        // The search box promises events, venues and categories: the category and the
        // neighbourhood (shown on every card) are words of the event too.
        sql`setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(venue_name, '') || ' ' || coalesce(neighbourhood, '')), 'B') || setweight(to_tsvector('english', coalesce(category, '')), 'B') || setweight(to_tsvector('english', coalesce(description, '')), 'C')`,
    ),
  },
  (t) => [
    index('events_status_start_idx').on(t.status, t.startDate),
    index('events_status_category_start_idx').on(t.status, t.category, t.startDate),
    index('events_status_source_start_idx').on(t.status, t.sourceType, t.startDate),
    // Listed cards by start and by popularity (attendees: attendee_count + people_count, migration
    // 0035), covering what lists filter on: written as SQL in migrations 0015, 0017, 0035 and 0038 (drizzle cannot declare INCLUDE columns): events_cards_start_idx,
    // events_cards_popularity_idx, events_cards_earth_idx (events_cards_search_start_idx, which also carried
    // the words, was dropped in 0021: a long description made its entry too large to insert).
    // Counts and facets of upcoming events read these alone (index-only scans), not the wide rows;
    // series_prev_end rides along for the series test (a series is one card), other_source_types for
    // the source filter (an event is listed under its merged records' sources too, migration 0038).
    index('events_upcoming_category_idx')
      .on(t.status, t.category, t.endDate, t.sourceType, t.startDate, t.seriesPrevEnd, t.otherSourceTypes)
      .where(sql`${t.goneAt} is null`),
    index('events_upcoming_source_idx')
      .on(t.status, t.sourceType, t.endDate, t.category, t.startDate, t.seriesPrevEnd, t.otherSourceTypes)
      .where(sql`${t.goneAt} is null`),
    // Radius filters: a latitude range, then longitude and the distance from the entries alone.
    index('events_upcoming_geo_idx')
      .on(t.status, t.lat, t.lng, t.endDate, t.category, t.sourceType, t.seriesPrevEnd, t.otherSourceTypes)
      .where(sql`${t.goneAt} is null`),
    // A category within a radius: the category's latitude band, not every category's. Counting
    // the Business cards of a three-mile circle read the whole band of the index above
    // (20.7 ms over 100,000 events); this one reads a ninth of it (4.0 ms; issue 18).
    index('events_upcoming_category_geo_idx')
      .on(t.status, t.category, t.lat, t.lng, t.endDate, t.sourceType, t.seriesPrevEnd, t.otherSourceTypes)
      .where(sql`${t.goneAt} is null`),
    index('events_status_end_idx').on(t.status, t.endDate),
    index('events_search_idx').using('gin', t.search),
    // A search among one category's or one source's listed cards: the words (and the title's
    // trigrams) together with the category and the source in one index (btree_gin), which
    // intersects them itself. From two indexes, PostgreSQL built a bitmap of every Music card and
    // one of every match to AND them: "community" among Music events over 100,000, 13.4 ms of
    // bitmaps before reading a row, 4.2 ms here; "tasting" among Music (none) 14 -> 1.4 ms.
    // The source as the event's types in one array, its own and its merged records' (0038), which
    // a search's source filter tests; statistics of that expression are kept too (0038).
    index('events_cards_words_idx')
      .using('gin', t.category, sql`(array[${t.sourceType}] || ${t.otherSourceTypes})`, t.search, sql`lower(${t.title}) gin_trgm_ops`)
      .where(sql`${t.status} = 'approved' and ${t.goneAt} is null`),
    index('events_title_trgm_idx').using('gin', sql`lower(${t.title}) gin_trgm_ops`),
    index('events_earth_idx').using('gist', sql`ll_to_earth(${t.lat}, ${t.lng})`),
    index('events_venue_idx').on(t.venueId),
    index('events_start_idx').on(t.startDate),
    // A series' other occurrences: is there an earlier one, how many more, which dates. Status,
    // end and id ride along so the per-row "earlier occurrence?" test is an index-only lookup.
    index('events_series_idx').on(t.seriesKey, t.startDate, t.id, t.status, t.endDate).where(sql`${t.goneAt} is null`),
    index('events_image_pending_idx').on(t.imageUrl).where(sql`${t.imageUrl} is not null and ${t.imageId} is null`),
    index('events_merged_into_idx').on(t.mergedInto).where(sql`${t.mergedInto} is not null`),
  ],
);

/** Each feed or contribution an event was seen in. */
export const eventSources = pgTable(
  'event_sources',
  {
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    sourceType: text('source_type').notNull(),
    url: text('url').notNull().default(''),
    name: text('name').notNull(),
    externalId: text('external_id').notNull().default(''),
    sourceId: uuid('source_id'),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** Hash of the source's item as last applied: a run updates the event only when its item changed. */
    contentHash: text('content_hash'),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.sourceType, t.externalId, t.url] }), index('event_sources_source_ext_idx').on(t.sourceId, t.externalId)],
);

export type EventRow = typeof events.$inferSelect;

/** A user's favourites; the pair is the key, so a favourite exists at most once. */
export const favorites = pgTable(
  'favorites',
  {
    userId: uuid('user_id').notNull(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set on a save a merge copied here from the record it merged in: a split takes it back. */
    copiedFrom: uuid('copied_from'),
  },
  // copied_from has no foreign key: a split deletes the copies of the records it restores, by id.
  (t) => [primaryKey({ columns: [t.userId, t.eventId] }), index('favorites_event_idx').on(t.eventId), index('favorites_copied_from_idx').on(t.copiedFrom).where(sql`${t.copiedFrom} is not null`)],
);
