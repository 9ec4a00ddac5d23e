// Eventbrite API v3: the live events of one organizer, or of one venue.
//
// source.config:
//   {
//     token: string;          // a private OAuth token, sent as "Authorization: Bearer <token>"
//     organizerId?: string;   // GET {base}/organizers/{organizerId}/events/
//     venueId?: string;       // GET {base}/venues/{venueId}/events/   (exactly one of the two)
//   }
// source.url: the API base (default https://www.eventbriteapi.com/v3); an eventbrite.com web page
// there (an organizer's profile, say) is ignored.
//
// Query: status=live&order_by=start_asc&expand=venue,ticket_availability,category,subcategory,format
// Pages: while pagination.has_more_items, ask again with pagination.continuation when the API gave
// one, else with page=N+1 (at most 20 pages; stops once events start past the horizon).
// Each event: start.utc / end.utc (start.local in start.timezone as a fallback), venue.address with
// string latitude/longitude, ticket_availability.minimum_ticket_price.major_value for the lowest
// price, is_free, category/subcategory/format names, status "canceled".

import { z } from 'zod';
import { isRealWallClock, readTimestamp, zonedToUtc } from '../../../../contract/time.ts';
import {
  SourceError,
  type CandidateEvent,
  type Connector,
  type ConnectorContext,
  type ConnectorResult,
  type SourceSpec,
} from '../ingestion.types.ts';
import { apiUrlIssue, configIssue, createApiRun, num, readConfig, rec, requestJson, str, type Json } from './api.ts';

/** How the admin API names a source of this connector. */
const SOURCE = 'an Eventbrite source';
const PROVIDER = 'Eventbrite';
const DEFAULT_BASE = 'https://www.eventbriteapi.com/v3';
const MAX_PAGES = 20;
const DAY_MS = 86_400_000;
const EXPAND = 'venue,ticket_availability,category,subcategory,format';

const idSchema = z.union([z.string().trim().regex(/^\d+$/, 'must be a numeric Eventbrite id'), z.number().int().positive()]).transform(String);
const configSchema = z
  .object({ token: z.string().trim().min(1), organizerId: idSchema.optional(), venueId: idSchema.optional() })
  .refine((c) => (c.organizerId === undefined) !== (c.venueId === undefined), {
    path: ['organizerId'],
    message: 'set organizerId or venueId (exactly one)',
  });

async function run(source: SourceSpec, ctx: ConnectorContext): Promise<ConnectorResult> {
  const config = parseConfig(source.config);
  const base = apiBase(source.url);
  const list = config.organizerId ? `organizers/${config.organizerId}` : `venues/${config.venueId}`;
  const horizonEnd = new Date(ctx.now.getTime() + ctx.listAheadDays * DAY_MS);
  const run = createApiRun();
  let next: { continuation?: string; page?: number } = {};

  let n = 0;
  for (; n < MAX_PAGES; n++) {
    const q = new URLSearchParams({ status: 'live', order_by: 'start_asc', expand: EXPAND });
    if (next.continuation) q.set('continuation', next.continuation);
    else if (next.page) q.set('page', String(next.page));
    const body = rec(
      await requestJson(ctx, PROVIDER, `${base}/${list}/events/?${q.toString()}`, { headers: { authorization: `Bearer ${config.token}` }, failure: eventbriteFailure }),
    );
    if (!body || !Array.isArray(body.events)) throw new SourceError(`${PROVIDER} answered JSON without an events list`);

    let lastStart: Date | undefined;
    for (const raw of body.events) {
      const candidate = toCandidate(raw);
      if (!candidate) {
        run.unreadable(raw);
        continue;
      }
      lastStart = candidate.start;
      if (inWindow(candidate, ctx.now, horizonEnd)) run.keep(candidate);
    }
    const pagination = rec(body.pagination);
    if (pagination?.has_more_items !== true || body.events.length === 0) break;
    if (lastStart && lastStart.getTime() > horizonEnd.getTime()) break;
    const continuation = str(pagination.continuation);
    next = continuation ? { continuation } : { page: (num(pagination.page_number) ?? n + 1) + 1 };
  }
  if (n === MAX_PAGES) run.pageLimit(MAX_PAGES);
  return run.result();
}

const parseConfig = (input: Record<string, unknown>) => readConfig(configSchema, input, 'eventbrite');

function apiBase(url: string | null): string {
  if (!url) return DEFAULT_BASE;
  try {
    const host = new URL(url).hostname;
    if (/(^|\.)eventbrite\.[a-z.]+$/i.test(host)) return DEFAULT_BASE;
  } catch {
    throw new SourceError(`${PROVIDER}: the source URL is not a URL`);
  }
  return url.replace(/\/+$/, '');
}

