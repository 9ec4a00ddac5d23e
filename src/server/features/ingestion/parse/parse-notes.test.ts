// What the parsers tell about the entries they could not use: each reason once, counted, with a
// few examples; entries that are merely over are not noted (they are not a loss).
import { describe, expect, it } from 'vitest';
import { createRunNotes, noteCount } from '../run-notes.ts';
import { parseFeed } from './feed.parse.ts';
import { BUDGET_NOTE, parseIcal } from './ical.parse.ts';
import { parseJsonLd } from './jsonld.parse.ts';

const ctx = { now: new Date('2026-11-23T18:00:00Z'), timeZone: 'America/Los_Angeles', horizonDays: 180, maxOccurrences: 500 };
const vevent = (...lines: string[]) => ['BEGIN:VEVENT', 'DTSTAMP:20261101T000000Z', ...lines, 'END:VEVENT'];
const calendar = (...events: string[][]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Townbeat tests//EN', ...events.flat(), 'END:VCALENDAR'].join('\r\n');

describe('run notes', () => {
  it('count every entry of a reason and keep a few distinct examples, shortened', () => {
    const notes = createRunNotes();
    for (const title of ['A', 'B', 'A', 'C', 'D']) notes.add('skipped', 'had no start date that could be read', title);
    notes.add('skipped', 'had no title', 'x'.repeat(200));
    notes.addAll([{ kind: 'skipped', reason: 'had no title', count: 4, examples: ['row 2'] }]);
    notes.add('repeated', 'repeated another entry exactly (kept once)');
    const list = notes.list();
    expect(list.map((n) => [n.reason, n.count, n.examples.length])).toEqual([
      ['had no start date that could be read', 5, 3],
      ['had no title', 5, 2],
      ['repeated another entry exactly (kept once)', 1, 0],
    ]);
    expect(list[0]!.examples).toEqual(['A', 'B', 'C']);
    expect(list[1]!.examples[0]).toHaveLength(80);
    // Repeats are kept once, not lost: they are not counted as skipped.
    expect(noteCount(list, 'skipped')).toBe(10);
  });
});

describe('iCalendar notes', () => {
  it('name the entries without a title, a start or a rule that can be expanded, and the ones that cannot be read', () => {
    const out = parseIcal({
      ...ctx,
      text: calendar(
        vevent('UID:ok', 'DTSTART:20261125T190000Z', 'SUMMARY:Jazz Night'),
        vevent('UID:no-title', 'DTSTART:20261125T190000Z'),
        vevent('UID:no-start', 'SUMMARY:Poetry Slam'),
        vevent('UID:broken', 'SUMMARY:Broken Show', 'DTSTART:20261125T190000Z', 'THIS LINE HAS NO SEPARATOR'),
        vevent('UID:hourly', 'DTSTART:20261125T190000Z', 'SUMMARY:Clock Chimes', 'RRULE:FREQ=HOURLY;BYMONTHDAY=31'),
        vevent('UID:over', 'DTSTART:20261101T190000Z', 'SUMMARY:Old Show'),
        vevent('UID:far-series', 'DTSTART:20261101T190000Z', 'SUMMARY:Old Series', 'RRULE:FREQ=DAILY;COUNT=3'),
      ),
    });
    expect(out.candidates.map((c) => c.title)).toEqual(['Jazz Night']);
    expect(out.notes).toEqual([
      { kind: 'skipped', reason: 'had no title', count: 1, examples: ['no-title'] },
      { kind: 'skipped', reason: 'had no start date that could be read', count: 1, examples: ['Poetry Slam'] },
      { kind: 'skipped', reason: 'could not be read', count: 1, examples: ['Broken Show'] },
      { kind: 'skipped', reason: 'had a repeat rule that cannot be expanded', count: 1, examples: ['Clock Chimes'] },
    ]);
  });

  it('say when a series has more dates than one run lists', () => {
    const out = parseIcal({ ...ctx, maxOccurrences: 3, text: calendar(vevent('UID:daily', 'DTSTART:20261124T170000Z', 'SUMMARY:Morning Yoga', 'RRULE:FREQ=DAILY')) });
    expect(out.candidates).toHaveLength(3);
    expect(out.notes).toEqual([{ kind: 'unread', reason: 'reached 3 dates within the horizon, the most one run lists of a series; later dates are not listed', count: 1, examples: ['Morning Yoga'] }]);
    expect(BUDGET_NOTE).toContain('later dates are not listed');
  });
});

describe('feed notes', () => {
  it('name items without a title or a date, and not those that are over', () => {
    const rss = `<?xml version="1.0"?><rss version="2.0" xmlns:ev="http://purl.org/rss/1.0/modules/event/"><channel><title>Events</title>
      <item><title>Harbor Cleanup</title><ev:startdate>2026-11-28T10:00:00-08:00</ev:startdate><guid>a</guid></item>
      <item><description>No title here</description><ev:startdate>2026-11-28T10:00:00-08:00</ev:startdate><guid>b</guid></item>
      <item><title>Someday maybe</title><guid>c</guid></item>
      <item><title>Last year's fair</title><ev:startdate>2025-11-01T10:00:00-08:00</ev:startdate><guid>d</guid></item>
    </channel></rss>`;
    const out = parseFeed({ ...ctx, text: rss });
    expect(out.candidates.map((c) => c.title)).toEqual(['Harbor Cleanup']);
    expect(out.notes).toEqual([
      { kind: 'skipped', reason: 'had no title', count: 1, examples: ['b'] },
      { kind: 'skipped', reason: 'had no start date that could be read', count: 1, examples: ['Someday maybe'] },
    ]);
  });
});

describe('JSON-LD notes', () => {
  it('name a block that cannot be read and events without a title or a start', () => {
    const block = (json: string) => `<script type="application/ld+json">${json}</script>`;
    const page = `<html><head>${[
      block(JSON.stringify({ '@context': 'https://schema.org', '@type': 'Event', name: 'Clean-up Day', startDate: '2026-11-28T10:00:00-08:00' })),
      block(JSON.stringify({ '@context': 'https://schema.org', '@type': 'Event', name: 'Date to be announced' })),
      block(JSON.stringify({ '@context': 'https://schema.org', '@type': 'Event', url: 'https://example.org/e/1', startDate: '2026-11-28T10:00:00-08:00' })),
      block('{ "@type": "Event", "name": "Broken", }}'),
    ].join('')}</head><body></body></html>`;
    const out = parseJsonLd({ ...ctx, text: page, baseUrl: 'https://example.org/' });
    expect(out.candidates.map((c) => c.title)).toEqual(['Clean-up Day']);
    expect(out.notes.map((n) => [n.kind, n.reason, n.count])).toEqual([
      ['skipped', 'could not be read', 1],
      ['skipped', 'had no start date that could be read', 1],
      ['skipped', 'had no title', 1],
    ]);
    expect(out.notes[1]!.examples).toEqual(['Date to be announced']);
    expect(out.notes[2]!.examples).toEqual(['https://example.org/e/1']);
  });
});
