import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { htmlToText } from '../../../lib/text.ts';
import { MAX_TEXT_PRICE, priceFromText, type PriceReading } from './price.ts';

const SAMPLES = fileURLToPath(new URL('../connectors/__samples__/', import.meta.url));
const FIX = path.resolve(process.cwd(), '../shared/fixtures');

const read = (text: string) => priceFromText(text);
const paid = (price: number, priceMax: number | null = null, note: string | null = null): PriceReading => ({ price, priceMax, isFree: false, note });
const free = (note: string | null = null): PriceReading => ({ price: null, priceMax: null, isFree: true, note });
const howToPay = (note: string): PriceReading => ({ price: null, priceMax: null, isFree: false, note });
const nothing: PriceReading = { price: null, priceMax: null, isFree: null, note: null };

describe('priceFromText', () => {
  it.each<[string, PriceReading]>([
    ['Resident DJs spin all-vinyl sets. Low-key, dance-if-you-like Sunday evenings; $5 at the door.', paid(5, null, 'at the door')],
    ['$5 cover', paid(5)],
    ['Dance floor cleared at 9; $8 cover; 21+.', paid(8)],
    ['Tickets $12-15', paid(12, 15)],
    ['Tickets $12–$15', paid(12, 15)],
    ['Tickets: $12 - $15 at eventbrite', paid(12, 15)],
    ['$10 suggested donation', paid(10, null, 'suggested donation')],
    ['suggested donation $10', paid(10, null, 'suggested donation')],
    ['Chai and tea provided. $5 suggested.', paid(5, null, 'suggested donation')],
    ['Please donate $10 at the door', paid(10, null, 'donation')],
    ['$10-20 sliding scale', paid(10, 20, 'sliding scale')],
    ['Cushions and chairs provided. $10 sliding scale.', paid(10, null, 'sliding scale')],
    ['Pay what you can: $5-$20', paid(5, 20, 'pay what you can')],
    ['$25 advance / $30 door', paid(25, 30, 'advance')],
    ['Doors 7pm; all ages; tickets $22 advance, $25 day of show.', paid(22, 25, 'advance')],
    ['Tickets $10 adv./$12 door', paid(10, 12, 'advance')],
    ['$8 students, $12 general', paid(8, 12)],
    ['Tickets $25, students $15; pay-what-you-can on opening night.', paid(15, 25)],
    ['$10 before 11pm, $15 after; 21+.', paid(10, 15)],
    ['tickets from $35', paid(35)],
    ['Tickets starting at just $10, the address will be released the day of the event.', paid(10)],
    ['USD 15 per person', paid(15)],
    ['Tickets are 15 dollars', paid(15)],
    ['Tickets: $25 per person plus fees', paid(25)],
    ['Only $10 per attendee (non-refundable). Register now!', paid(10)],
    ['Entry $25 includes a glass and 8 tasting tokens; 21+.', paid(25)],
    ['Doors 7:30; 21+; $18.', paid(18)],
    ['No partner needed. $15; 21+ after 10pm.', paid(15)],
    ['Lunch provided; $12; capped at 30 people.', paid(12)],
    ['This month: a ten-minute talk on winning repeat customers. $12 including breakfast.', paid(12)],
    ['All tools and paper included; $20 (waived for students).', paid(20)],
    ['Jazz Brunch ($15)', paid(15)],
    ['Open mic - $5', paid(5)],
    ['Join us for pancakes. $8 adults, kids under 6 free.', paid(8)],
    ['free for members, $10 for non-members', paid(10)],
    ['Parking: free. Tickets $10', paid(10)],
    ['Date: November 12th, 2014. Doors: 7:00pm Door Price: $8.00 Photo ID required for entry', paid(8, null, 'at the door')],
    ['Price $28.85Bookings (02) 9550 3666', paid(28.85)],
    ['The concert is free for all students, staff & faculty and a suggested $15 donation at the door for the community.', paid(15, null, 'suggested donation')],
    ['Tickets: $0-$20 sliding scale', { price: 0, priceMax: 20, isFree: false, note: 'sliding scale' }],
    ['Members $10, non-members $15', paid(10, 15)],
    ['Kids free, adults $10', paid(10)],
    ['Tickets $15 ($10 students)', paid(10, 15)],
    ['Cover $10 after 9pm, free before', paid(10)],
    ['Cost: $35 per class or $120 for the series', paid(35)],
    ['Advanced Python workshop: $20', paid(20)],
    ['Open Door Studio: $10', paid(10)],
  ])('reads a price: %s', (text, expected) => {
    expect(read(text)).toEqual(expected);
  });

  it.each<[string, PriceReading]>([
    ['free with RSVP', free('with RSVP')],
    ['Free with registration.', free('with registration')],
    ['Free; registration required.', free('with registration')],
    ['no cover', free()],
    ['Free admission. Exhibit on display through December.', free()],
    ['Free admission for all', free()],
    ['This event is FREE and open to the public.', free()],
    ['FREE EVENT Admission is free, but RSVPs are encouraged', free()],
    ['Free entry; $5 tasting plates', free()],
    ['Twelve carts stay open late with $5 tasting plates, a fire pit and a DJ. Free entry; pay per plate.', free()],
    ['Free entry, donations welcome', free()],
    ['Free admission, $5 suggested donation', free('suggested donation')],
    ['Free; bring a bowl if you can.', free()],
    ['Free, all ages; the organisers share the room with everyone who RSVPs.', free()],
    ['Buy your own coffee; otherwise free.', free()],
    ['Cost: FREE', free()],
    ['Free Gallery Night on Alberta Street', free()],
    ['Understanding PTSD [Free Webinar]', free()],
    ['These sessions are free and open to anyone to join!', free()],
    ['a house guitar and keyboard are provided. Free to play and to listen.', free()],
    ['Drei junge Autorinnen lesen aus ihren Debüts. Eintritt frei.', free()],
    ['Der Workshop ist kostenlos und für Einsteigende gedacht.', free()],
    ['$0', free()],
  ])('reads a free event: %s', (text, expected) => {
    expect(read(text)).toEqual(expected);
  });

  it.each<[string, PriceReading]>([
    ['pay what you can', howToPay('pay what you can')],
    ['PWYC', howToPay('pay what you can')],
    ['Admission by donation', howToPay('by donation')],
    ['Sliding scale, no one turned away', howToPay('sliding scale')],
  ])('reads a way to pay without an amount: %s', (text, expected) => {
    expect(read(text)).toEqual(expected);
  });

  it.each([
    'donations welcome',
    '$2 off drinks',
    'We raised $5,000 for the food bank last year',
    '$1 oysters all night',
    'Happy Hour: $1 Oysters',
    'Participants receive a $5 drink voucher to redeem in the café',
    'Proper Food: $3 off all bowls and salads. Illy Cafe: Small Americano for $1.00 (save $2.80)',
    'Bitcoin has grown in value from $1 to $10,000 per 1 bitcoin and will be worth over $50,000+.',
    'Win $500 in prizes',
    '$5k prize pool',
    'raffle tickets $5',
    '$20 deposit required',
    'SNAP matched up to $20.',
    'Soldering stations and parts kits available ($10 kit fee). Beginners welcome.',
    'Music 7-9pm on 12/14, the 2026 season opener',
    'Doors: 2:00pm Show: 3:00-6:00pm October 18th, 2026',
    'Kids under 12 free.',
    'Kids under 2 get in free Everyone over 2 needs a ticket',
    'ELLEVEN45 - LADIES FREE ALL NIGHT',
    'Show up in full Star Trek cosplay costume for free entry! Or use a promo code to save 15%.',
    'Parking: free',
    'This space has free weights, cable machines and treadmills.',
    'gluten-free snacks at a smoke-free event',
    'Kids eat for free',
    'Participating families will receive one free ticket to the Winter Lantern Festival.',
    'No pre-registration required.',
    'Tickets £12, concessions £8.',
    'a 2000 yen entry fee',
    'HOSTED BY "MA$E" RSVP at the door',
    'Bring $5 for snacks',
    '$5 of every ticket goes to the food bank',
    'Come for the $3 tacos',
    '$10 a month for members',
  ])('reads nothing from a text that names no admission price: %s', (text) => {
    expect(read(text)).toEqual(nothing);
  });

  it('reads a price column, where a bare number is a price', () => {
    const field = (t: string) => priceFromText(t, { field: true });
    expect(field('$25.00')).toEqual(paid(25));
    expect(field('25')).toEqual(paid(25));
    expect(field('12,50')).toEqual(paid(12.5));
    expect(field('1,500')).toEqual(paid(1500));
    expect(field('$5 - $10')).toEqual(paid(5, 10));
    expect(field('10-20')).toEqual(paid(10, 20));
    expect(field('$5 suggested donation')).toEqual(paid(5, null, 'suggested donation'));
    expect(field('Adults $10; kids free')).toEqual(paid(10));
    expect(field('Free')).toEqual(free());
    expect(field('Free entry')).toEqual(free());
    expect(field('0')).toEqual(free());
    expect(field('Donation')).toEqual(howToPay('by donation'));
    expect(field('See website')).toEqual(nothing);
  });

  it('reads nothing from empty text', () => {
    expect(read('')).toEqual(nothing);
    expect(priceFromText(null)).toEqual(nothing);
  });
});

