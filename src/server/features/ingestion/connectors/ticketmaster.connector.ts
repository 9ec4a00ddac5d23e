// Ticketmaster Discovery API v2: the events in a city, or within a radius of a point.
//
// source.config:
//   {
//     apiKey: string;                 // the consumer key, sent as ?apikey=
//     city?: string;                  // e.g. "Portland" (one of city / latlong is required)
//     stateCode?: string;             // e.g. "OR", to tell Portland OR from Portland ME
//     countryCode?: string;           // ISO 3166-1 alpha-2, e.g. "US"
//     latlong?: string;               // "45.5152,-122.6784"
//     radius?: number;                // with latlong (or city): distance around it
//     unit?: 'miles' | 'km';
//     pageSize?: number;              // events per page (1..200, default 100)
//   }
// source.url: the API base (default https://app.ticketmaster.com/discovery/v2); a ticketmaster.com
// web page there is ignored.
//
// GET {base}/events.json?apikey=&city=&latlong=&radius=&unit=&size=&page=N&sort=date,asc
//     &startDateTime=<now>&endDateTime=<now + horizon>
// Pages follow page.number / page.totalPages (at most 20 pages, and never past the API's
// 1000-result deep-paging limit). Each event: dates.start.dateTime (UTC) or localDate+localTime
// in dates.timezone; _embedded.venues[0] for the place; priceRanges for the lowest price;
// classifications for categories; dates.status.code "canceled" (or "cancelled") or "postponed".

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
import { apiUrlIssue, arr, configIssue, createApiRun, num, readConfig, rec, requestJson, str, type Json } from './api.ts';

/** How the admin API names a source of this connector. */
const SOURCE = 'a Ticketmaster source';
const PROVIDER = 'Ticketmaster';
const DEFAULT_BASE = 'https://app.ticketmaster.com/discovery/v2';
const MAX_PAGES = 20;
const DEEP_PAGING_LIMIT = 1000;
/** Ticketmaster serves at most the first 1,000 results of a search (size × page < 1,000). */
const DEEP_PAGING_NOTE = 'had been read, the first 1,000 results Ticketmaster serves for one search; the search matches more: narrow it (radius, city) to read them all';
const DAY_MS = 86_400_000;

const configSchema = z
  .object({
    apiKey: z.string().trim().min(1),
    city: z.string().trim().min(1).optional(),
    stateCode: z.string().trim().min(1).optional(),
    countryCode: z.string().trim().length(2).optional(),
    latlong: z
      .string()
      .trim()
      .regex(/^-?\d{1,2}(\.\d+)?,\s*-?\d{1,3}(\.\d+)?$/, 'must be "lat,lng"')
      .optional(),
    radius: z.number().positive().max(19_999).optional(),
    unit: z.enum(['miles', 'km']).optional(),
    pageSize: z.number().int().min(1).max(200).optional(),
  })
  .refine((c) => c.city !== undefined || c.latlong !== undefined, { path: ['city'], message: 'set city or latlong' });

type Config = z.infer<typeof configSchema>;

async function run(source: SourceSpec, ctx: ConnectorContext): Promise<ConnectorResult> {
  const config = parseConfig(source.config);
  const base = apiBase(source.url);
  const horizonEnd = new Date(ctx.now.getTime() + ctx.listAheadDays * DAY_MS);
  const size = config.pageSize ?? 100;
  const run = createApiRun();
  let page = 0;
  for (; page < MAX_PAGES && (page + 1) * size <= DEEP_PAGING_LIMIT; page++) {
    const body = rec(await requestJson(ctx, PROVIDER, `${base}/events.json?${query(config, ctx.now, horizonEnd, size, page)}`, { failure: ticketmasterFailure }));
    if (!body || (!('page' in body) && !('_embedded' in body))) {
      throw new SourceError(`${PROVIDER} answered JSON that is not an event search result`);
    }
    const events = arr(rec(body._embedded)?.events);
    let lastStart: Date | undefined;
    for (const raw of events) {
      const candidate = toCandidate(raw, ctx.timeZone);
      if (!candidate) {
        run.unreadable(raw);
        continue;
      }
      lastStart = candidate.start;
      if (inWindow(candidate, ctx.now, horizonEnd)) run.keep(candidate);
    }
    const info = rec(body.page);
    const number = num(info?.number) ?? page;
    const totalPages = num(info?.totalPages) ?? 0;
    if (events.length === 0 || number + 1 >= totalPages) break;
    if (lastStart && lastStart.getTime() > horizonEnd.getTime()) break;
  }
  if (page === MAX_PAGES) run.pageLimit(page);
  else if ((page + 1) * size > DEEP_PAGING_LIMIT) run.pageLimit(page, DEEP_PAGING_NOTE);
  return run.result();
}

