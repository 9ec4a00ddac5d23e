// The contract between connectors (fetch + parse a source into candidates) and the pipeline
// (normalise, deduplicate, classify, store). Connectors never touch the database.

import { CONNECTOR_IDS, type RunNote } from '../../../contract/ingestion.ts';

export { CONNECTOR_IDS };
export type ConnectorId = (typeof CONNECTOR_IDS)[number];

/** One event as a source describes it, before normalisation. */
export interface CandidateEvent {
  /** Stable within the source: a UID (plus the occurrence start for recurring events), a guid, an id, or the URL. */
  externalId: string;
  title: string;
  /** Plain text or HTML; the pipeline turns it into safe text. */
  description?: string;
  url?: string;
  imageUrl?: string;
  /** The instant it starts (UTC inside a Date). */
  start: Date;
  end?: Date;
  allDay?: boolean;
  /** The IANA zone the source gave, when it gave one. */
  timeZone?: string;
  venueName?: string;
  address?: string;
  lat?: number;
  lng?: number;
  /** Lowest ticket price in the source's currency; 0 or isFree for free events. */
  price?: number | null;
  /** Highest ticket price, when the source gives a range or several offers. */
  priceMax?: number | null;
  /** How the price is meant, when the source's price field says so ('suggested donation'). */
  priceNote?: string | null;
  /** True only when the source says so; false when it says the event is not free. */
  isFree?: boolean;
  currency?: string;
  /** Tags or categories the source attached, used as hints by the classifier. */
  categories?: string[];
  attendeeCount?: number;
  cancelled?: boolean;
  /** The source says it is postponed and gives no new date yet (a new date comes as a new start, without this). */
  postponed?: boolean;
}

/** What a safe fetch returns: the body is already read, within the size limit. */
export interface FetchResult {
  status: number;
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  text(): string;
}

export interface SafeFetchInit {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

/**
 * Fetch that refuses private, loopback, link-local and unspecified addresses (checked on the
 * resolved address at connect time, and again after every redirect) unless allowed, and caps
 * size (10 MB) and time (20 s).
 */
export type SafeFetch = (url: string, init?: SafeFetchInit) => Promise<FetchResult>;

export interface SourceSpec {
  id: string;
  name: string;
  connector: ConnectorId;
  url: string | null;
  sourceType: string;
  config: Record<string, unknown>;
  /** Conditional-request validators from the last successful run. */
  etag?: string | null;
  lastModified?: string | null;
}

export interface ConnectorContext {
  fetch: SafeFetch;
  now: Date;
  /** The city's zone: the default for floating times. */
  timeZone: string;
  /** Recurrences are expanded from now to now + horizonDays, at most maxOccurrences per event. */
  horizonDays: number;
  /** APIs are asked for events starting up to now + listAheadDays: one-off events announced far ahead are kept. */
  listAheadDays: number;
  maxOccurrences: number;
}

export interface ConnectorResult {
  candidates: CandidateEvent[];
  /** What the source held that the run could not use, by reason (see run-notes.ts). */
  notes?: RunNote[];
  /** True when the source answered 304 Not Modified: nothing to do. */
  notModified?: boolean;
  etag?: string | null;
  lastModified?: string | null;
}

/** What keeps a source from being run, as the admin API names it: `url`, `config.token`, `config.mapping.title`. */
export interface SourceIssue {
  path: string;
  /** A sentence that names the field: "config.token is required for an Eventbrite source". */
  message: string;
}

export interface Connector {
  id: ConnectorId;
  run(source: SourceSpec, ctx: ConnectorContext): Promise<ConnectorResult>;
  /**
   * What the source lacks for `run` to read it (a URL, a setting, an option value the connector
   * does not know), or undefined: a source is checked when saved, so none is kept that can never run.
   */
  check(source: Pick<SourceSpec, 'url' | 'config'>): SourceIssue | undefined;
}

/** A failure that names what went wrong with a source, shown on its health record. */
export class SourceError extends Error {}

/**
 * The host could not be reached at all (no such name, connection refused or reset): the address
 * is at fault, not the page. `why` says it in a few words for people ("no host named x was found").
 */
export class SourceUnreachable extends SourceError {
  constructor(
    message: string,
    readonly why: string,
  ) {
    super(message);
  }
}
