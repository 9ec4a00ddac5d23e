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

/** 'Sat, Nov 28 · 7:00 PM' in the city's zone ('Sat, Nov 28 · All day' for all-day events). */
export function formatEventWhen(e: { startDate: string; allDay: boolean }, timeZone: string | undefined, locale = 'en-US'): string {
  const d = new Date(e.startDate);
  if (Number.isNaN(d.getTime())) return '';
  const day = dateFormat(locale, timeZone, { weekday: 'short', month: 'short', day: 'numeric' }).format(d);
  if (e.allDay) return `${day} · All day`;
  const time = dateFormat(locale, timeZone, { hour: 'numeric', minute: '2-digit' }).format(d);
  return `${day} · ${time}`;
}
