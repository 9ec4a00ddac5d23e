// Wall-clock arithmetic in a named time zone with Intl only; shared by server and web.

const partsCache = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string) {
  let f = partsCache.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partsCache.set(timeZone, f);
  }
  return f;
}

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** Days in a month (1–12) of the Gregorian calendar: February has 29 in leap years only. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * True when a wall-clock reading written in parts is one a calendar and a clock can show: a month
 * 1–12, a day that exists in that month (29 February in leap years only), hours 0–23, minutes
 * 0–59 and seconds 0–59 (the ISO end of day 24:00:00 and a leap second's :60 are allowed).
 * Date.UTC, zonedToUtc and `new Date(text)` roll impossible parts over (30 February becomes
 * 2 March, 19:61 becomes 20:01), so a reader that builds a date from parts checks with this
 * first and treats a false as a date it could not read.
 */
export function isRealWallClock(w: Partial<WallClock> & Pick<WallClock, 'year' | 'month' | 'day'>): boolean {
  const { year, month, day, hour = 0, minute = 0, second = 0 } = w;
  if (![year, month, day].every(Number.isInteger)) return false;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  return isRealTimeOfDay(hour, minute, second);
}

/** The time-of-day half of isRealWallClock: 00:00:00–23:59:59, 24:00:00, and :60 for a leap second. */
export function isRealTimeOfDay(hour: number, minute: number, second = 0): boolean {
  if (![hour, minute, second].every(Number.isInteger)) return false;
  if (hour === 24) return minute === 0 && second === 0;
  return hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 60;
}

const ISO_PARTS = /^\s*([+-]?\d{4,6})-(\d{2})-(\d{2})(?:[T\s](\d{2}):(\d{2})(?::(\d{2}))?)?/i;

/**
 * `new Date(text)` for a machine-written timestamp ("2027-03-02T19:00:00Z", an RFC 2822 date),
 * or undefined when it cannot be read or its ISO date and time name a day or a time that does
 * not exist ("2027-02-30T19:00:00Z", which `new Date` reads as 2 March).
 */
export function readTimestamp(text: string | undefined): Date | undefined {
  if (!text) return undefined;
  const m = ISO_PARTS.exec(text);
  if (m && !isRealWallClock({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), hour: Number(m[4] ?? 0), minute: Number(m[5] ?? 0), second: Number(m[6] ?? 0) })) return undefined;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** The wall-clock reading of an instant in a zone. */
export function wallClock(instant: Date, timeZone: string): WallClock {
  const p: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  }
  return { year: p.year!, month: p.month!, day: p.day!, hour: p.hour!, minute: p.minute!, second: p.second! };
}

/** Offset of the zone from UTC at an instant, in milliseconds (east positive). */
export function zoneOffsetMs(instant: Date, timeZone: string): number {
  const w = wallClock(instant, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The instant at which the zone's clocks read the given wall-clock time. */
export function zonedToUtc(w: Partial<WallClock> & Pick<WallClock, 'year' | 'month' | 'day'>, timeZone: string): Date {
  const guess = Date.UTC(w.year, w.month - 1, w.day, w.hour ?? 0, w.minute ?? 0, w.second ?? 0);
  const first = guess - zoneOffsetMs(new Date(guess), timeZone);
  const second = guess - zoneOffsetMs(new Date(first), timeZone);
  // A time the clocks skip (2:30 AM as they spring forward) is read with the offset before the
  // change, as RFC 5545 says: 2:30 PST, which the clocks show as 3:30 PDT.
  if (zoneOffsetMs(new Date(second), timeZone) !== guess - second) return new Date(guess - zoneOffsetMs(new Date(Math.min(first, second)), timeZone));
  return new Date(second);
}

/** Start (inclusive) and end (exclusive) of the local day containing an instant. */
export function zonedDayBounds(instant: Date, timeZone: string): { start: Date; end: Date } {
  const w = wallClock(instant, timeZone);
  const start = zonedToUtc({ year: w.year, month: w.month, day: w.day }, timeZone);
  const next = new Date(Date.UTC(w.year, w.month - 1, w.day + 1));
  const end = zonedToUtc({ year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() }, timeZone);
  return { start, end };
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();
/** An Intl date format, made once per locale, zone and options. */
export function dateFormat(locale: string, timeZone: string | undefined, options: Intl.DateTimeFormatOptions) {
  const key = `${locale}|${timeZone ?? ''}|${JSON.stringify(options)}`;
  let f = dateFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    dateFormats.set(key, f);
  }
  return f;
}

/** Whether an instant falls, in the zone, in another calendar year than `now` does there. */
function inAnotherYear(d: Date, timeZone: string | undefined, now: Date | number): boolean {
  const year = dateFormat('en-US', timeZone, { year: 'numeric' });
  return year.format(d) !== year.format(now);
}

/**
 * An event's day in the city's zone: 'Sat, Nov 28' this year, 'Fri, Oct 20, 2028' in any other —
 * events are listed up to two years ahead, and without the year 2026 and 2028 read alike.
 */
export function formatEventDay(d: Date, timeZone: string | undefined, locale = 'en-US', now: Date | number = Date.now()): string {
  const options: Intl.DateTimeFormatOptions = { weekday: 'short', month: 'short', day: 'numeric' };
  if (inAnotherYear(d, timeZone, now)) options.year = 'numeric';
  return dateFormat(locale, timeZone, options).format(d);
}

/**
 * 'Sat, Nov 28 · 7:00 PM' in the city's zone ('Sat, Nov 28 · All day' for all-day events, 'Fri,
 * Dec 11 – Sun, Dec 13 · All day' for those over several days, given their `endDate`); the year is
 * added ('Fri, Oct 20, 2028 · 12:00 PM') when the day is not in `now`'s year there.
 */
export function formatEventWhen(e: { startDate: string; allDay: boolean; endDate?: string }, timeZone: string | undefined, locale = 'en-US', now: Date | number = Date.now()): string {
  const d = new Date(e.startDate);
  if (Number.isNaN(d.getTime())) return '';
  const day = formatEventDay(d, timeZone, locale, now);
  if (e.allDay) {
    // An all-day end is the start of the day after the last one.
    const last = e.endDate ? new Date(new Date(e.endDate).getTime() - 1) : null;
    const lastDay = last && !Number.isNaN(last.getTime()) && last > d ? formatEventDay(last, timeZone, locale, now) : day;
    return lastDay === day ? `${day} · All day` : `${day} – ${lastDay} · All day`;
  }
  const time = dateFormat(locale, timeZone, { hour: 'numeric', minute: '2-digit' }).format(d);
  return `${day} · ${time}`;
}
