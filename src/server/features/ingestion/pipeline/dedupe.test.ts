import { describe, expect, it } from 'vitest';
import { compareEvents, eventPageKey, isSameEvent, learnedMergeThreshold, normaliseAddress, placeRelation, stem, titleRelation, type Comparable } from './dedupe.ts';

const at = (iso: string) => new Date(iso);
const ev = (title: string, start: string, venueName = 'Crystal Ballroom', lat: number | null = 45.5225, lng: number | null = -122.6838, extra: Partial<Comparable> = {}): Comparable => ({
  title,
  start: at(start),
  venueName,
  lat,
  lng,
  ...extra,
});
const T = '2026-12-05T03:00:00Z';

describe('deduplication: what merges', () => {
  it('merges the same event from two sources: same words, start within 30 minutes, same venue', () => {
    expect(isSameEvent(ev('Jazz Night with the Blue Trio', T), ev('Jazz night w/ Blue Trio!', '2026-12-05T03:15:00Z', 'The Crystal Ballroom'))).toBe(true);
    expect(isSameEvent(ev('Portland Night Market', T), ev('Portland Night Market at the Waterfront', T))).toBe(true);
  });

  it('sets wording aside: word order, plurals, "&", generic words, typos and split compounds', () => {
    for (const [a, b] of [
      ['Small Business Networking Breakfast', 'Networking Breakfast for Small Businesses'],
      ['Sunday Farmers Market', 'Farmers Market (Sundays)'],
      ['Swing Dance Lessons', 'Swing Dancing Lesson'],
      ['Bluegrass Jam', 'Blue Grass Jam Session'],
      ['Kids Story Time', "Children's Story Time"],
      ['Indie Film Screening: Local Shorts', 'Local Shorts - Indie Film Night'],
      ['Salsa and Bachata Social', 'Salsa & Bachata Social'],
      ['Pottery Wheel Workshop for Beginners', 'Pottery Wheel Worksohp for Beginners'],
      ['Cider Release Party', 'Cider Release Party 2026'],
    ]) {
      expect(compareEvents(ev(a!, T), ev(b!, T)), `${a} / ${b}`).toMatchObject({ verdict: 'same' });
    }
  });

  it('merges when the venue is named differently but is the same place: a known venue id, an address, or a name that contains the other', () => {
    expect(isSameEvent(ev('Salsa Social', T, 'Ballroom', null, null, { venueId: 'v1' }), ev('Salsa social', T, 'Crystal', null, null, { venueId: 'v1' }))).toBe(true);
    expect(isSameEvent(ev('Salsa Social', T, '', null, null, { address: '1332 W Burnside Street, Portland' }), ev('Salsa social', T, '', null, null, { address: '1332 W. Burnside St' }))).toBe(true);
    expect(isSameEvent(ev('Salsa Social', T, 'Doug Fir'), ev('Salsa social', T, 'Doug Fir Lounge, Portland, OR'))).toBe(true);
  });
});

