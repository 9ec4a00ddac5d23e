// Socrata (SODA 2.x): the rows of a municipal open-data dataset, read as events through a field
// mapping. Also exports the record mapping that the CKAN connector shares.
//
// source.config:
//   {
//     domain?: string;        // e.g. "data.cityofchicago.org" (or give the source URL instead)
//     dataset: string;        // the 4x4 id, e.g. "ydr8-5enu"
//     appToken?: string;      // sent as X-App-Token (optional; raises the rate limit)
//     where?: string;         // an extra SoQL condition, ANDed with the date window
//     filterDates?: boolean;  // put the date window in $where (default true; turn off when the
//                             // start column is plain text rather than a timestamp)
//     pageSize?: number;      // rows per request (1..50000, default 1000)
//     timeZone?: string;      // the zone of floating timestamps (default: the city's)
//     mapping: {              // column names
//       title: string; start: string;        // required
//       end?, startTime?, endTime?,          // startTime/endTime: a separate "7:00 PM" column
//       venue?, address?, lat?, lng?, location?,   // location: a point / location column
//       url?, description?, id?, price?, category?, image?, status?
//     }
//   }
// source.url: when set, its origin is the API host (else https://{domain}).
//
// GET {host}/resource/{dataset}.json?$where=<start in window>&$order=<start>,:id&$limit=&$offset=
// Pages until a short page (at most 20). Floating timestamps (no offset) are read in
// config.timeZone, else the city's zone; a date with no time (or a midnight floating timestamp
// with no startTime column) is an all-day event. price: a number, or text such as "Free",
// "$5 - $10" (5 to 10) or "$5 suggested donation" (read as pipeline/price.ts reads a price column); category: a list or text split on , ; |; status: "cancel..." cancels, and text that starts
// "postpon..." postpones (out of lists until the source gives a new date).

import { z } from 'zod';
import { isRealWallClock, readTimestamp, wallClock, zonedToUtc } from '../../../../contract/time.ts';
import {
  SourceError,
  type CandidateEvent,
  type Connector,
  type ConnectorContext,
  type ConnectorResult,
  type SourceSpec,
} from '../ingestion.types.ts';
import { priceFromText } from '../pipeline/price.ts';
import { apiUrlIssue, configIssue, createApiRun, readConfig, rec, requestJson } from './api.ts';

/** How the admin API names a source of this connector. */
const SOURCE = 'a Socrata source';
const PROVIDER = 'Socrata';
const MAX_PAGES = 20;
const DAY_MS = 86_400_000;

// ---- shared with the CKAN connector -------------------------------------------------------------

const MAPPING_KEYS = [
  'end',
  'startTime',
  'endTime',
  'venue',
  'address',
  'lat',
  'lng',
  'location',
  'url',
  'description',
  'id',
  'price',
  'category',
  'image',
  'status',
] as const;

