import { describe, expect, it } from 'vitest';
import { parseFeed } from './feed.parse.ts';

// Plain RSS gives an event's date only in its words: the first date mentioned is the event's,
// unless the words before it make it another (tickets on sale, a deadline, the post's own date).
const ctx = { now: new Date('2026-11-23T18:00:00Z'), timeZone: 'America/Los_Angeles', horizonDays: 180, maxOccurrences: 500 };
const feed = (items: { title: string; description: string }[]) =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>News</title>${items
    .map((i, n) => `<item><title>${i.title}</title><guid>item-${n}</guid><description>${i.description}</description></item>`)
    .join('')}</channel></rss>`;
const starts = (items: { title: string; description: string }[]) => parseFeed({ ...ctx, text: feed(items) }).candidates.map((c) => [c.title, c.start.toISOString(), c.allDay ?? false]);

describe('dates read from an item’s words', () => {
  it('passes over a date that is not the event’s: tickets on sale, a deadline to register by, the post’s own date', () => {
    expect(
      starts([
        { title: 'Tamarack Orchestra Winter Concert', description: 'Tickets go on sale December 1 for the Tamarack Orchestra concert on January 16 at 7:30pm at Tamarack Hall.' },
        { title: 'Spring Pottery Course', description: 'Register by December 4. The course starts December 12 at 10am in the studio.' },
        { title: 'Lantern Parade', description: 'Posted November 20: the parade leaves the square on December 19 at 5pm.' },
      ]),
    ).toEqual([
      ['Tamarack Orchestra Winter Concert', '2027-01-17T03:30:00.000Z', false],
      ['Spring Pottery Course', '2026-12-12T18:00:00.000Z', false],
      ['Lantern Parade', '2026-12-20T01:00:00.000Z', false],
    ]);
  });

  it('still takes the first date mentioned when nothing says it is another', () => {
    expect(starts([{ title: 'Winter Market', description: 'Join us December 5 from 10am, and again on December 12.' }])).toEqual([['Winter Market', '2026-12-05T18:00:00.000Z', false]]);
  });
});