describe('deduplication: the same page of one event', () => {
  const page = 'https://www.universe.com/events/osea-membership-registration-tickets-toronto-1PDMTJ';
  it('merges a relisting without a venue into the original when both link the same event page, title and start', () => {
    // Ticketmaster's two API versions of one Universe event: v1 names the venue, v2 names none.
    const v1 = ev('OSEA Membership Registration', T, 'OSEA Office', null, null, { url: `http://https//www.universe.com/events/osea-membership-registration-tickets-toronto-1PDMTJ?ref=ticketmaster` });
    const v2 = ev('OSEA Membership Registration', T, '', null, null, { url: `${page}?ref=ticketmaster` });
    expect(compareEvents(v1, v2)).toMatchObject({ verdict: 'same', reason: 'same event page, title and start' });
    // Without the shared page the same pair is only proposed.
    expect(compareEvents({ ...v1, url: null }, v2).verdict).toBe('possible');
  });

  it('never merges on a page alone: two named venues, titles that tell events apart, or starts an hour apart stay apart', () => {
    expect(compareEvents(ev('Open Mic', T, 'Doug Fir Lounge', 45.5226, -122.6574, { url: page }), ev('Open Mic', T, 'Mississippi Studios', 45.5513, -122.6757, { url: page })).verdict).toBe('different');
    expect(compareEvents(ev('Spanish Conversation Hour', T, '', null, null, { url: page }), ev('French Conversation Hour', T, 'Library', null, null, { url: page })).verdict).toBe('different');
    expect(compareEvents(ev('Open Mic', T, '', null, null, { url: page }), ev('Open Mic', '2026-12-05T04:00:00Z', 'Library', null, null, { url: page })).verdict).toBe('different');
    // A one-word title inside a longer one is too little in common where no place agrees, page or not.
    expect(compareEvents(ev('Yoga', T, '', null, null, { url: page }), ev('Yoga for Seniors', T, 'Library', null, null, { url: page })).verdict).toBe('different');
  });

  it('takes no listing page or home page for one event\'s page: many events share those', () => {
    for (const url of ['https://library.example.org/events', 'https://library.example.org/', 'https://library.example.org/calendar/', 'https://example.org/event.php?id=12', 'https://example.org/storytime']) {
      expect(eventPageKey(url), url).toBeNull();
      const c = compareEvents(ev('Baby Storytime', T, '', null, null, { url }), ev('Baby Storytime', T, 'Midland Library', null, null, { url }));
      expect(c.verdict, url).toBe('possible');
    }
  });

  it('compares pages without scheme, "www.", query, fragment or trailing slash, and repairs a doubled scheme', () => {
    expect(eventPageKey('http://https://www.universe.com/events/osea-1PDMTJ?ref=tm')).toBe('universe.com/events/osea-1PDMTJ');
    expect(eventPageKey('https://WWW.Universe.com/events/osea-1PDMTJ/#tickets')).toBe('universe.com/events/osea-1PDMTJ');
    expect(eventPageKey('https://www.meetup.com/pdx-python/events/301234567/')).toBe('meetup.com/pdx-python/events/301234567');
    // Paths keep their case: slugs and ids are case-sensitive.
    expect(eventPageKey('https://universe.com/events/osea-1pdmtj')).not.toBe(eventPageKey('https://universe.com/events/osea-1PDMTJ'));
    expect(eventPageKey('mailto:someone@example.org')).toBeNull();
    expect(eventPageKey('not a url')).toBeNull();
    expect(eventPageKey(null)).toBeNull();
  });
});