/** The field mapping of an open-data source; `field` validates one column name. */
export function openDataMappingSchema(field: z.ZodType<string>) {
  const optional = Object.fromEntries(MAPPING_KEYS.map((k) => [k, field.optional()])) as Record<(typeof MAPPING_KEYS)[number], z.ZodOptional<z.ZodType<string>>>;
  return z.object({ title: field, start: field, ...optional });
}
export type OpenDataMapping = { title: string; start: string } & Partial<Record<(typeof MAPPING_KEYS)[number], string>>;

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** One record (a row of JSON) as a candidate, or undefined when it has no title or no usable start. */
export function mapOpenDataRecord(record: Record<string, unknown>, mapping: OpenDataMapping, zone: string): CandidateEvent | undefined {
  const field = (key: keyof OpenDataMapping): unknown => {
    const column = mapping[key];
    return column === undefined ? undefined : record[column];
  };
  const title = text(field('title'));
  const start = readWhen(field('start'), field('startTime'), zone);
  if (!title || !start) return undefined;

  const candidate: CandidateEvent = { externalId: text(field('id')) ?? `${title}@${start.at.toISOString()}`, title, start: start.at };
  const end = readWhen(field('end') ?? (mapping.endTime ? field('start') : undefined), field('endTime'), zone);
  if (start.allDay && (!end || end.allDay)) {
    candidate.allDay = true;
    if (end && end.at.getTime() > start.at.getTime()) candidate.end = new Date(end.at.getTime() + DAY_MS); // inclusive last day
  } else if (end && end.at.getTime() >= start.at.getTime()) {
    candidate.end = end.at;
  }
  if (start.floating) candidate.timeZone = zone;

  const description = text(field('description'));
  if (description) candidate.description = description;
  const url = link(field('url'));
  if (url) candidate.url = url;
  const image = link(field('image'));
  if (image) candidate.imageUrl = image;
  const venue = text(field('venue'));
  if (venue) candidate.venueName = venue;
  const place = point(field('location'));
  const address = text(field('address')) ?? place?.address;
  if (address) candidate.address = address;
  const lat = number(field('lat')) ?? place?.lat;
  const lng = number(field('lng')) ?? place?.lng;
  if (lat !== undefined && lng !== undefined && Math.abs(lat) <= 90 && Math.abs(lng) <= 180 && !(lat === 0 && lng === 0)) {
    candidate.lat = lat;
    candidate.lng = lng;
  }
  Object.assign(candidate, readPrice(field('price')));
  const categories = list(field('category'));
  if (categories.length) candidate.categories = categories;
  const status = text(field('status')) ?? '';
  if (/cancel/i.test(status)) candidate.cancelled = true;
  else if (/^\s*postpon/i.test(status)) candidate.postponed = true;
  return candidate;
}

/** In the window: starts by the horizon and has not finished before now. */
export function inOpenDataWindow(c: CandidateEvent, now: Date, horizonEnd: Date): boolean {
  const finish = c.end ?? (c.allDay ? new Date(c.start.getTime() + DAY_MS) : c.start);
  return c.start.getTime() <= horizonEnd.getTime() && finish.getTime() >= now.getTime();
}

/** The wall-clock time of an instant in a zone, as a floating ISO timestamp (for SoQL). */
export function floatingTimestamp(instant: Date, zone: string): string {
  const w = wallClock(instant, zone);
  const p = (n: number, l = 2) => String(n).padStart(l, '0');
  return `${p(w.year, 4)}-${p(w.month)}-${p(w.day)}T${p(w.hour)}:${p(w.minute)}:${p(w.second)}`;
}

interface When {
  at: Date;
  allDay: boolean;
  floating: boolean;
}

const ISO_ZONED = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)$/i;
const ISO_LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/;
const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:,?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap])\.?m\.?)?$/i;
const CLOCK = /^(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*(?:([ap])\.?m\.?)?$/i;

function readWhen(value: unknown, timeValue: unknown, zone: string): When | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) {
    const at = new Date(value > 1e11 ? value : value * 1000); // epoch milliseconds or seconds
    return Number.isNaN(at.getTime()) ? undefined : { at, allDay: false, floating: false };
  }
  const s = text(value);
  if (!s) return undefined;
  if (ISO_ZONED.test(s)) {
    const at = readTimestamp(s.replace(' ', 'T'));
    return at ? { at, allDay: false, floating: false } : undefined;
  }
  let y: number, mo: number, d: number;
  let time: { hour: number; minute: number; second: number } | undefined;
  const iso = ISO_LOCAL.exec(s);
  const us = iso ? null : US_DATE.exec(s);
  if (iso) {
    [y, mo, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
    if (iso[4] !== undefined) time = { hour: Number(iso[4]), minute: Number(iso[5]), second: Number(iso[6] ?? 0) };
  } else if (us) {
    [y, mo, d] = [Number(us[3]), Number(us[1]), Number(us[2])];
    if (us[4] !== undefined) time = { hour: twelveHour(Number(us[4]), us[7]), minute: Number(us[5]), second: Number(us[6] ?? 0) };
  } else {
    return undefined;
  }
  const separate = clock(timeValue);
  if (separate) time = separate;
  else if (time && time.hour === 0 && time.minute === 0 && time.second === 0) time = undefined; // a date column stored as midnight
  // A day or time that does not exist (2027-02-30, 25:00) would roll over to another day.
  if (!isRealWallClock({ year: y, month: mo, day: d, ...time }) || (time && (time.hour > 23 || time.second > 59))) return undefined;
  const at = zonedToUtc({ year: y, month: mo, day: d, ...time }, zone);
  return Number.isNaN(at.getTime()) ? undefined : { at, allDay: !time, floating: true };
}

