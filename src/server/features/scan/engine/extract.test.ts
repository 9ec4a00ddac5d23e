import { describe, expect, it } from 'vitest';
import { displayTitle, extractEvent, zonedTime } from './extract.ts';

const tz = 'America/Los_Angeles';
// Tuesday 24 November 2026, 3 pm in Los Angeles (PST, UTC-8).
const now = new Date('2026-11-24T23:00:00Z');
const venues = [{ name: 'The Lantern Room' }, { name: 'Alder Street Hall' }, { name: 'Riverside Park' }];
const ctx = { now, timeZone: tz, venues };
const read = (text: string) => extractEvent(text, ctx);
const iso = (d: Date | null) => d?.toISOString() ?? null;

describe('extractEvent dates and times', () => {
  const cases: [string, string, string | null][] = [
    ['Sat Dec 5, 7pm', '2026-12-06T03:00:00.000Z', null],
    ['Friday, Dec 11 8:30 PM', '2026-12-12T04:30:00.000Z', null],
    ['this Friday 8-11 PM', '2026-11-28T04:00:00.000Z', '2026-11-28T07:00:00.000Z'],
    ['12/13 @ 9PM', '2026-12-14T05:00:00.000Z', null],
    ['DEC 6 | 7:00PM', '2026-12-07T03:00:00.000Z', null],
    ['Saturday 5th December 2026 19:30', '2026-12-06T03:30:00.000Z', null],
    ['Tomorrow 6pm', '2026-11-26T02:00:00.000Z', null],
    ['FRI DEC 11 8:3O PM', '2026-12-12T04:30:00.000Z', null],
    ['Fri Dec 11 7 P M', '2026-12-12T03:00:00.000Z', null],
    ['SAT. DEC. 5 7PM', '2026-12-06T03:00:00.000Z', null],
    ['Dec 5 • 9pm', '2026-12-06T05:00:00.000Z', null],
    ['SATURDAY DECEMBER 5\nDOORS 7PM', '2026-12-06T03:00:00.000Z', null],
    ['DOORS 7PM\nSATURDAY DECEMBER 5', '2026-12-06T03:00:00.000Z', null],
    ['Dec 5 7pm-late', '2026-12-06T03:00:00.000Z', null],
    ['Dec 5 10pm-2am', '2026-12-06T06:00:00.000Z', '2026-12-06T10:00:00.000Z'],
    ['Saturday December 5\n8 - 11 PM', '2026-12-06T04:00:00.000Z', '2026-12-06T07:00:00.000Z'],
    ['Thursday Jan 7 at noon', '2027-01-07T20:00:00.000Z', null],
    // Across the spring change (14 March 2027): PDT, UTC-7, though "now" is in PST.
    ['March 20 2027 7pm', '2027-03-21T02:00:00.000Z', null],
    ['SAT MAR 20 | 7:30PM', '2027-03-21T02:30:00.000Z', null],
    // Across the autumn change of 2027 (7 November): back to PST.
    ['Nov 13 2027 7pm', '2027-11-14T03:00:00.000Z', null],
    // Stacked lines: the month and day beat the bare weekday above them.
    ['FRIDAY\nJANUARY 8\n9:00 PM', '2027-01-09T05:00:00.000Z', null],
    ['SUNDAY\nDECEMBER 20\n4:00 PM\nRed Door Playhouse', '2026-12-21T00:00:00.000Z', null],
    // A dash, dot or bar between the day and the time separates them: not an hour range.
    ['SAT DEC 12 - 8:30PM', '2026-12-13T04:30:00.000Z', null],
    ['THU DEC 17 - 9 PM', '2026-12-18T05:00:00.000Z', null],
    ['WED DEC 23 · 7PM', '2026-12-24T03:00:00.000Z', null],
    ['12/13 - 9pm', '2026-12-14T05:00:00.000Z', null],
  ];
  for (const [text, start, end] of cases) {
    it(`reads ${JSON.stringify(text)}`, () => {
      const e = read(text);
      expect(iso(e.start)).toBe(start);
      expect(iso(e.end)).toBe(end);
      expect(e.allDay).toBe(false);
    });
  }

  it('reads a date without a time as all-day, from local midnight', () => {
    const e = read('SUNDAY DECEMBER 6\nRiverside Park');
    expect(e.allDay).toBe(true);
    expect(iso(e.start)).toBe('2026-12-06T08:00:00.000Z');
  });

  it('does not read the word NIGHT as a date', () => {
    const e = read('JAZZ NIGHT\nThe Lantern Room');
    expect(e.start).toBeNull();
    expect(e.title).toBe('Jazz Night');
  });

  it('reads "this Friday" relative to now', () => {
    const e = extractEvent('this Friday 9pm', { ...ctx, now: new Date('2026-12-02T20:00:00Z') });
    expect(iso(e.start)).toBe('2026-12-05T05:00:00.000Z');
  });

  it('converts wall-clock time in a zone on both sides of a change', () => {
    expect(iso(zonedTime(2027, 3, 13, 12, 0, tz))).toBe('2027-03-13T20:00:00.000Z');
    expect(iso(zonedTime(2027, 3, 15, 12, 0, tz))).toBe('2027-03-15T19:00:00.000Z');
  });
});

