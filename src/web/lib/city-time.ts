import { dateFormat, wallClock, zonedToUtc, zoneOffsetMs } from '../../contract/time.ts';

// Times shown, and datetime-local inputs read and written, on the city's clocks, whatever the browser's zone.

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** An instant as a datetime-local value ('2026-11-28T19:00') on the zone's clocks. */
export function toZonedInput(iso: string, timeZone: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const w = wallClock(d, timeZone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;
}

/** A datetime-local value read on the zone's clocks, as ISO with the zone's offset ('2026-11-28T19:00:00-08:00'). */
export function fromZonedInput(value: string, timeZone: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map((x) => Number(x ?? 0)) as [number, number, number, number, number, number];
  const instant = zonedToUtc({ year, month, day, hour, minute, second }, timeZone);
  if (Number.isNaN(instant.getTime())) return null;
  // A time inside a spring-forward gap lands on the next real time: write what the clocks will read.
  const w = wallClock(instant, timeZone);
  const offsetMin = Math.round(zoneOffsetMs(instant, timeZone) / 60_000);
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * An instant in US format on the zone's clocks ('Nov 28, 7:00 PM' for `{ month: 'short', day:
 * 'numeric', hour: 'numeric', minute: '2-digit' }`); the zone is the city's (`useCityTimeZone()`),
 * so a browser elsewhere shows what the rest of the app shows.
 */
export function formatCityTime(iso: string, timeZone: string | undefined, options: Intl.DateTimeFormatOptions): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : dateFormat('en-US', timeZone, options).format(d);
}