function clock(value: unknown): { hour: number; minute: number; second: number } | undefined {
  const s = text(value);
  const m = s ? CLOCK.exec(s) : null;
  if (!m || (m[2] === undefined && m[4] === undefined)) return undefined; // "7" alone is not a time
  return { hour: twelveHour(Number(m[1]), m[4]), minute: Number(m[2] ?? 0), second: Number(m[3] ?? 0) };
}

function twelveHour(hour: number, meridiem: string | undefined): number {
  if (!meridiem) return hour;
  const pm = meridiem.toLowerCase() === 'p';
  return (hour % 12) + (pm ? 12 : 0);
}

function text(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'string') return v.trim() || undefined;
  return undefined;
}

function number(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v.trim()) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

/** A URL column: a string, or Socrata's { url, description }. Only http(s). */
function link(v: unknown): string | undefined {
  const s = text(v) ?? text((v as { url?: unknown } | null)?.url);
  return s && /^https?:\/\//i.test(s) ? s : undefined;
}

function list(v: unknown): string[] {
  const parts = Array.isArray(v) ? v.map(text) : (text(v)?.split(/[,;|]/) ?? []);
  return [...new Set(parts.map((p) => p?.trim()).filter((p): p is string => Boolean(p)))];
}

/** A price column: a number, or text such as "Free", "$25.00", "$5 - $10", "$5 suggested donation". */
function readPrice(v: unknown): Pick<CandidateEvent, 'price' | 'priceMax' | 'priceNote' | 'isFree'> {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? { price: v, ...(v === 0 ? { isFree: true } : {}) } : {};
  const s = text(v);
  if (!s) return {};
  const p = priceFromText(s, { field: true });
  if (p.isFree) return { price: 0, isFree: true, ...(p.note ? { priceNote: p.note } : {}) };
  const out: Pick<CandidateEvent, 'price' | 'priceMax' | 'priceNote' | 'isFree'> = {};
  if (p.price !== null) out.price = p.price;
  if (p.priceMax !== null) out.priceMax = p.priceMax;
  if (p.note) out.priceNote = p.note;
  if (p.isFree === false && p.price === null) out.isFree = false;
  return out;
}

/** A point: GeoJSON {type: Point, coordinates: [lng, lat]}, Socrata's legacy location, or WKT. */
function point(v: unknown): { lat?: number; lng?: number; address?: string } | undefined {
  const o = rec(v);
  if (o) {
    if (Array.isArray(o.coordinates)) return { lng: number(o.coordinates[0]), lat: number(o.coordinates[1]) };
    const out: { lat?: number; lng?: number; address?: string } = { lat: number(o.latitude), lng: number(o.longitude) };
    const human = text(o.human_address);
    if (human) {
      try {
        const h = JSON.parse(human) as Record<string, unknown>;
        const address = [text(h.address), text(h.city), [text(h.state), text(h.zip)].filter(Boolean).join(' ')].filter(Boolean).join(', ');
        if (address) out.address = address;
      } catch {
        // not JSON: leave the address out
      }
    }
    return out;
  }
  const wkt = /^POINT\s*\(\s*(-?\d+(?:\.\d+)?)\s+(-?\d+(?:\.\d+)?)\s*\)$/i.exec(text(v) ?? '');
  return wkt ? { lng: Number(wkt[1]), lat: Number(wkt[2]) } : undefined;
}

// ---- the Socrata connector ----------------------------------------------------------------------

const socrataField = z
  .string()
  .trim()
  .regex(/^:?[A-Za-z_][A-Za-z0-9_]*$/, 'must be a Socrata column name (letters, digits, _)');