/** Properties every reading of a real text must have: amounts in range, read from a currency mark, never a year or a time. */
function expectSensible(reading: PriceReading, text: string, where: string) {
  if (reading.price === null) {
    expect(reading.priceMax, where).toBeNull();
    return;
  }
  expect(reading.isFree, where).toBe(false);
  expect(reading.price, where).toBeGreaterThanOrEqual(0);
  expect(reading.price, where).toBeLessThanOrEqual(MAX_TEXT_PRICE);
  if (reading.priceMax !== null) expect(reading.priceMax, where).toBeGreaterThan(reading.price);
  expect(text, `${where}: a price is only read next to a currency mark`).toMatch(/\$|\busd\b|\bdollars?\b|\bbucks\b/i);
  expect(reading.price >= 1900 && reading.price <= 2100 && Number.isInteger(reading.price), `${where}: ${reading.price} looks like a year`).toBe(false);
}

/** Texts in a JSON document: the values of fields that hold words people write. */
function jsonTexts(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) jsonTexts(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === 'string' && /^(description|summary|html|text|title|name|info|pleaseNote|cost|fee|price|Cost|Details)$/i.test(k)) out.push(htmlToText(v));
      else jsonTexts(v, out);
    }
  }
  return out;
}

/** Texts in a feed: titles, descriptions, summaries and contents, CDATA and HTML undone. */
const xmlTexts = (xml: string) =>
  [...xml.matchAll(/<(title|description|summary|content)[^>]*>([\s\S]*?)<\/\1>/g)].map((m) => htmlToText(htmlToText(m[2]!.replace(/^<!\[CDATA\[|\]\]>$/g, ''))));