const parseConfig = (input: Record<string, unknown>): Config => readConfig(configSchema, input, 'ticketmaster');

function apiBase(url: string | null): string {
  if (!url) return DEFAULT_BASE;
  try {
    const host = new URL(url).hostname;
    if (/(^|\.)ticketmaster\.[a-z.]+$/i.test(host) && !/^app\./i.test(host)) return DEFAULT_BASE;
  } catch {
    throw new SourceError(`${PROVIDER}: the source URL is not a URL`);
  }
  return url.replace(/\/+$/, '').replace(/\/events(\.json)?$/, '');
}

/** Ticketmaster wants ISO 8601 without milliseconds: 2016-05-20T00:00:00Z. */
const tmInstant = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

function query(config: Config, now: Date, horizonEnd: Date, size: number, page: number): string {
  const q = new URLSearchParams({ apikey: config.apiKey });
  if (config.city) q.set('city', config.city);
  if (config.stateCode) q.set('stateCode', config.stateCode);
  if (config.countryCode) q.set('countryCode', config.countryCode.toUpperCase());
  if (config.latlong) q.set('latlong', config.latlong.replace(/\s+/g, ''));
  if (config.radius !== undefined) q.set('radius', String(config.radius));
  if (config.unit) q.set('unit', config.unit);
  q.set('startDateTime', tmInstant(now));
  q.set('endDateTime', tmInstant(horizonEnd));
  q.set('sort', 'date,asc');
  q.set('size', String(size));
  q.set('page', String(page));
  return q.toString();
}

/** One Discovery API event as a candidate (exported for the dedup bench, which reads the fixtures' v1 and v2 pages). */
export function toCandidate(raw: unknown, cityZone: string): CandidateEvent | undefined {
  const e = rec(raw);
  const id = str(e?.id);
  const title = str(e?.name);
  if (!e || !id || !title) return undefined;
  const dates = rec(e.dates);
  const venue = rec(arr(rec(e._embedded)?.venues)[0]);
  const zone = knownZone(str(dates?.timezone)) ?? knownZone(str(venue?.timezone));
  const when = startOf(rec(dates?.start), zone ?? cityZone);
  if (!when) return undefined;
  const endAt = str(rec(dates?.end)?.dateTime);
  const end = readTimestamp(endAt);

  const candidate: CandidateEvent = { externalId: id, title, start: when.start };
  if (when.allDay) candidate.allDay = true;
  if (end && end.getTime() >= when.start.getTime()) candidate.end = end;
  if (zone) candidate.timeZone = zone;
  const description = str(e.description) ?? str(e.info);
  if (description) candidate.description = description;
  const url = str(e.url);
  if (url) candidate.url = url;
  const image = bestImage(arr(e.images));
  if (image) candidate.imageUrl = image;

  if (venue) {
    const name = str(venue.name);
    if (name) candidate.venueName = name;
    const address = [
      str(rec(venue.address)?.line1),
      str(rec(venue.city)?.name),
      str(rec(venue.state)?.stateCode) ?? str(rec(venue.state)?.name),
      str(venue.postalCode),
    ].filter(Boolean);
    if (address.length) candidate.address = address.join(', ');
    const lat = num(rec(venue.location)?.latitude);
    const lng = num(rec(venue.location)?.longitude);
    if (lat !== undefined && lng !== undefined && Math.abs(lat) <= 90 && Math.abs(lng) <= 180) {
      candidate.lat = lat;
      candidate.lng = lng;
    }
  }

  const ranges = arr(e.priceRanges).map(rec);
  const mins = ranges.map((r) => num(r?.min)).filter((n): n is number => n !== undefined && n >= 0);
  if (mins.length) {
    candidate.price = Math.min(...mins);
    const maxes = ranges.map((r) => num(r?.max)).filter((n): n is number => n !== undefined && n >= 0);
    const highest = Math.max(candidate.price, ...maxes);
    if (highest > candidate.price) candidate.priceMax = highest;
    if (highest === 0) candidate.isFree = true;
    const currency = str(ranges[0]?.currency);
    if (currency) candidate.currency = currency;
  }

  const categories = new Set<string>();
  for (const c of arr(e.classifications).map(rec)) {
    for (const level of ['segment', 'genre', 'subGenre']) {
      const name = str(rec(c?.[level])?.name);
      if (name && name.toLowerCase() !== 'undefined') categories.add(name);
    }
  }
  if (categories.size) candidate.categories = [...categories];
  const status = str(rec(dates?.status)?.code)?.toLowerCase();
  // The Discovery API's own spelling is "canceled" (onsale, offsale, canceled, postponed, rescheduled).
  if (status === 'canceled' || status === 'cancelled') candidate.cancelled = true;
  // "rescheduled" comes with its new dates and is read as any event; "postponed" has no new date yet.
  else if (status === 'postponed') candidate.postponed = true;
  return candidate;
}