describe('extractEvent title, venue, price, url', () => {
  const poster = [
    'THE LANTERN PRESENTS',
    'WINTER JAZZ',
    'NIGHT',
    'SATURDAY DECEMBER 5',
    'DOORS 7PM',
    'The Lantern Room, 412 Alder St',
    'Tickets $15 at the door',
    'lanternroom.com/jazz',
  ].join('\n');

  it('reads a whole flyer', () => {
    const e = read(poster);
    expect(e.title).toBe('Winter Jazz Night');
    expect(iso(e.start)).toBe('2026-12-06T03:00:00.000Z');
    expect(e.venueName).toBe('The Lantern Room');
    expect(e.price).toBe(15);
    expect(e.priceNote).toBe('at the door');
    expect(e.isFree).toBe(false);
    expect(e.url).toBe('https://lanternroom.com/jazz');
    expect(e.description).toContain('WINTER JAZZ');
  });

  const titles: [string, string][] = [
    ['LIVE MUSIC\nFri Dec 11 9pm\n$10', 'Live Music'],
    ['Community Quilt Fair\nSat Dec 5 10am\nFree admission', 'Community Quilt Fair'],
    ['ALL AGES\nPUNK ROCK SHOWCASE\nDec 12 8pm', 'Punk Rock Showcase'],
    ['eee\nHOLIDAY MAKERS MARKET\nDec 13 11am', 'Holiday Makers Market'],
    ['JAZZ NIGHT\nAT THE LANTERN\nDec 5 8pm', 'Jazz Night'],
    ['THE RIVER BAND\nwith special guests\nDec 5 8pm', 'The River Band'],
    ['RUN CLUB\nwww.runclub.org\nSun Dec 6 8am', 'Run Club'],
  ];
  for (const [text, title] of titles) {
    it(`finds the title in ${JSON.stringify(text)}`, () => {
      expect(read(text).title).toBe(title);
    });
  }

  const multiLine: [string, string][] = [
    ['PHOENIX DRUPAL\nUSER GROUP\nMONTHLY MEETUP\nWednesday, December 30 at 7:00 PM', 'Phoenix Drupal User Group Monthly Meetup'],
    ['ARENA PRESENTS\nPARKING: 8TH\nANNUAL BEERFEST\nFriday, February 5 at 4:00 PM', 'Parking: 8th Annual Beerfest'],
    ['Monday, January 25 at 7:30 PM\nROCK BABY ROCK -\nA DINNER SHOW W/\nLANCE LIPINSKY\n$15 at the door', 'Rock Baby Rock - a Dinner Show w/ Lance Lipinsky'],
    ['THU FEB 4 | 6:30PM\nFORGE: ARTS &\nBUSINESS MANAGEMENT\nWORKSHOP\nToronto City Hall', 'Forge: Arts & Business Management Workshop'],
    ['vy\nA Night of\nLaughter with\nJune Cline!\nSUNDAY\nDECEMBER 20\n4:00 PM', 'A Night of Laughter with June Cline!'],
    ['MILF Life Crisis-\na new comedy about\ndating again!\nThursday, December 10 at 7:00 PM', 'MILF Life Crisis- a new comedy about dating again!'],
    // A short mixed-case title at the top beats a longer line further down.
    ['machBar\nPlenum\nTue 1/19 @ 5pm\nHaus 5 - Seminarraum', 'machBar Plenum'],
    // A subtitle in another case is not the title.
    ['WINTER JAZZ\nNIGHT\nAn evening of smooth sounds\nDec 5 8pm', 'Winter Jazz Night'],
  ];
  for (const [text, title] of multiLine) {
    it(`joins a title set on several lines in ${JSON.stringify(text)}`, () => {
      expect(read(text).title).toBe(title);
    });
  }

  it('does not read a month alone or "3D" as the date', () => {
    expect(iso(read('A Night with\nJune Cline\nSat Dec 5 8pm').start)).toBe('2026-12-06T04:00:00.000Z');
    expect(read('3D-Modelle\nprogrammieren').start).toBeNull();
  });

  it('keeps a known venue that is part of the title line, and skips the line that is the venue', () => {
    const e = read('FINK AT\nTHE LANTERN ROOM\nSat 1/16 @ 9pm\nThe Lantern Room\n$8');
    expect(e.title).toBe('Fink at the Lantern Room');
    expect(e.venueName).toBe('The Lantern Room');
    expect(read('JAZZ AT THE LANTERN ROOM\nDec 5 8pm').title).toBe('Jazz at the Lantern Room');
    // OCR's "Al" for a capital AT ending the line.
    expect(read('ISBELLS Al\nALDER STREET HALL\nDec 5 9pm').title).toBe('Isbells at Alder Street Hall');
    // A known venue's name above the date as part of the title; the venue is the one below the date.
    const f = read('Riverside Park\nCleanup\nSat Dec 5 9am\nAlder Street Hall');
    expect(f.title).toBe('Riverside Park Cleanup');
    expect(f.venueName).toBe('Alder Street Hall');
    expect(read('JAZZ NIGHT\nat The Lantern Room\nDec 5 8pm').title).toBe('Jazz Night');
  });

  it('reads "Free" alone on its line as a free event, and ticket lines as a range', () => {
    const free = extractEvent('Winter Lantern\nWalk\nThis Saturday, 6 PM\nFree\nBring a lantern, or borrow one at the gate', ctx);
    expect([free.title, free.isFree, free.price]).toEqual(['Winter Lantern Walk', true, null]);
    const paid = extractEvent('JAZZ NIGHT\nFRI DEC 12 8PM\nTICKETS $15\n$20 AT THE DOOR', ctx);
    expect([paid.isFree, paid.price, paid.priceMax]).toEqual([false, 15, 20]);
  });

  it('matches a known venue despite OCR errors', () => {
    expect(read('Jazz Night\nThe Lantem R00m\nDec 5 8pm').venueName).toBe('The Lantern Room');
    expect(read('Show\nALDER STREET HAIL\nDec 5').venueName).toBe('Alder Street Hall');
  });

  it('reads an unknown venue after "at" or "Location:", or an address', () => {
    expect(read('JAZZ NIGHT\nat The Blue Door Cafe\nDec 5 8pm').venueName).toBe('The Blue Door Cafe');
    expect(read('JAZZ NIGHT\nLocation: Oak Grange Hall\nDec 5 8pm').venueName).toBe('Oak Grange Hall');
    expect(read('JAZZ NIGHT\n1200 Main Street\nDec 5 8pm').venueName).toBe('1200 Main Street');
  });

  const prices: [string, number | null, number | null, boolean, string | null][] = [
    ['Tickets $12-15', 12, 15, false, null],
    ['$10 ADV / $15 DOOR', 10, 15, false, 'advance'],
    ['FREE ADMISSION', null, null, true, null],
    ['$5 suggested donation', 5, null, false, 'suggested donation'],
    ['No cover', null, null, true, null],
  ];
  for (const [text, price, priceMax, isFree, note] of prices) {
    it(`reads the price of ${JSON.stringify(text)}`, () => {
      const e = read(`SHOW\nDec 5 8pm\n${text}`);
      expect([e.price, e.priceMax, e.isFree, e.priceNote]).toEqual([price, priceMax, isFree, note]);
    });
  }

  it('normalises links to https', () => {
    expect(read('SHOW\nhttp://Example.org/x.').url).toBe('https://example.org/x');
    expect(read('SHOW\nwww.lantern.com/tix').url).toBe('https://www.lantern.com/tix');
    expect(read('SHOW\nmail me at a@b.com').url).toBeNull();
  });

  it('title-cases capitals for display', () => {
    expect(displayTitle('WINTER JAZZ NIGHT AT THE LANTERN')).toBe('Winter Jazz Night at the Lantern');
    expect(displayTitle('iPhone Repair Café')).toBe('iPhone Repair Café');
  });

  it('keeps the letter after an apostrophe small unless it follows a one-letter prefix', () => {
    expect(displayTitle("NEW YEAR'S EVE GALA")).toBe("New Year's Eve Gala");
    expect(displayTitle("KIDS' CRAFT HOUR")).toBe("Kids' Craft Hour");
    expect(displayTitle("DON'T STOP DANCING")).toBe("Don't Stop Dancing");
    expect(displayTitle('NEW YEAR\u2019S EVE')).toBe('New Year\u2019s Eve');
    expect(displayTitle("O'NEILL PUBLIC HOUSE")).toBe("O'Neill Public House");
    expect(displayTitle("D'ARCY'S TRIVIA")).toBe("D'Arcy's Trivia");
    expect(displayTitle("'TIS THE SEASON")).toBe("'Tis the Season");
    expect(displayTitle('ROCK-N-ROLL (LIVE) "QUOTED"')).toBe('Rock-N-Roll (Live) "Quoted"');
  });
});