/** SUMMARY and DESCRIPTION of a calendar, unfolded and unescaped. */
const icsTexts = (ics: string) =>
  [...ics.replace(/\r?\n[ \t]/g, '').matchAll(/^(?:SUMMARY|DESCRIPTION)[^:\n]*:(.*)$/gm)].map((m) => m[1]!.replace(/\\n/gi, '\n').replace(/\\([,;\\])/g, '$1'));

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));

describe('priceFromText on the recorded connector samples', () => {
  const texts = filesUnder(SAMPLES).flatMap((file) => {
    const body = readFileSync(file, 'utf8');
    const list = file.endsWith('.json') ? jsonTexts(JSON.parse(body)) : file.endsWith('.xml') ? xmlTexts(body) : [];
    return list.map((text) => ({ text, where: path.relative(SAMPLES, file) }));
  });

  it('reads sensible prices from every text of every sample', () => {
    expect(texts.length).toBeGreaterThan(50);
    for (const { text, where } of texts) expectSensible(read(text), text, `${where}: ${text.slice(0, 80)}`);
  });

  it('reads the prices the samples state', () => {
    const byText = (needle: string) => texts.find((t) => t.text.includes(needle))!.text;
    // RSS: "$8 adults, kids under 6 free." and "Free entry."; Eventbrite's "Kids under 12 free." is not the event.
    expect(read(byText('all-you-can-eat pancakes'))).toEqual(paid(8));
    expect(read(byText('egg hunt on the lawn'))).toEqual(free());
    expect(read(byText('Eintritt frei'))).toEqual(free());
    expect(read(byText('Kids under 12 free')).isFree).not.toBe(true);
    // Meetup: "the fee covers materials" names no amount.
    expect(read(byText('the fee covers materials'))).toEqual(nothing);
    // CKAN and Socrata price columns.
    const field = (t: string) => priceFromText(t, { field: true });
    expect(field(byText('$5 suggested donation'))).toEqual(paid(5, null, 'suggested donation'));
    expect(field(byText('Free entry'))).toEqual(free());
    expect(field(byText('$25.00'))).toEqual(paid(25));
  });
});