describe('deduplication: what never merges', () => {
  it('keeps sibling events at one venue and hour apart: Spanish / French, U10 / U12, other performers or teams', () => {
    for (const [a, b] of [
      ['Spanish Conversation Hour', 'French Conversation Hour'],
      ['U10 Soccer Practice', 'U12 Soccer Practice'],
      ['Yoga for Beginners', 'Yoga for Seniors'],
      ['Python Meetup', 'Rust Meetup'],
      ['Jazz Jam', 'Blues Jam'],
      ['Trivia Night', 'Karaoke Night'],
      ['Live Music: The Decemberists', 'Live Music: Modest Mouse'],
      ['Timbers vs Sounders', 'Timbers vs Galaxy'],
      ['Pottery pour débutants', 'Life drawing session'],
    ]) {
      expect(compareEvents(ev(a!, T), ev(b!, T)), `${a} / ${b}`).toMatchObject({ verdict: 'different' });
    }
  });

  it('keeps numbered events apart: numbers, ordinals, parts and dates', () => {
    for (const [a, b] of [
      ['Concert 12', 'Concert 13'],
      ['Lecture Series: Part 2', 'Lecture Series: Part 3'],
      ['Second Saturday Art Walk', 'Third Saturday Art Walk'],
      ['Rocky II Screening', 'Rocky III Screening'],
      ['Beethoven Cycle, Part I', 'Beethoven Cycle, Part 2'],
      ['Market Day 12/5', 'Market Day 12/6'],
    ]) {
      expect(compareEvents(ev(a!, T), ev(b!, T)), `${a} / ${b}`).toMatchObject({ verdict: 'different' });
    }
  });

  it('keeps two occurrences of a series apart, and starts more than 30 minutes apart', () => {
    expect(isSameEvent(ev('Tuesday Jazz Jam', '2026-12-02T03:00:00Z'), ev('Tuesday Jazz Jam', '2026-12-09T03:00:00Z'))).toBe(false);
    expect(isSameEvent(ev('Tuesday Jazz Jam', '2026-12-02T03:00:00Z'), ev('Tuesday Jazz Jam', '2026-12-02T03:45:00Z'))).toBe(false);
  });

  it('keeps two different named venues apart, even numbered ones in one neighbourhood ten minutes apart', () => {
    expect(compareEvents(ev('Open Mic Night', T, 'Mississippi Studios', 45.5502, -122.6756), ev('Open Mic Night', T, 'Alberta Rose', 45.559, -122.6454)).verdict).toBe('different');
    const hood = { lat: 45.5231, lng: -122.6765, geoApprox: true };
    expect(compareEvents(ev('Concert 7', T, 'Venue 12, Portland', hood.lat, hood.lng), ev('Concert 7', '2026-12-05T03:10:00Z', 'Venue 13, Portland', hood.lat, hood.lng)).verdict).toBe('different');
    expect(compareEvents(ev('Concert 7', T, 'Venue 12, Portland', 45.5231, -122.6765), ev('Concert 7', T, 'Venue 13, Portland', 45.5231, -122.6765)).verdict).toBe('different');
  });

  it('does not take a neighbourhood centre for a venue position', () => {
    const a = ev('Holiday Makers Fair', T, '', 45.5231, -122.6765, { geoApprox: true });
    const b = ev('Holiday Makers Fair', T, '', 45.5231, -122.6765, { geoApprox: true });
    expect(placeRelation(a, b)).toBe('unknown');
    expect(compareEvents(a, b).verdict).toBe('possible');
  });
});

describe('deduplication: where evidence is thin, a proposal for admins', () => {
  it('proposes the same title at the same time when one venue is unknown', () => {
    const c = compareEvents(ev('Holiday Makers Fair', '2026-12-05T18:00:00Z', '', null, null), ev('Holiday Makers Fair', '2026-12-05T18:00:00Z'));
    expect(c.verdict).toBe('possible');
    expect(c.reason).toContain('venue unknown');
    expect(c.score).toBeGreaterThan(0.5);
  });

  it('proposes two differently named venues that stand within 150 m', () => {
    const c = compareEvents(ev('Salsa Social', T, "Dante's", 45.5225, -122.6838), ev('Salsa social', T, 'Crystal Ballroom', 45.5231, -122.684));
    expect(c.verdict).toBe('possible');
    // A part of a place ("Back Patio", "Main Stage") is no other named venue: the coordinates decide.
    expect(compareEvents(ev('Salsa Social', T, 'Back Patio', 45.5225, -122.6838), ev('Salsa social', T, 'Crystal Ballroom', 45.5231, -122.684)).verdict).toBe('same');
    expect(compareEvents(ev('Salsa Social', T, 'Back Patio', 45.5425, -122.6838), ev('Salsa social', T, 'Crystal Ballroom', 45.5231, -122.684)).verdict).toBe('different');
  });

  it('proposes, never merges, a title that adds a level, an audience or a language to the other', () => {
    for (const [a, b] of [
      ['Salsa Dance Class', 'Salsa Dance Class - Advanced'],
      ['Evening Yoga', 'Evening Yoga - Beginners'],
      ['Trivia Night', 'Trivia Night - Kids Edition'],
      ['Choir Rehearsal', 'Choir Rehearsal - Sopranos'],
      ['Youth Soccer U10 Tournament', 'Youth Soccer U10 Tournament - Girls'],
      ['Spanish Conversation Hour', 'Spanish Conversation Hour - Advanced'],
      ['Conversation Hour', 'Spanish Conversation Hour'],
      ['Open Swim', 'Open Swim for Seniors'],
    ]) {
      expect(titleRelation(a!, b!), `${a} / ${b}`).toBe('variant');
      const c = compareEvents(ev(a!, T), ev(b!, T));
      expect(c, `${a} / ${b}`).toMatchObject({ verdict: 'possible' });
      expect(c.reason).toContain('one title names a level, audience or language the other lacks');
      // At another place it is another event.
      expect(compareEvents(ev(a!, T, '', null, null), ev(b!, T)).verdict, `${a} / ${b}`).toBe('different');
    }
    // What another site adds that names no other event still merges: a performer, a team's name, a venue.
    expect(isSameEvent(ev('Roller Derby Double Header', T), ev('Rose City Rollers: Roller Derby Double-Header', T))).toBe(true);
    expect(isSameEvent(ev('Portland Night Market', T), ev('Portland Night Market at the Waterfront', T))).toBe(true);
  });

  it('proposes a short title inside a longer one rather than merging it', () => {
    expect(compareEvents(ev('Yoga', T), ev('Yoga for Seniors', T)).verdict).toBe('possible');
    expect(compareEvents(ev('Jazz Jam', T), ev('Jazz Jam with Mel Brown', '2026-12-05T03:25:00Z')).verdict).toBe('possible');
  });
});