const configSchema = z.object({
  domain: z
    .string()
    .trim()
    .regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/i, 'must be a host name such as data.example.gov')
    .optional(),
  dataset: z
    .string()
    .trim()
    .regex(/^[a-z0-9]{4}-[a-z0-9]{4}$/, 'must be a dataset id such as ydr8-5enu'),
  appToken: z.string().trim().min(1).optional(),
  where: z.string().trim().min(1).optional(),
  filterDates: z.boolean().optional(),
  pageSize: z.number().int().min(1).max(50_000).optional(),
  timeZone: z.string().refine(isTimeZone, 'must be an IANA time zone such as America/Chicago').optional(),
  mapping: openDataMappingSchema(socrataField),
});

async function run(source: SourceSpec, ctx: ConnectorContext): Promise<ConnectorResult> {
  const config = parseConfig(source.config);
  const host = apiHost(source.url, config.domain);
  const zone = config.timeZone ?? ctx.timeZone;
  const horizonEnd = new Date(ctx.now.getTime() + ctx.listAheadDays * DAY_MS);
  const limit = config.pageSize ?? 1000;
  const { mapping } = config;

  const conditions: string[] = [];
  if (config.filterDates !== false) {
    // From a day back, so today's all-day and ongoing events come too; the exact window is
    // applied to the mapped candidates below.
    const from = `'${floatingTimestamp(new Date(ctx.now.getTime() - DAY_MS), zone)}'`;
    const until = `'${floatingTimestamp(horizonEnd, zone)}'`;
    conditions.push(mapping.end ? `(${mapping.start} >= ${from} OR ${mapping.end} >= ${from})` : `${mapping.start} >= ${from}`);
    conditions.push(`${mapping.start} <= ${until}`);
  }
  if (config.where) conditions.push(`(${config.where})`);
  const headers: Record<string, string> = config.appToken ? { 'x-app-token': config.appToken } : {};

  const run = createApiRun();
  let page = 0;
  for (; page < MAX_PAGES; page++) {
    const q = new URLSearchParams();
    if (conditions.length) q.set('$where', conditions.join(' AND '));
    q.set('$order', `${mapping.start},:id`);
    q.set('$limit', String(limit));
    q.set('$offset', String(page * limit));
    const rows = await requestJson(ctx, PROVIDER, `${host}/resource/${config.dataset}.json?${q.toString()}`, { headers, failure: socrataFailure });
    if (!Array.isArray(rows)) throw new SourceError(`${PROVIDER} answered JSON that is not a list of rows`);
    for (const row of rows) {
      const record = rec(row);
      const candidate = record && mapOpenDataRecord(record, mapping, zone);
      if (!candidate) run.unreadable(row);
      else if (inOpenDataWindow(candidate, ctx.now, horizonEnd)) run.keep(candidate);
    }
    if (rows.length < limit) break;
  }
  if (page === MAX_PAGES) run.pageLimit(MAX_PAGES);
  return run.result();
}

const parseConfig = (input: Record<string, unknown>) => readConfig(configSchema, input, 'socrata');

function apiHost(url: string | null, domain: string | undefined): string {
  if (url) {
    try {
      return new URL(url).origin;
    } catch {
      throw new SourceError(`${PROVIDER}: the source URL is not a URL`);
    }
  }
  if (domain) return `https://${domain}`;
  throw new SourceError('socrata config: domain is required when the source has no URL');
}

/** SODA errors: { "code": "query.soql.no-such-column", "error": true, "message": "..." } */
function socrataFailure(body: unknown) {
  const o = rec(body);
  return { reason: text(o?.message) ?? text(o?.code) ?? text(o?.errorCode) };
}

/** What a run needs of the source (checked when it is saved): the dataset and its mapping, and a host (apiHost). */
const check: Connector['check'] = ({ url, config }) =>
  configIssue(configSchema, config, SOURCE) ??
  apiUrlIssue(url, SOURCE) ??
  (url || config.domain ? undefined : { path: 'url', message: 'url or config.domain is required for a Socrata source: the open-data portal, e.g. https://data.example.gov' });

export const socrataConnector: Connector = { id: 'socrata', run, check };