describe.skipIf(!existsSync(FIX))('priceFromText on real feeds (needs ../shared/fixtures)', () => {
  interface PoolRow {
    id: string;
    title: string;
    description: string | null;
  }
  const pool = (): Map<string, string> =>
    new Map(
      readFileSync(path.join(FIX, 'labelled/pool.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as PoolRow)
        .map((r) => [r.id, `${r.title}. ${r.description ?? ''}`]),
    );

  it('reads sensible prices from 2,500 real event texts (Eventbrite, Meetup, NYC Parks, PredictHQ, Ticketmaster, calendars)', () => {
    const texts = pool();
    expect(texts.size).toBeGreaterThan(2000);
    let priced = 0;
    for (const [id, text] of texts) {
      const reading = read(text);
      expectSensible(reading, text, id);
      if (reading.price !== null) priced += 1;
    }
    // Few organisers write a price in these texts; every one found is checked below.
    expect(priced).toBeGreaterThanOrEqual(8);
  });

  it('reads the prices real organisers wrote, and nothing from amounts that are not admission', () => {
    const texts = pool();
    const at = (id: string) => read(texts.get(id)!);
    expect(at('predicthq:10')).toEqual(paid(8, null, 'at the door')); // "Doors: 7:00pm Door Price: $8.00 Photo ID required"
    expect(at('predicthq:0')).toEqual(paid(28.85)); // "Price $28.85Bookings (02) 9550 3666"
    expect(at('industrycity_ics_2026:19')).toEqual(paid(25)); // "Show: 3:00-6:00pm Tickets: $25 per person plus fees"
    expect(at('industrycity_ics_2026:18')).toEqual(paid(15));
    expect(at('trumba_spscc:2')).toEqual(paid(15, null, 'suggested donation')); // "free for all SPSCC students ... a suggested $15 donation at the door"
    expect(at('eventbrite_dest_2023:24')).toEqual(paid(10)); // "Only $10 per attendee (non-refundable)"
    expect(at('eventbrite_v3_2017_18:1')).toEqual(paid(10)); // "Tickets starting at just $10"
    expect(at('eventbrite_v3_2017_18:5')).toEqual(nothing); // "from $1 to $10,000 per 1 bitcoin"
    expect(at('eventbrite_v3_2017_18:8')).toEqual(nothing); // "$3 off all bowls", "for $1.00 (save $2.80)"
    expect(at('nycparks_rss_2021:234')).toEqual(nothing); // "a $5 drink voucher"
    expect(at('nycparks_rss_2021:1542')).toEqual(free()); // "Free admission."
    expect(at('eventbrite_v3_2017_18:19')).toEqual(free()); // "No Cover, Stiff Drinks and Solid Beats"
    expect(at('industrycity_ics_2026:3')).toEqual(free()); // "FREE EVENT Admission is free, but RSVPs are encouraged"
    expect(at('ticketmaster_2016:16')).toEqual(nothing); // "Kids under 2 get in free Everyone over 2 needs a ticket"
    expect(at('industrycity_ics_2026:1')).toEqual(nothing); // "in full Star Trek Cosplay costume for free entry!"
    expect(at('eventbrite_v3_2017_18:20')).toEqual(nothing); // "LADIES FREE ALL NIGHT"
    expect(at('nycparks_rss_2021:704')).toEqual(nothing); // "FREE when they reserve Skate + Santa Tickets"
    expect(at('ical4j__japan_west:34')).toEqual(nothing); // "a 2000 yen entry fee": not dollars
  });

  it('reads sensible prices from the calendars, API responses and pages', () => {
    const dirs = ['ics', 'api', 'jsonld'].map((d) => path.join(FIX, d)).filter((d) => existsSync(d));
    let n = 0;
    for (const file of dirs.flatMap(filesUnder)) {
      const body = readFileSync(file, 'utf8');
      const texts = file.endsWith('.ics') ? icsTexts(body) : file.endsWith('.json') ? jsonTexts(JSON.parse(body)) : [];
      for (const text of texts) {
        n += 1;
        expectSensible(read(text), text, `${path.basename(file)}: ${text.slice(0, 80)}`);
      }
    }
    expect(n).toBeGreaterThan(1000);
  });
});
