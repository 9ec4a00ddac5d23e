import { describe, expect, it } from 'vitest';
import { PORTLAND } from '../../../city.ts';
import { canonicalUrl, normalise, placeOf, venueKey, type KnownVenues } from './normalise.ts';

const now = new Date('2026-11-22T20:00:00Z');
const ctx = (venues: KnownVenues = new Map()) => ({ city: PORTLAND, now, venues });
const start = new Date('2026-11-28T03:00:00Z');

describe('normalise', () => {
  it('turns HTML into safe text and fills a default two-hour end', () => {
    const n = normalise({ externalId: 'a', title: '<b>Jazz</b> &amp; Blues', description: '<p>Hello<script>alert(1)</script> <i>there</i></p>', start }, ctx());
    if (typeof n === 'string') throw new Error(n);
    expect(n.title).toBe('Jazz & Blues');
    expect(n.description).toBe('Hello there');
    expect(n.end.toISOString()).toBe('2026-11-28T05:00:00.000Z');
    // Filled in to list it until then, and said to be so: a page shows only the start.
    expect(n.endGiven).toBe(false);
  });

  it('keeps the source\'s own end as given, and one before the start as not given', () => {
    const end = new Date('2026-11-28T04:30:00Z');
    const given = normalise({ externalId: 'a', title: 'Jazz', start, end }, ctx());
    const backwards = normalise({ externalId: 'b', title: 'Jazz', start, end: new Date('2026-11-28T02:00:00Z') }, ctx());
    if (typeof given === 'string' || typeof backwards === 'string') throw new Error('refused');
    expect([given.end.toISOString(), given.endGiven]).toEqual([end.toISOString(), true]);
    expect([backwards.end.toISOString(), backwards.endGiven]).toEqual(['2026-11-28T05:00:00.000Z', false]);
  });

  it('drops control characters, which a database cannot store (NUL) or a reader cannot see, and keeps line breaks', () => {
    const n = normalise(
      { externalId: 'uid\u0000-1', title: 'Jazz\u0000 Night\u0007', description: 'Line one\u001b\nLine two&#1;\tend', venueName: 'Doug\u0000 Fir', priceNote: 'At\u0000 the door', start },
      ctx(),
    );
    if (typeof n === 'string') throw new Error(n);
    expect([n.externalId, n.title, n.description, n.venueName, n.priceNote]).toEqual(['uid-1', 'Jazz Night', 'Line one\nLine two end', 'Doug Fir', 'at the door']);
  });

  it('detects free events from a zero price, a flag or the words', () => {
    const one = (c: object) => normalise({ externalId: 'x', title: 'Show', start, ...c }, ctx()) as Exclude<ReturnType<typeof normalise>, string>;
    expect(one({ price: 0 })).toMatchObject({ isFree: true, price: null });
    expect(one({ isFree: true, price: 5 })).toMatchObject({ isFree: true, price: null });
    expect(one({ description: 'Free admission for all' })).toMatchObject({ isFree: true });
    expect(one({ price: 12.5 })).toMatchObject({ isFree: false, price: 12.5 });
  });

  it('reads the price from the text when the source gives none: "$5 at the door" is not free', () => {
    const n = normalise(
      {
        externalId: 'sunday-soul-vinyl@demo.townbeat.local',
        title: 'Sunday Soul Vinyl Night',
        description: 'Resident DJs spin all-vinyl sets of northern soul, deep funk and rare grooves. Low-key, dance-if-you-like Sunday evenings; $5 at the door.',
        start,
      },
      ctx(),
    );
    expect(n).toMatchObject({ price: 5, priceMax: null, priceNote: 'at the door', isFree: false });
  });

  it('is not free when neither the source nor the text says so', () => {
    const n = normalise({ externalId: 'q', title: 'Quiz Night', description: 'Six rounds, teams of up to six, prizes for the top three.', start }, ctx());
    expect(n).toMatchObject({ price: null, priceMax: null, priceNote: null, isFree: false });
    // "Free" said of something else is not the event.
    const parking = normalise({ externalId: 'p', title: 'Gig', description: 'Free parking behind the hall. Kids under 12 free.', start }, ctx());
    expect(parking).toMatchObject({ price: null, isFree: false });
  });

  it('prefers the source: its range, its free flag, its tag; the text adds a note only when it agrees', () => {
    const one = (c: object) => normalise({ externalId: 'x', title: 'Show', start, ...c }, ctx()) as Exclude<ReturnType<typeof normalise>, string>;
    expect(one({ price: 12, priceMax: 20, description: 'Tickets $15' })).toMatchObject({ price: 12, priceMax: 20, priceNote: null, isFree: false });
    expect(one({ price: 22, description: 'Tickets $22 advance, $25 day of show.' })).toMatchObject({ price: 22, priceMax: 25, priceNote: 'advance', isFree: false });
    expect(one({ price: 10, description: 'Free admission' })).toMatchObject({ price: 10, isFree: false, priceNote: null });
    expect(one({ isFree: true, description: 'Free with RSVP' })).toMatchObject({ price: null, isFree: true, priceNote: 'with RSVP' });
    expect(one({ price: 0, priceMax: 15 })).toMatchObject({ price: 0, priceMax: 15, isFree: false });
    expect(one({ price: 5, priceNote: 'suggested donation' })).toMatchObject({ price: 5, priceNote: 'suggested donation' });
    expect(one({ categories: ['repair', 'free'] })).toMatchObject({ isFree: true, price: null });
    // The source says it is not free (schema.org isAccessibleForFree: false): the text cannot make it free.
    expect(one({ isFree: false, description: 'Free entry' })).toMatchObject({ isFree: false, price: null });
    expect(one({ description: 'Tickets $12-15' })).toMatchObject({ price: 12, priceMax: 15, isFree: false });
    expect(one({ description: 'Pay what you can' })).toMatchObject({ price: null, priceNote: 'pay what you can', isFree: false });
    expect(one({ price: 1e9 })).toMatchObject({ price: null, isFree: false });
  });

  it('places an event by its coordinates, else a known venue, else the neighbourhood named in its address', () => {
    const venues: KnownVenues = new Map([[venueKey('Doug Fir Lounge'), { lat: 45.5225, lng: -122.6574, address: '830 E Burnside St', neighbourhood: 'Buckman' }]]);
    const known = normalise({ externalId: 'k', title: 'Gig', start, venueName: 'Doug Fir Lounge' }, ctx(venues));
    expect(known).toMatchObject({ lat: 45.5225, lng: -122.6574, neighbourhood: 'Buckman', address: '830 E Burnside St' });
    const byName = normalise({ externalId: 'n', title: 'Walk', start, address: 'SE 13th Ave, Sellwood, Portland' }, ctx());
    expect(byName).toMatchObject({ neighbourhood: 'Sellwood', lat: 45.4651, lng: -122.6512 });
    const byCoords = normalise({ externalId: 'c', title: 'Market', start, lat: 45.5288, lng: -122.683 }, ctx());
    expect(byCoords).toMatchObject({ neighbourhood: 'Pearl District', lat: 45.5288 });
  });

  it('takes no neighbourhood from a street named after one: long streets cross several', () => {
    const at = (address: string, more: object = {}) => normalise({ externalId: 'x', title: 'Yard Sale', start, address, ...more }, ctx());
    expect(at('3702 SE Hawthorne Blvd, Portland')).toMatchObject({ neighbourhood: null, lat: null, geoApprox: false });
    expect(at('SE Division St., Portland')).toMatchObject({ neighbourhood: null, lat: null });
    // Coordinates say where on the street (SE 12th and Hawthorne is in Buckman).
    expect(at('1200 SE Hawthorne Blvd, Portland', { lat: 45.5121, lng: -122.653 })).toMatchObject({ neighbourhood: 'Buckman' });
    // The neighbourhood named as a place, or a venue named after it, still counts.
    expect(at('3702 SE Hawthorne Blvd, Hawthorne, Portland')).toMatchObject({ neighbourhood: 'Hawthorne', geoApprox: true });
    expect(normalise({ externalId: 'v', title: 'Gig', start, venueName: 'Hawthorne Theatre' }, ctx())).toMatchObject({ neighbourhood: 'Hawthorne' });
  });

  it('refuses events without a title, already over, or beyond the horizon', () => {
    expect(normalise({ externalId: 'a', title: '  ', start }, ctx())).toBe('no title');
    expect(normalise({ externalId: 'a', title: 'Old', start: new Date('2026-11-01T00:00:00Z') }, ctx())).toBe('already ended');
    expect(normalise({ externalId: 'a', title: 'Far', start: new Date('2028-12-01T00:00:00Z') }, ctx())).toBe('beyond the horizon');
    expect(normalise({ externalId: 'a', title: 'Bad', start: new Date('nope') }, ctx())).toBe('no valid start');
  });

  it('keeps an all-day event until the end of its local day', () => {
    const n = normalise({ externalId: 'd', title: 'Fair', start: new Date('2026-11-28T08:00:00Z'), allDay: true }, ctx());
    expect(n).toMatchObject({ allDay: true, end: new Date('2026-11-29T08:00:00Z') });
  });

  it('canonicalises URLs: http(s) only, no tracking parameters or fragment', () => {
    expect(canonicalUrl('https://Example.org/e/1?utm_source=x&id=3#top')).toBe('https://example.org/e/1?id=3');
    expect(canonicalUrl('javascript:alert(1)')).toBeNull();
    expect(canonicalUrl('not a url')).toBeNull();
  });

  it('keeps one-off events announced up to two years ahead: a festival 14 months out, a concert 7 months out', () => {
    const festival = normalise({ externalId: 'f', title: 'Rose Festival', start: new Date('2028-01-20T18:00:00Z') }, ctx());
    const concert = normalise({ externalId: 'c', title: 'Symphony in the Park', start: new Date('2027-06-20T03:00:00Z') }, ctx());
    expect(typeof festival).toBe('object');
    expect(typeof concert).toBe('object');
  });

  it('says when coordinates are only the neighbourhood centre', () => {
    const approx = normalise({ externalId: 'n', title: 'Walk', start: new Date('2026-12-01T18:00:00Z'), address: 'SE 13th Ave, Sellwood, Portland' }, ctx());
    const exact = normalise({ externalId: 'e', title: 'Walk', start: new Date('2026-12-01T18:00:00Z'), lat: 45.5288, lng: -122.683 }, ctx());
    expect(approx).toMatchObject({ geoApprox: true });
    expect(exact).toMatchObject({ geoApprox: false });
  });
});

describe('placeOf', () => {
  const none: KnownVenues = new Map();
  it("spells a named neighbourhood as the city does, and takes no other neighbourhood's centre for one the city does not list", () => {
    expect(placeOf(PORTLAND, none, { venueName: 'Community Hall', address: null, lat: null, lng: null, neighbourhood: 'pearl district' })).toMatchObject({ neighbourhood: 'Pearl District', geoApprox: true });
    // "Eastmoreland" is not among the city's neighbourhoods; the venue's words name Downtown: no Downtown centre for it.
    expect(placeOf(PORTLAND, none, { venueName: 'Downtown Community Hall', address: null, lat: null, lng: null, neighbourhood: 'Eastmoreland' })).toMatchObject({ neighbourhood: 'Eastmoreland', lat: null, lng: null, geoApprox: false });
  });
});
