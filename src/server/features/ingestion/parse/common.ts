// Small helpers shared by the parsers (they run inside the sandbox's workers).

import { isRealWallClock, wallClock, type WallClock } from '../../../../contract/time.ts';
import type { CandidateEvent } from '../ingestion.types.ts';
import { SKIP, type RunNote, type RunNotes } from '../run-notes.ts';

/** What a parser needs from the connector context (plain data: it crosses into a worker). */
export interface ParseContext {
  now: Date;
  /** The zone for times that carry none (the city's zone). */
  timeZone: string;
  horizonDays: number;
  maxOccurrences: number;
}

export interface ParseOutput {
  candidates: CandidateEvent[];
  /** Entries that were not events we could use, by reason (events already over are not noted). */
  notes: RunNote[];
}

export const DAY_MS = 86_400_000;

const zoneCache = new Map<string, boolean>();

/** True when Intl knows the IANA zone name. */
export function isValidTimeZone(name: string): boolean {
  let ok = zoneCache.get(name);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: name });
      ok = /^[A-Za-z]/.test(name);
    } catch {
      ok = false;
    }
    zoneCache.set(name, ok);
  }
  return ok;
}

/** The canonical spelling Intl uses for a zone ("us/central" -> "US/Central"), or the input. */
export function canonicalZone(name: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return name;
  }
}

export interface ParsedDate {
  date: Date;
  /** A date without a time of day. */
  allDay: boolean;
  /** The text carried its own offset (or Z). */
  hasOffset: boolean;
}

const ISO_RE = /^\s*(\d{4})-?(\d{2})-?(\d{2})(?:[T\s]+(\d{1,2}):?(\d{2})(?::?(\d{2})(?:[.,]\d+)?)?\s*(Z|z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?)?\s*$/;

/**
 * An ISO 8601 / W3CDTF date or date-time. Without an offset the wall-clock time is read in
 * `zone`; a date alone is midnight in `zone` and all-day. Offsets without a colon (-0400) and
 * a space instead of the T are accepted, as pages write them.
 */
export function parseIsoDate(text: string, zone: string): ParsedDate | null {
  const m = ISO_RE.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, off] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  // 2027-02-30 is no day at all (Date.UTC would make it 2 March): unreadable, not moved.
  if (!isRealWallClock({ year, month, day })) return null;
  if (h === undefined) {
    return { date: toUtc({ year, month, day }, zone), allDay: true, hasOffset: false };
  }
  const hour = Number(h);
  const minute = Number(mi);
  const second = s ? Number(s) : 0;
  if (!isRealWallClock({ year, month, day, hour, minute, second })) return null;
  if (off) {
    let offsetMin = 0;
    if (!/^(z|utc|gmt)$/i.test(off)) {
      const sign = off[0] === '-' ? -1 : 1;
      const digits = off.slice(1).replace(':', '');
      offsetMin = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || 0));
    }
    const utc = Date.UTC(year, month - 1, day, hour, minute, second) - offsetMin * 60_000;
    return { date: new Date(utc), allDay: false, hasOffset: true };
  }
  return { date: toUtc({ year, month, day, hour, minute, second }, zone), allDay: false, hasOffset: false };
}

/** An ISO 8601 duration (P1DT2H30M, PT90M, P1W) in milliseconds, or null. */
export function parseIsoDuration(text: string): number | null {
  const m = /^\s*P(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?\s*$/i.exec(text);
  if (!m || text.trim().toUpperCase() === 'P' || /T$/i.test(text.trim())) return null;
  const [, w, d, h, mi, s] = m.map((x) => (x === undefined ? 0 : Number(x)));
  return ((((w ?? 0) * 7 + (d ?? 0)) * 24 + (h ?? 0)) * 60 + (mi ?? 0)) * 60_000 + (s ?? 0) * 1000;
}

/** Adds whole days in wall-clock terms (so 19:00 stays 19:00 across a DST change). */
export function addDaysInZone(instant: Date, days: number, zone: string): Date {
  const w = toWall(instant, zone);
  const next = new Date(Date.UTC(w.year, w.month - 1, w.day + days, w.hour, w.minute, w.second));
  return toUtc(fromUtcFields(next), zone);
}

export function fromUtcFields(d: Date): WallClock {
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds() };
}

/** Keeps events that have not ended by `now` (an event without an end counts as its start). */
export function notOver(c: Pick<CandidateEvent, 'start' | 'end'>, now: Date): boolean {
  return (c.end ?? c.start).getTime() >= now.getTime();
}

/**
 * A LOCATION-like string as venue and address: "Lambeau Field, 1265 Lombardi Ave, Green Bay"
 * gives the venue "Lambeau Field" and the rest as the address; a short one is just a venue;
 * one that starts with a house number is just an address.
 */
export function splitLocation(location: string): { venueName?: string; address?: string } {
  const text = location
    .replace(/\s*[\r\n]+\s*/g, ', ')
    .replace(/\s+/g, ' ')
    .replace(/(,\s*)+/g, ', ')
    .replace(/^,\s*|,\s*$/g, '')
    .trim();
  if (!text) return {};
  const paren = /^([^()]+?)\s*\(([^()]+)\)\s*$/.exec(text);
  // "Open Source Project Tempe (1415 E University Dr. #103A, Tempe, AZ 85281)"; not "Phoenix (PHX)".
  if (paren && /\d|,/.test(paren[2]!)) return { venueName: paren[1]!.trim(), address: paren[2]!.trim() };
  const parts = text.split(/\s*,\s*/).filter(Boolean);
  if (parts.length < 2 || text.length < 30) return { venueName: text };
  if (/^\d/.test(parts[0]!)) return { address: text };
  return { venueName: parts[0], address: parts.slice(1).join(', ') };
}