/** dates.start: an exact dateTime when the time is known, else the local date (all day). */
function startOf(start: Json | undefined, zone: string): { start: Date; allDay: boolean } | undefined {
  const exact = str(start?.dateTime);
  const timeUnknown = start?.timeTBA === true || start?.noSpecificTime === true;
  if (exact && !timeUnknown) {
    const d = readTimestamp(exact);
    if (d) return { start: d, allDay: false };
  }
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(str(start?.localDate) ?? '');
  if (!date) return undefined;
  const time = timeUnknown ? null : /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(str(start?.localTime) ?? '');
  const wall = { year: Number(date[1]), month: Number(date[2]), day: Number(date[3]) };
  // A day or time that does not exist (2027-02-30, 25:00) would roll over to another day.
  if (!isRealWallClock(wall)) return undefined;
  if (!time) return { start: zonedToUtc(wall, zone), allDay: true };
  const timed = { ...wall, hour: Number(time[1]), minute: Number(time[2]), second: Number(time[3] ?? 0) };
  if (!isRealWallClock(timed)) return undefined;
  return { start: zonedToUtc(timed, zone), allDay: false };
}

/** The zone name if Intl knows it (a bad one would make zonedToUtc throw). */
function knownZone(zone: string | undefined): string | undefined {
  if (!zone) return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return undefined;
  }
}

/** The widest 16:9 picture that is the event's own (not a category fallback), else the widest. */
function bestImage(images: unknown[]): string | undefined {
  const all = images
    .map(rec)
    .map((i) => ({ url: str(i?.url), width: num(i?.width) ?? 0, ratio: str(i?.ratio), fallback: i?.fallback === true }))
    .filter((i): i is { url: string; width: number; ratio: string | undefined; fallback: boolean } => Boolean(i.url));
  const score = (i: (typeof all)[number]) => (i.fallback ? 0 : 2) + (i.ratio === '16_9' ? 1 : 0);
  all.sort((a, b) => score(b) - score(a) || b.width - a.width);
  return all[0]?.url;
}

function inWindow(c: CandidateEvent, now: Date, horizonEnd: Date): boolean {
  const finish = c.end ?? (c.allDay ? new Date(c.start.getTime() + DAY_MS) : c.start);
  return c.start.getTime() <= horizonEnd.getTime() && finish.getTime() >= now.getTime();
}

/** Ticketmaster errors: the gateway's { fault: { faultstring } }, or the API's { errors: [{ detail }] }. */
const ticketmasterFailure = (body: unknown) => ({ reason: str(rec(rec(body)?.fault)?.faultstring) ?? str(rec(arr(rec(body)?.errors)[0])?.detail) });

/** What a run needs of the source (checked when it is saved): the key and the city or point; the URL, when given, is the API's. */
const check: Connector['check'] = ({ url, config }) => configIssue(configSchema, config, SOURCE) ?? apiUrlIssue(url, SOURCE);

export const ticketmasterConnector: Connector = { id: 'ticketmaster', run, check };
