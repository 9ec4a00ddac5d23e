import type { Route } from './feed-server.ts';

/** One VEVENT of a test calendar; `start` is wall time in Portland (YYYYMMDDTHHMMSS). */
export interface IcsItem {
  uid: string;
  title: string;
  start: string;
  /** DTEND, wall time in Portland like `start`; none when unset (the calendar gives no end). */
  end?: string;
  location?: string;
  geo?: string;
  status?: string;
  /** The event's page (URL). */
  url?: string;
  description?: string;
  /** An RRULE value ('FREQ=WEEKLY;COUNT=4'). */
  rrule?: string;
}

/** An iCalendar content line folded at 75 octets, as RFC 5545 asks (the text is ASCII here). */
const foldLine = (line: string) => line.match(/.{1,74}/g)!.join('\r\n ');
const escapeText = (text: string) => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/[,;]/g, (c) => `\\${c}`);

/** A small iCalendar feed written the way real calendars write one. */
export function icsCalendar(events: IcsItem[]): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Townbeat tests//EN'];
  for (const e of events) {
    lines.push('BEGIN:VEVENT', `UID:${e.uid}`, 'DTSTAMP:20261101T000000Z', `DTSTART;TZID=America/Los_Angeles:${e.start}`, `SUMMARY:${e.title}`);
    if (e.end) lines.push(`DTEND;TZID=America/Los_Angeles:${e.end}`);
    if (e.location) lines.push(`LOCATION:${e.location}`);
    if (e.geo) lines.push(`GEO:${e.geo}`);
    if (e.status) lines.push(`STATUS:${e.status}`);
    if (e.rrule) lines.push(`RRULE:${e.rrule}`);
    if (e.url) lines.push(`URL:${e.url}`);
    if (e.description) lines.push(foldLine(`DESCRIPTION:${escapeText(e.description)}`));
    lines.push('END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  return lines.join('\r\n') + '\r\n';
}

/** A route serving whatever `feeds[name]` holds when asked (a 500 when it holds nothing). */
export const feedRoute =
  (feeds: () => Record<string, string>, name: string): Route =>
  (_req, res) => {
    const body = feeds()[name];
    if (body === undefined) res.writeHead(500).end('boom');
    else res.writeHead(200, { 'content-type': 'text/calendar' }).end(body);
  };
