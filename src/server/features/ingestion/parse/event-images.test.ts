// Where each format puts an event's picture, as real feeds write it: iCalendar IMAGE (RFC 7986)
// and ATTACH (RFC 5545), RSS enclosures and Media RSS, Atom enclosure links, schema.org `image`.

import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFeed } from './feed.parse.ts';
import { parseIcal } from './ical.parse.ts';
import { parseJsonLd } from './jsonld.parse.ts';

const FIX = resolve(process.cwd(), '../shared/fixtures');
const has = existsSync(FIX);
const NOW = new Date('2026-03-01T00:00:00Z');
const ctx = { now: NOW, timeZone: 'America/Los_Angeles', horizonDays: 180, maxOccurrences: 50 };

const ics = (...lines: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Townbeat tests//EN', 'BEGIN:VEVENT', 'UID:e1@test', 'DTSTAMP:20260201T000000Z', 'DTSTART:20260310T180000Z', 'SUMMARY:Spring concert', ...lines, 'END:VEVENT', 'END:VCALENDAR'].join('\r\n');
const icsImage = (...lines: string[]) => parseIcal({ ...ctx, text: ics(...lines) }).candidates[0]?.imageUrl;

describe('iCalendar images', () => {
  it('reads an RFC 7986 IMAGE given by URI, folded like any long line', () => {
    expect(icsImage('IMAGE;VALUE=URI;DISPLAY=BADGE;FMTTYPE=image/png:https://example.org/badge.png')).toBe('https://example.org/badge.png');
    expect(icsImage('IMAGE;VALUE=URI:https://cdn.example.org/events/2026/spring-concert/poster-1600x900', ' .jpg')).toBe('https://cdn.example.org/events/2026/spring-concert/poster-1600x900.jpg');
  });

  it('prefers a GRAPHIC or FULLSIZE image to a THUMBNAIL or BADGE, in any order', () => {
    expect(
      icsImage(
        'IMAGE;VALUE=URI;DISPLAY=THUMBNAIL:https://example.org/thumb.jpg',
        'IMAGE;VALUE=URI;DISPLAY=BADGE:https://example.org/badge.png',
        'IMAGE;VALUE=URI;DISPLAY=FULLSIZE,GRAPHIC;FMTTYPE=image/jpeg:https://example.org/full.jpg',
      ),
    ).toBe('https://example.org/full.jpg');
  });

  it('leaves out inline BINARY images and takes the next usable one', () => {
    expect(icsImage('IMAGE;ENCODING=BASE64;VALUE=BINARY;FMTTYPE=image/png:iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'ATTACH;FMTTYPE=image/jpeg:https://example.org/a.jpg')).toBe('https://example.org/a.jpg');
  });

  it('takes an ATTACH that is an image by its FMTTYPE (any case) or, with none, by its file name', () => {
    expect(icsImage('ATTACH;FMTTYPE=image/jpeg:https://example.org/poster.jpeg')).toBe('https://example.org/poster.jpeg');
    expect(icsImage('ATTACH;FMTTYPE=application/pdf:https://example.org/programme.pdf', 'ATTACH;FMTTYPE=IMAGE/PNG:https://example.org/map')).toBe('https://example.org/map');
    expect(icsImage('ATTACH:https://example.org/flyer.webp?v=3')).toBe('https://example.org/flyer.webp?v=3');
    expect(icsImage('ATTACH:https://example.org/agenda.docx', 'ATTACH;FMTTYPE=application/pdf:https://example.org/photo.pdf')).toBeUndefined();
  });

  it('gives a moved occurrence its series picture when it names none', () => {
    const text = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'BEGIN:VEVENT',
      'UID:weekly@test',
      'DTSTAMP:20260201T000000Z',
      'DTSTART:20260303T180000Z',
      'RRULE:FREQ=WEEKLY;COUNT=3',
      'SUMMARY:Weekly jam',
      'ATTACH;FMTTYPE=image/jpeg:https://example.org/jam.jpg',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:weekly@test',
      'DTSTAMP:20260201T000000Z',
      'RECURRENCE-ID:20260310T180000Z',
      'DTSTART:20260311T180000Z',
      'SUMMARY:Weekly jam (moved to Wednesday)',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    const { candidates } = parseIcal({ ...ctx, text });
    expect(candidates).toHaveLength(3);
    expect(candidates.map((c) => c.imageUrl)).toEqual(['https://example.org/jam.jpg', 'https://example.org/jam.jpg', 'https://example.org/jam.jpg']);
  });

  describe.skipIf(!has)('on real calendars (needs ../shared/fixtures)', () => {
    const real = (file: string, now: string, timeZone: string) => parseIcal({ text: readFileSync(join(FIX, 'ics', file), 'utf8'), now: new Date(now), timeZone, horizonDays: 3650, maxOccurrences: 5 }).candidates;

    it('a WordPress events calendar lists its sizes in X-WP-IMAGES-URL: the full size is taken', () => {
      const cnc = real('recurring__fablab_cottbus.ics', '2017-01-01T00:00:00Z', 'Europe/Berlin').find((c) => c.title === 'Workshop: Einführung CNC-Fräsen');
      expect(cnc?.imageUrl).toBe('http://blog.fablab-cottbus.de/wp-content/uploads/2016/11/DSC_1363-300x199.jpg');
    });

    it('an ATTACH that is not an image (a TV listing\'s "Pop") gives none', () => {
      const tv = real('ical4j__Australian_TV_Melbourne.ics', '2000-01-01T00:00:00Z', 'Australia/Melbourne');
      expect(tv.length).toBeGreaterThan(0);
      expect(tv.every((c) => c.imageUrl === undefined)).toBe(true);
    });
  });
});

const rss = (item: string, ns = 'xmlns:media="http://search.yahoo.com/mrss/"') =>
  `<?xml version="1.0"?><rss version="2.0" ${ns}><channel><title>Club</title><link>https://club.example/</link>
  <item><title>Spring concert</title><guid>c1</guid><description>Saturday 14 March 2026, 8pm</description><pubDate>Sun, 01 Mar 2026 09:00:00 +0000</pubDate>${item}</item></channel></rss>`;
const feedImage = (text: string) => parseFeed({ ...ctx, text }).candidates[0]?.imageUrl;

describe('RSS and Atom images', () => {
  it('takes the enclosure that is an image, resolved against the channel link', () => {
    expect(feedImage(rss('<enclosure url="https://club.example/podcast.mp3" length="123" type="audio/mpeg"/><enclosure url="/img/spring.jpg" length="45678" type="image/jpeg"/>'))).toBe('https://club.example/img/spring.jpg');
  });

  it('takes an enclosure with no type when its file name is an image, not otherwise', () => {
    expect(feedImage(rss('<enclosure url="https://club.example/spring.PNG" length="0"/>'))).toBe('https://club.example/spring.PNG');
    expect(feedImage(rss('<enclosure url="https://club.example/episode.mp3" length="0"/>'))).toBeUndefined();
  });

  it('reads Media RSS: image media:content, the default one first, then a thumbnail', () => {
    expect(feedImage(rss('<media:content url="https://club.example/a.jpg" medium="image"/><media:content url="https://club.example/b.jpg" type="image/jpeg" isDefault="true"/>'))).toBe('https://club.example/b.jpg');
    expect(feedImage(rss('<media:content url="https://club.example/teaser.mp4" type="video/mp4"><media:thumbnail url="https://club.example/poster.jpg" width="640" height="360"/></media:content>'))).toBe('https://club.example/poster.jpg');
    expect(feedImage(rss('<media:thumbnail url="https://club.example/thumb.jpg"/>'))).toBe('https://club.example/thumb.jpg');
  });

  it('looks inside media:group, whatever prefix the feed binds to Media RSS', () => {
    const item = '<m:group><m:content url="https://club.example/teaser.mp4" medium="video"/><m:content url="https://club.example/stage.webp" medium="image"/></m:group>';
    expect(feedImage(rss(item, 'xmlns:m="http://search.yahoo.com/mrss/"'))).toBe('https://club.example/stage.webp');
  });

  it('reads an Atom enclosure link that is an image', () => {
    const atom = `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Club</title><link href="https://club.example/"/>
      <entry><id>tag:club.example,2026:1</id><title>Spring concert</title><published>2026-03-01T09:00:00Z</published><summary>Saturday 14 March 2026, 8pm</summary>
      <link rel="alternate" href="https://club.example/spring"/><link rel="enclosure" type="audio/mpeg" href="https://club.example/a.mp3"/><link rel="enclosure" type="image/png" href="/img/spring.png"/></entry></feed>`;
    expect(feedImage(atom)).toBe('https://club.example/img/spring.png');
  });

  it('our Atom sample: the reading has its enclosure image, the café none', () => {
    const text = readFileSync(new URL('../connectors/__samples__/rss/atom-events.xml', import.meta.url), 'utf8');
    const out = parseFeed({ ...ctx, now: new Date('2000-01-01T00:00:00Z'), timeZone: 'Europe/Berlin', horizonDays: 100_000, text }).candidates;
    expect(out.map((c) => c.imageUrl)).toEqual(['https://bibliothek.example/img/lesung.jpg', undefined]);
  });
});

const page = (ld: object, head = '') => `<!doctype html><html><head>${head}<script type="application/ld+json">${JSON.stringify(ld)}</script></head><body></body></html>`;
const event = (image: unknown) => ({ '@context': 'https://schema.org', '@type': 'Event', name: 'Spring concert', startDate: '2026-03-14T20:00:00-07:00', location: { '@type': 'Place', name: 'Hall' }, image });
const ldImage = (html: string, baseUrl = 'https://club.example/events/spring') => parseJsonLd({ ...ctx, text: html, baseUrl }).candidates[0]?.imageUrl;

describe('schema.org images', () => {
  it('reads image as a URL, relative to the page or to its <base href>', () => {
    expect(ldImage(page(event('https://cdn.example/spring.jpg')))).toBe('https://cdn.example/spring.jpg');
    expect(ldImage(page(event('/img/spring.jpg')))).toBe('https://club.example/img/spring.jpg');
    expect(ldImage(page(event('/images/spring.jpg'), '<base href="https://www.club.example/en/">'), 'demo://feeds/page.html')).toBe('https://www.club.example/images/spring.jpg');
  });

  it('reads a list of images: the first usable one', () => {
    expect(ldImage(page(event(['', 'data:image/png;base64,AAAA', 'https://cdn.example/1x1.jpg', 'https://cdn.example/4x3.jpg'])))).toBe('https://cdn.example/1x1.jpg');
  });

  it('reads an ImageObject by url or contentUrl, a list of them, and a reference into the graph', () => {
    expect(ldImage(page(event({ '@type': 'ImageObject', url: 'https://cdn.example/a.jpg', width: 1200, height: 800 })))).toBe('https://cdn.example/a.jpg');
    expect(ldImage(page(event({ '@type': 'ImageObject', contentUrl: 'https://cdn.example/b.jpg' })))).toBe('https://cdn.example/b.jpg');
    expect(ldImage(page(event([{ '@type': 'ImageObject', caption: 'no address' }, { '@type': 'ImageObject', url: ['https://cdn.example/c.jpg'] }])))).toBe('https://cdn.example/c.jpg');
    // As SEO plugins write it: the page's graph holds the ImageObject, the event points at it.
    const graph = {
      '@context': 'https://schema.org',
      '@graph': [
        { '@type': 'ImageObject', '@id': 'https://club.example/events/spring#primaryimage', url: 'https://club.example/uploads/spring-1200x675.jpg', contentUrl: 'https://club.example/uploads/spring.jpg' },
        { ...event({ '@id': 'https://club.example/events/spring#primaryimage' }), '@context': undefined },
      ],
    };
    expect(ldImage(page(graph))).toBe('https://club.example/uploads/spring-1200x675.jpg');
  });

  describe.skipIf(!has)('on real pages (needs ../shared/fixtures)', () => {
    const real = (file: string, baseUrl: string) => parseJsonLd({ text: readFileSync(join(FIX, 'jsonld', file), 'utf8'), baseUrl, now: new Date('2017-01-01T00:00:00Z'), timeZone: 'UTC', horizonDays: 3650, maxOccurrences: 5 }).candidates;

    it("a page about one concert gives it the page's og:image when its JSON-LD names none", () => {
      const [concert] = real('extruct__songkick_tovestyrke.html', 'https://www.songkick.com/concerts/30166884-tove-styrke-at-hoxton-square-bar-and-kitchen');
      expect(concert?.imageUrl).toBe('http://images.sk-static.com/images/media/img/col6/20170515-103345-171924.jpg');
    });

    it("an artist's page of several concerts does not give them the page's picture", () => {
      const concerts = real('extruct__songkick_elysianfields.html', 'https://www.songkick.com/artists/236156-elysian-fields');
      expect(concerts.length).toBeGreaterThan(1);
      expect(concerts.every((c) => c.imageUrl === undefined)).toBe(true);
    });
  });
});