/**
 * Makes external ids unique within one run. Only an exact repeat (same id, same start, same
 * title) is dropped: an id seen at the same start under another title is another event (a real TV
 * calendar derives its UIDs from the start, and "100th Episode Part 1 of 2" and "Part 2 of 2" air
 * back to back under one). The first item of an id keeps it as the feed gives it; a later one gets
 * its start instant appended, and its title too when that is taken as well.
 */
export function uniqueIds(candidates: CandidateEvent[], notes?: RunNotes): { candidates: CandidateEvent[]; duplicates: number } {
  const ids = new Set<string>();
  const items = new Set<string>();
  const out: CandidateEvent[] = [];
  let duplicates = 0;
  for (const c of candidates) {
    const title = c.title.replace(/\s+/g, ' ').trim().toLowerCase();
    const item = `${c.externalId}\u0000${c.start.getTime()}\u0000${title}`;
    if (items.has(item)) {
      duplicates++;
      notes?.add('repeated', SKIP.repeat, c.title);
      continue;
    }
    items.add(item);
    let id = c.externalId;
    if (ids.has(id)) id = `${c.externalId}@${c.start.toISOString()}`;
    if (ids.has(id)) id = `${c.externalId}@${c.start.toISOString()}#${title}`;
    if (ids.has(id)) {
      duplicates++;
      notes?.add('repeated', SKIP.repeat, c.title);
      continue;
    }
    ids.add(id);
    out.push(id === c.externalId ? c : { ...c, externalId: id });
  }
  return { candidates: out, duplicates };
}

/** A finite number from a number or numeric string ("13.00", "$35", "1,234.50"), or undefined. */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const m = /-?\d[\d,]*(?:\.\d+)?|-?\.\d+/.exec(value.replace(/\s/g, ''));
  if (!m) return undefined;
  let digits = m[0];
  // "12,50" (decimal comma) vs "1,234" (thousands)
  if (/^\d+,\d{1,2}$/.test(digits)) digits = digits.replace(',', '.');
  else digits = digits.replace(/,/g, '');
  const n = Number(digits);
  return Number.isFinite(n) ? n : undefined;
}

/** Valid latitude/longitude pair or nothing. */
export function coordinates(lat: unknown, lng: unknown): { lat?: number; lng?: number } {
  const a = toNumber(lat);
  const b = toNumber(lng);
  if (a === undefined || b === undefined || Math.abs(a) > 90 || Math.abs(b) > 180 || (a === 0 && b === 0)) return {};
  return { lat: a, lng: b };
}

/** Removes undefined fields (keeps results small and comparisons simple). */
export function compact<T extends object>(obj: T): T {
  for (const k of Object.keys(obj) as (keyof T)[]) if (obj[k] === undefined) delete obj[k];
  return obj;
}

/** A short error detail for messages. */
export function describeError(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.length > 200 ? `${msg.slice(0, 200)}…` : msg;
}

// ---------------------------------------------------------------------------------------------
// Fast zone conversion. Intl's formatToParts costs tens of microseconds; a feed of 50,000
// events converts 100,000 times. Offsets are cached per zone in 15-minute UTC buckets (zone
// transitions fall on quarter hours), then the same two-step search as contract/time.ts.

const OFFSET_BUCKET_MS = 15 * 60_000;
const offsetCache = new Map<string, Map<number, number>>();

function offsetAt(ms: number, zone: string): number {
  let byZone = offsetCache.get(zone);
  if (!byZone) {
    byZone = new Map();
    offsetCache.set(zone, byZone);
  }
  const bucket = Math.floor(ms / OFFSET_BUCKET_MS);
  let off = byZone.get(bucket);
  if (off === undefined) {
    const instant = new Date(bucket * OFFSET_BUCKET_MS);
    const w = wallClock(instant, zone);
    off = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - instant.getTime();
    if (byZone.size > 200_000) byZone.clear();
    byZone.set(bucket, off);
  }
  return off;
}

/** The instant at which clocks in `zone` read the wall-clock time (same result as zonedToUtc). */
export function toUtc(w: Partial<WallClock> & Pick<WallClock, 'year' | 'month' | 'day'>, zone: string): Date {
  const guess = Date.UTC(w.year, w.month - 1, w.day, w.hour ?? 0, w.minute ?? 0, w.second ?? 0);
  const first = guess - offsetAt(guess, zone);
  const second = guess - offsetAt(first, zone);
  // A time the clocks skip (2:30 AM as they spring forward) is read with the offset before the
  // change, as RFC 5545 says: 2:30 PST, which the clocks show as 3:30 PDT (zonedToUtc alike).
  if (offsetAt(second, zone) !== guess - second) return new Date(guess - offsetAt(Math.min(first, second), zone));
  return new Date(second);
}

/** The wall-clock reading of an instant in `zone` (cached offsets). */
export function toWall(instant: Date, zone: string): WallClock {
  return fromUtcFields(new Date(instant.getTime() + offsetAt(instant.getTime(), zone)));
}