describe('deduplication: the parts', () => {
  it('stems plurals and verb forms, and maps kids to children', () => {
    expect(stem('lessons')).toBe(stem('lesson'));
    expect(stem('dancing')).toBe(stem('dance'));
    expect(stem('businesses')).toBe(stem('business'));
    expect(stem('kid')).toBe(stem('children'));
  });

  it('relates titles', () => {
    expect(titleRelation('Jazz Night', 'Jazz Night')).toBe('equal');
    expect(titleRelation('Roller Derby Double Header', 'Rose City Rollers: Roller Derby Double-Header')).toBe('contains');
    expect(titleRelation('Spanish Conversation Hour', 'French Conversation Hour')).toBe('conflict');
    expect(titleRelation('Concert', 'Concert 12')).toBe('weak');
    // "Part I" is "Part 1"; a lone "I" elsewhere is a word.
    expect(titleRelation('Beethoven Cycle, Part I', 'Beethoven Cycle: Part 1')).toBe('equal');
    expect(titleRelation('Beethoven Cycle, Part II', 'Beethoven Cycle: Part 2')).toBe('equal');
    expect(titleRelation('I Love Lucy Marathon', 'I Love Lucy Marathon')).toBe('equal');
  });

  it('normalises addresses', () => {
    expect(normaliseAddress('1332 W. Burnside Street, Portland, OR')).toBe(normaliseAddress('1332 w burnside st'));
  });

  it('compares titles ignoring case, punctuation, accents and stop words', () => {
    expect(titleRelation('Café Concert', 'cafe concert!')).toBe('equal');
    expect(titleRelation('The Jazz Night', 'Jazz Night')).toBe('equal');
    expect(titleRelation('Chess club', 'Swim team')).toBe('conflict');
  });

  it('learns a merge threshold only from enough consistent admin decisions', () => {
    expect(learnedMergeThreshold([])).toBeNull();
    const merges = Array.from({ length: 12 }, (_, i) => ({ score: 0.9 - i * 0.01, merged: true }));
    expect(learnedMergeThreshold(merges)).toBeCloseTo(0.79);
    const mixed = [...merges, { score: 0.95, merged: false }, { score: 0.94, merged: false }];
    expect(learnedMergeThreshold(mixed)).toBeNull();
    const lowKeeps = [...merges, ...Array.from({ length: 5 }, (_, i) => ({ score: 0.6 - i * 0.01, merged: false }))];
    expect(learnedMergeThreshold(lowKeeps)).toBeCloseTo(0.79);
  });
});