function toCandidate(raw: unknown): CandidateEvent | undefined {
  const e = rec(raw);
  const id = str(e?.id);
  const title = str(rec(e?.name)?.text);
  if (!e || !id || !title) return undefined;
  const start = instant(rec(e.start));
  if (!start) return undefined;

  const candidate: CandidateEvent = { externalId: id, title, start };
  const end = instant(rec(e.end));
  if (end && end.getTime() >= start.getTime()) candidate.end = end;
  const zone = str(rec(e.start)?.timezone);
  if (zone) candidate.timeZone = zone;
  const description = str(rec(e.description)?.html) ?? str(rec(e.description)?.text) ?? str(e.summary);
  if (description) candidate.description = description;
  const url = str(e.url);
  if (url) candidate.url = url;
  const logo = rec(e.logo);
  const image = str(rec(logo?.original)?.url) ?? str(logo?.url);
  if (image) candidate.imageUrl = image;

  const venue = rec(e.venue);
  if (venue && e.online_event !== true) {
    const name = str(venue.name);
    if (name) candidate.venueName = name;
    const a = rec(venue.address);
    const address =
      str(a?.localized_address_display) ??
      [str(a?.address_1), str(a?.address_2), str(a?.city), [str(a?.region), str(a?.postal_code)].filter(Boolean).join(' ')].filter(Boolean).join(', ');
    if (address) candidate.address = address;
    const lat = num(a?.latitude) ?? num(venue.latitude);
    const lng = num(a?.longitude) ?? num(venue.longitude);
    if (lat !== undefined && lng !== undefined && Math.abs(lat) <= 90 && Math.abs(lng) <= 180) {
      candidate.lat = lat;
      candidate.lng = lng;
    }
  }

  const tickets = rec(e.ticket_availability);
  const minimum = rec(tickets?.minimum_ticket_price);
  const lowest = ticketPrice(minimum);
  const highest = ticketPrice(rec(tickets?.maximum_ticket_price));
  if (e.is_free === true || tickets?.is_free === true) {
    candidate.isFree = true;
    candidate.price = 0;
  } else if (lowest !== undefined && lowest >= 0) {
    candidate.price = lowest;
    if (highest !== undefined && highest > lowest) candidate.priceMax = highest;
    // A free ticket beside paid ones is a range from 0, not a free event.
    else if (lowest === 0) candidate.isFree = true;
  }
  const currency = str(minimum?.currency) ?? str(e.currency);
  if (currency) candidate.currency = currency;

  const categories = [rec(e.category)?.name, rec(e.subcategory)?.name, rec(e.format)?.name].map(str).filter((c): c is string => Boolean(c));
  if (categories.length) candidate.categories = [...new Set(categories)];
  const status = str(e.status)?.toLowerCase();
  if (status === 'canceled' || status === 'cancelled') candidate.cancelled = true;
  return candidate;
}

/** A ticket price object: `major_value` as text ("12.00"), else `value` in cents. */
function ticketPrice(p: Json | undefined): number | undefined {
  const cents = num(p?.value);
  return num(p?.major_value) ?? (cents !== undefined ? cents / 100 : undefined);
}

/** { timezone, local, utc }: the UTC instant, else the local wall clock in its zone. */
function instant(t: Json | undefined): Date | undefined {
  const utc = readTimestamp(str(t?.utc));
  if (utc) return utc;
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(str(t?.local) ?? '');
  const zone = str(t?.timezone);
  if (!m || !zone) return undefined;
  try {
    const [, y, mo, d, h, mi, s] = m;
    const wall = { year: +y!, month: +mo!, day: +d!, hour: +h!, minute: +mi!, second: +(s ?? 0) };
    return isRealWallClock(wall) ? zonedToUtc(wall, zone) : undefined;
  } catch {
    return undefined; // an unknown zone name
  }
}

function inWindow(c: CandidateEvent, now: Date, horizonEnd: Date): boolean {
  return c.start.getTime() <= horizonEnd.getTime() && (c.end ?? c.start).getTime() >= now.getTime();
}

/** Eventbrite errors: { "status_code": 401, "error": "INVALID_AUTH", "error_description": "..." } */
const eventbriteFailure = (body: unknown) => ({ reason: str(rec(body)?.error_description) ?? str(rec(body)?.error) });

/** What a run needs of the source (checked when it is saved): the token and the organizer or venue; the URL, when given, is the API's. */
const check: Connector['check'] = ({ url, config }) => configIssue(configSchema, config, SOURCE) ?? apiUrlIssue(url, SOURCE);

export const eventbriteConnector: Connector = { id: 'eventbrite', run, check };
