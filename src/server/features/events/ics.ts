import { sourcesDisagree, type EventDetail, type EventSummary } from '../../../contract/events.ts';

// RFC 5545 output: CRLF line ends, lines folded at 75 octets, TEXT values escaped.

const enc = new TextEncoder();

/** Folds a content line so no physical line exceeds 75 octets (never splitting a character). */
export function foldLine(line: string): string {
  if (enc.encode(line).length <= 75) return line;
  const parts: string[] = [];
  let current = '';
  let size = 0;
  let limit = 75;
  for (const ch of line) {
    const n = enc.encode(ch).length;
    if (size + n > limit) {
      parts.push(current);
      current = '';
      size = 0;
      limit = 74; // continuation lines start with one space
    }
    current += ch;
    size += n;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

export const escapeText = (s: string) => s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

const utcStamp = (d: Date) => d.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
const dateOnly = (iso: string, timeZone: string) => {
  const p = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
  return p.replace(/-/g, '');
};

type CalendarEvent = EventSummary &
  Pick<EventDetail, 'endGiven'> &
  Partial<Pick<EventDetail, 'description' | 'removedBySource' | 'cancelledBySource' | 'postponedBySource' | 'calledOffBy' | 'stillListedBy'>>;

/**
 * What a calendar app shows of an event every source has dropped, one a source cancelled or
 * postponed, or one an admin took off Townbeat (a saved event turned down in review): kept, and saying so.
 */
const GONE = {
  removed: { status: 'TENTATIVE', suffix: ' (removed by the source)', note: 'Every source that listed this event has dropped it: check with the organiser before you go.' },
  rejected: { status: 'TENTATIVE', suffix: ' (removed from Townbeat)', note: 'An admin removed this event from Townbeat, so it is no longer listed: check with the organiser before you go.' },
  cancelled: { status: 'CANCELLED', suffix: ' (cancelled)', note: 'The source that listed this event says it is cancelled.' },
  postponed: { status: 'TENTATIVE', suffix: ' (postponed)', note: 'The source that listed this event says it is postponed, with no new date yet: it will not take place at this time.' },
} as const;

function eventLines(e: CalendarEvent, now: Date, origin: string): string[] {
  const lines = [`BEGIN:VEVENT`, `UID:${e.id}@townbeat`, `DTSTAMP:${utcStamp(now)}`];
  if (e.allDay) {
    // A day's event without an end of its own lasts its day (the default end), as a date-valued DTSTART alone would say too.
    lines.push(`DTSTART;VALUE=DATE:${dateOnly(e.startDate, e.timeZone)}`);
    const endDay = new Date(new Date(e.endDate).getTime() + 1000);
    lines.push(`DTEND;VALUE=DATE:${dateOnly(endDay.toISOString(), e.timeZone)}`);
  } else {
    lines.push(`DTSTART:${utcStamp(new Date(e.startDate))}`);
    // An end the source never gave (a default duration that keeps the event listed) is no end to
    // write: with DTSTART alone a calendar shows the start, as the event's page does.
    if (e.endGiven) lines.push(`DTEND:${utcStamp(new Date(e.endDate))}`);
  }
  // Only what a source said is cancelled is CANCELLED: one may drop an event for other reasons,
  // and an admin may turn one down for reasons that are not about whether it happens (spam, out of
  // town), so calendars keep those, marked; a postponed one is to take place later, at a date not given yet.
  // What the source says of the event itself comes before Townbeat's own decision, as on its page.
  // Sources that disagree (one calls it off, another still lists it) leave it tentative, saying who says what.
  const disagree = sourcesDisagree({ calledOffBy: e.calledOffBy ?? [], stillListedBy: e.stillListedBy ?? [] });
  const gone = disagree
    ? { status: 'TENTATIVE', suffix: ' (sources disagree)', note: `${disagree}: check with the organiser before you go.` }
    : e.cancelledBySource
      ? GONE.cancelled
      : e.postponedBySource
        ? GONE.postponed
        : e.removedBySource
          ? GONE.removed
          : e.status === 'rejected'
            ? GONE.rejected
            : null;
  if (gone) lines.push(`STATUS:${gone.status}`);
  lines.push(`SUMMARY:${escapeText(gone ? e.title + gone.suffix : e.title)}`);
  const description = [gone?.note ?? '', e.description ?? ''].filter(Boolean).join('\n\n');
  if (description) lines.push(`DESCRIPTION:${escapeText(description)}`);
  const location = [e.venue, e.address].filter(Boolean).join(', ');
  if (location) lines.push(`LOCATION:${escapeText(location)}`);
  if (e.lat !== null && e.lng !== null) lines.push(`GEO:${e.lat.toFixed(6)};${e.lng.toFixed(6)}`);
  lines.push(`CATEGORIES:${escapeText(e.category)}`);
  lines.push(`URL:${origin}/events/${e.id}`);
  lines.push('END:VEVENT');
  return lines;
}

/** A whole VCALENDAR of events. */
export function toICalendar(list: CalendarEvent[], opts: { name: string; now: Date; origin: string }): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Townbeat//Local events//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(opts.name)}`,
    ...list.flatMap((e) => eventLines(e, opts.now, opts.origin)),
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join('\r\n') + '\r\n';
}
