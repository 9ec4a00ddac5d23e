// The built-in story generator (decisions section 6: AI features work offline). A small grammar:
// each story is a sequence of slots, each slot a list of phrasings that apply only when the facts
// they need exist; a PRNG seeded by (seed, place, category) picks among them and among inline
// alternatives. Every fact it states comes from the place: its position in the city
// configuration, and the past events Townbeat recorded there (titles, dates, venues, categories).
// Those events are Townbeat's record, not the place's past: the text says what Townbeat has
// recorded and since when, never that a place's history begins or ends with them.
import type { CityConfig } from '../../../contract/city.ts';
import type { GeneratedCategory } from '../../../contract/stories.ts';
import { haversineM } from '../../lib/geo.ts';

/** One past event held at a place. */
export interface PlaceEvent {
  title: string;
  start: Date;
  category: string;
  venue: string;
}

/** A place a story can be about: a neighbourhood of the city, a venue of past events or a quest node. */
export interface Place {
  name: string;
  kind: 'neighbourhood' | 'venue' | 'quest_node';
  /** The neighbourhood it lies in (a neighbourhood's own name for a neighbourhood). */
  neighbourhood: string | null;
  lat: number | null;
  lng: number | null;
  /** Past events held there, oldest first. */
  events: PlaceEvent[];
}

export interface GeneratedStory {
  title: string;
  content: string;
}

// --- Seeded choice --------------------------------------------------------------------------------

/** FNV-1a of a string: the seed of a story's choices. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: small, fast and the same on every platform. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;
const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;

// --- Facts ------------------------------------------------------------------------------------------

const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty'];
const words = (n: number) => NUMBER_WORDS[n] ?? String(n);
const COMPASS = ['north', 'north-east', 'east', 'south-east', 'south', 'south-west', 'west', 'north-west'];

function bearingDeg(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = Math.PI / 180;
  const y = Math.sin((lng2 - lng1) * r) * Math.cos(lat2 * r);
  const x = Math.cos(lat1 * r) * Math.sin(lat2 * r) - Math.sin(lat1 * r) * Math.cos(lat2 * r) * Math.cos((lng2 - lng1) * r);
  return ((Math.atan2(y, x) * 180) / Math.PI + 360) % 360;
}

function list(xs: readonly string[]): string {
  if (xs.length <= 1) return xs[0] ?? '';
  return `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;
}

function top<T extends string | number>(xs: readonly T[]): { value: T; count: number } | null {
  const counts = new Map<T, number>();
  for (const x of xs) counts.set(x, (counts.get(x) ?? 0) + 1);
  let best: { value: T; count: number } | null = null;
  // Ties go to the first seen, so the answer does not depend on Map internals.
  for (const [value, count] of counts) if (!best || count > best.count) best = { value, count };
  return best;
}

function partOfDay(hour: number): string {
  if (hour < 5) return 'small hours';
  if (hour < 12) return 'morning';
  if (hour < 17) return 'afternoon';
  if (hour < 21) return 'evening';
  return 'late night';
}

/** Everything a template may say about a place, as strings; absent facts are absent keys. */
export type Facts = Record<string, string>;

/** The facts of a place, derived from the city configuration and its past events. */
export function factsOf(place: Place, city: CityConfig): Facts {
  const f: Facts = { place: place.name, city: city.name, area: place.neighbourhood ?? place.name };
  const tz = city.timeZone;
  const dateFmt = new Intl.DateTimeFormat('en-US', { timeZone: tz, month: 'long', day: 'numeric', year: 'numeric' });
  const monthFmt = new Intl.DateTimeFormat('en-US', { timeZone: tz, month: 'long', year: 'numeric' });
  const yearFmt = new Intl.DateTimeFormat('en-US', { timeZone: tz, year: 'numeric' });
  const dayFmt = new Intl.DateTimeFormat('en-US', { timeZone: tz, weekday: 'long' });
  const hourFmt = new Intl.DateTimeFormat('en-US', { timeZone: tz, hour: 'numeric', hourCycle: 'h23' });

  if (place.lat !== null && place.lng !== null) {
    const unit = city.distanceUnit;
    const metres = haversineM(city.center.lat, city.center.lng, place.lat, place.lng);
    const d = unit === 'mi' ? metres / 1609.344 : metres / 1000;
    if (d >= 0.3) {
      f.distance = `${d.toFixed(1)} ${unit === 'mi' ? 'miles' : 'kilometres'}`;
      f.direction = COMPASS[Math.round(bearingDeg(city.center.lat, city.center.lng, place.lat, place.lng) / 45) % 8]!;
    }
    const near = city.neighbourhoods
      .filter((n) => n.name.toLowerCase() !== place.name.toLowerCase() && n.name.toLowerCase() !== (place.neighbourhood ?? '').toLowerCase())
      .map((n) => ({ name: n.name, m: haversineM(place.lat!, place.lng!, n.lat, n.lng) }))
      .sort((a, b) => a.m - b.m);
    if (near[0]) f.nearest = near[0].name;
    if (near[1]) f.neighbours = list([near[0]!.name, near[1].name]);
  }

  const ev = [...place.events].sort((a, b) => a.start.getTime() - b.start.getTime());
  if (ev.length === 0) return f;
  const first = ev[0]!;
  const last = ev[ev.length - 1]!;
  f.eventCount = String(ev.length);
  f.eventCountWords = words(ev.length);
  f.firstTitle = first.title;
  f.firstDate = dateFmt.format(first.start);
  f.firstYear = yearFmt.format(first.start);
  f.firstCategory = first.category.toLowerCase();
  if (first.venue) f.firstVenue = first.venue;
  if (ev.length > 1) {
    f.lastTitle = last.title;
    f.lastDate = dateFmt.format(last.start);
    f.lastYear = yearFmt.format(last.start);
    f.lastCategory = last.category.toLowerCase();
  }
  const cat = top(ev.map((e) => e.category))!;
  f.topCategory = cat.value.toLowerCase();
  f.topCategoryCount = String(cat.count);
  f.topCategoryCountWords = words(cat.count);
  const others = [...new Set(ev.map((e) => e.category.toLowerCase()))].filter((c) => c !== f.topCategory);
  if (others.length > 0) f.otherCategories = list(others);
  const venues = ev.map((e) => e.venue).filter(Boolean);
  const distinctVenues = new Set(venues.map((v) => v.toLowerCase()));
  if (distinctVenues.size > 1) {
    const v = top(venues)!;
    f.topVenue = v.value;
    f.topVenueCount = String(v.count);
    f.topVenueCountWords = words(v.count);
    f.venueCountWords = words(distinctVenues.size);
  } else if (venues[0]) f.onlyVenue = venues[0];
  if (ev.length >= 2) {
    const day = top(ev.map((e) => dayFmt.format(e.start)))!;
    if (day.count >= 2) {
      f.topWeekday = day.value;
      f.topWeekdayCount = String(day.count);
      f.topWeekdayCountWords = words(day.count);
    }
    const hours = top(ev.map((e) => partOfDay(Number(hourFmt.format(e.start)))))!;
    if (hours.count >= 2) {
      f.topPartOfDay = hours.value;
      f.topPartOfDayCountWords = words(hours.count);
    }
    const month = top(ev.map((e) => monthFmt.format(e.start)))!;
    if (month.count >= 2) {
      f.busiestMonth = month.value;
      f.busiestMonthCountWords = words(month.count);
    }
    let gap = { days: 0, from: first, to: first };
    for (let i = 1; i < ev.length; i++) {
      const days = Math.floor((ev[i]!.start.getTime() - ev[i - 1]!.start.getTime()) / 86_400_000);
      if (days > gap.days) gap = { days, from: ev[i - 1]!, to: ev[i]! };
    }
    if (gap.days >= 7) {
      f.gapDays = String(gap.days);
      f.gapFrom = dateFmt.format(gap.from.start);
      f.gapTo = dateFmt.format(gap.to.start);
      f.gapAfterTitle = gap.from.title;
      f.gapBeforeTitle = gap.to.title;
    }
    if (first.category === last.category) f.sameBookends = 'yes';
  }
  return f;
}

// --- Motifs for legends ------------------------------------------------------------------------------

interface Motif {
  object: string;
  figure: string;
  sign: string;
  titleObject: string;
}

/** The legend's stuff, chosen by the place's strongest category (or by the seed when it has none). */
const MOTIFS: Record<string, Motif[]> = {
  music: [
    { object: 'a fiddle with no strings', figure: 'the Night Fiddler', sign: 'a low hum under the floorboards', titleObject: 'Stringless Fiddle' },
    { object: 'a drum that answers when it is knocked', figure: 'the Drummer in Grey', sign: 'a heartbeat rhythm in the gutters', titleObject: 'Answering Drum' },
  ],
  food: [
    { object: 'a cast-iron pot that is never empty', figure: 'the Lantern Cook', sign: 'the smell of woodsmoke and cardamom', titleObject: 'Bottomless Pot' },
    { object: 'a sourdough starter older than the streets', figure: 'the Baker Who Never Sleeps', sign: 'warm bread on a cold doorstep', titleObject: 'Oldest Starter' },
  ],
  arts: [
    { object: 'a brush that paints in colours no shop sells', figure: 'the Painter of Small Doors', sign: 'fresh paint on a wall no one touched', titleObject: 'Unsold Colours' },
    { object: 'a sketchbook that draws tomorrow', figure: 'the Sketcher at the Window', sign: 'chalk drawings that appear before dawn', titleObject: 'Tomorrow Sketchbook' },
  ],
  sports: [
    { object: 'a ball that always rolls toward the river', figure: 'the Runner in the Fog', sign: 'footsteps keeping pace with yours', titleObject: 'Rolling Ball' },
  ],
  business: [
    { object: 'a ledger with one page always blank', figure: 'the Night Clerk', sign: 'a shop bell ringing over a door that is not there', titleObject: 'Blank Ledger' },
  ],
  tech: [
    { object: 'a radio tuned to a station that does not exist', figure: 'the Tinkerer', sign: 'streetlights flickering in Morse code', titleObject: 'Phantom Station' },
  ],
  wellness: [
    { object: 'a spring under the pavement', figure: 'the Quiet Gardener', sign: 'moss growing in a perfect circle', titleObject: 'Hidden Spring' },
  ],
  other: [
    { object: 'a brass lantern that lights itself', figure: 'the Lamplighter', sign: 'a lantern glow in an empty window', titleObject: 'Brass Lantern' },
    { object: 'a key that fits no lock anyone has found', figure: 'the Keeper of Keys', sign: 'the click of a lock turning in an empty street', titleObject: 'Lost Key' },
  ],
};

// --- The grammar ------------------------------------------------------------------------------------

/** One phrasing: a template with `{fact}` slots and `[a|b]` alternatives, used only when `needs` are known. */
interface Phrase {
  t: string;
  needs?: string[];
  /** Used only when these facts are absent. */
  without?: string[];
}
type Slot = Phrase[];

const p = (t: string, needs: string[] = [], without: string[] = []): Phrase => ({ t, needs, without });

function applies(ph: Phrase, f: Facts): boolean {
  return (ph.needs ?? []).every((k) => f[k] !== undefined) && (ph.without ?? []).every((k) => f[k] === undefined);
}

/** Expands `[a|b]` alternatives (innermost first) and `{fact}` slots. */
function expand(t: string, f: Facts, rng: Rng): string {
  let s = t;
  for (let guard = 0; guard < 50 && /\[[^[\]]*\]/.test(s); guard++) s = s.replace(/\[([^[\]]*)\]/, (_, alts: string) => pick(rng, alts.split('|')));
  return s.replace(/\{(\w+)\}/g, (_, k: string) => {
    const v = f[k];
    if (v === undefined) throw new Error(`story template uses the unknown fact ${k}`);
    return v;
  });
}

/** A slot's text: one applicable phrasing, or nothing when none applies. */
function fill(slot: Slot, f: Facts, rng: Rng): string | null {
  const ok = slot.filter((ph) => applies(ph, f));
  if (ok.length === 0) return null;
  return expand(pick(rng, ok).t, f, rng);
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const article = (word: string) => (/^[aeiou]/i.test(word) ? 'an' : 'a');

const WHERE: Slot = [
  p('{place} lies {distance} {direction} of {city}’s centre, [between|bordered by|a short walk from] {neighbours}.', ['distance', 'neighbours'], ['onlyVenue', 'topVenue']),
  p('[On the map|On the city’s map], {place} sits {distance} {direction} of downtown {city}, [close to|next to|near] {neighbours}.', ['distance', 'neighbours']),
  p('{place} is [in the heart of|right at the centre of] {city}, [close to|a few blocks from] {neighbours}.', ['neighbours'], ['distance']),
  p('{place} is one of {city}’s places[, in {area}|].', [], ['neighbours']),
];

const HISTORY: Slot[] = [
  WHERE,
  [
    p('The first gathering Townbeat recorded here was “{firstTitle}” on {firstDate}, {firstCategoryArticle} {firstCategory} event[ at {firstVenue}|].', ['firstVenue']),
    p('Townbeat’s [record|account] of it [starts|opens] on {firstDate}, when {firstVenue} hosted “{firstTitle}”.', ['firstVenue']),
    p('Townbeat has been recording gatherings here since {firstDate}; the first was “{firstTitle}”, {firstCategoryArticle} {firstCategory} event.'),
  ].map((ph) => ({ ...ph, needs: [...(ph.needs ?? []), 'firstTitle'] })),
  [
    p('[Since then|From that day on], Townbeat has recorded {eventCountWords} events in all here[, across {venueCountWords} venues|].', ['lastTitle', 'venueCountWords']),
    p('[Since then|From that day on], Townbeat has recorded {eventCountWords} events in all here.', ['lastTitle']),
    p('[So far|To date] it is the only one Townbeat has recorded here that has already taken place.', ['firstTitle'], ['lastTitle']),
  ],
  [
    p('{topCategoryCap} has been the [strongest|most frequent|steadiest] note of that record, with {topCategoryCountWords} of those events; {otherCategories} [fill out|round out|make up] the rest.', ['otherCategories']),
    p('Every one of them has been {topCategory}.', ['lastTitle'], ['otherCategories']),
  ],
  [
    p('{topVenue} has hosted the most of them, {topVenueCountWords} in all.', ['topVenue']),
    p('All of them took place at {onlyVenue}.', ['onlyVenue', 'lastTitle']),
  ],
  [
    p('Its [busiest|favourite] day is {topWeekday}[, with {topWeekdayCountWords} events|], and most gatherings start in the {topPartOfDay}.', ['topWeekday', 'topPartOfDay']),
    p('{topWeekday} is its [busiest|favourite] day, with {topWeekdayCountWords} events.', ['topWeekday'], ['topPartOfDay']),
    p('Most gatherings here start in the {topPartOfDay}.', ['topPartOfDay'], ['topWeekday']),
  ],
  [p('The busiest stretch so far was {busiestMonth}, with {busiestMonthCountWords} events.', ['busiestMonth'])],
  [
    p('The latest entry is “{lastTitle}” on {lastDate}.', ['lastTitle']),
    p('The most recent chapter was written on {lastDate}, with “{lastTitle}”.', ['lastTitle']),
  ],
  [
    p('Townbeat has not yet recorded a gathering here: its page in Townbeat [is still blank|has yet to be written], waiting for the first flyer, feed or neighbour to add to it.', [], ['firstTitle']),
  ],
];

const LEGEND: Slot[] = [
  [
    p('[They say|People say|The story goes] that {place} keeps {object}.'),
    p('[Old-timers in {neighbours}|Neighbours in {neighbours}] will tell you that {place} keeps {object}.', ['neighbours']),
    p('If you ask around {area}, [someone|sooner or later someone] will tell you about {object}.'),
  ],
  [
    p('[The story goes|Some say] that on {firstDate}, the day of “{firstTitle}”[ at {firstVenue}|], [people|someone in the crowd] noticed {sign}.', ['firstTitle', 'firstVenue']),
    p('[The story goes|Some say] that on {firstDate}, the day of “{firstTitle}”, [people|someone in the crowd] noticed {sign}.', ['firstTitle'], ['firstVenue']),
    p('{figureCap} is said to walk the {distance} between {place} and {city}’s centre [every|each] [first frost|longest night|new moon], heading home toward {nearest}.', ['distance', 'nearest'], ['firstTitle']),
    p('{figureCap} is said to [keep|guard] it, and [on quiet nights|when the streets are empty] you may notice {sign}.', [], ['firstTitle']),
  ],
  [
    p('Since then, at every {topCategory} gathering[ here|] — and Townbeat has recorded {topCategoryCountWords} — someone [swears|claims] to have seen {figure}.', ['topCategoryCountWords', 'lastTitle']),
    p('[Regulars|Those who were there] say {figure} came back for “{lastTitle}” on {lastDate}[, and stayed until the last guest left|, standing just outside the light].', ['lastTitle']),
  ],
  [
    p('{figureCap} is said to favour {topWeekday}s, which may be why {topWeekday} is still the busiest day here.', ['topWeekday']),
    p('Regulars at {topVenue} leave [the last chair|a cup|a light on] for {figure} [by the door|near the stage|at the back].', ['topVenue']),
    p('Regulars at {onlyVenue} leave [the last chair|a cup|a light on] for {figure} [by the door|near the stage].', ['onlyVenue']),
  ],
  [
    p('[Nobody|No one] has proven it. But [if you visit|next time you are in] {place}[ on a {topWeekday}|] and notice {sign}, [you will know|now you know] who is [near|close by].', ['topWeekday']),
    p('[Nobody|No one] has proven it. But [if you visit|next time you are in] {place} and notice {sign}, [you will know|now you know] who is [near|close by].', [], ['topWeekday']),
  ],
];

const MYSTERY: Slot[] = [
  [p('[Here is a puzzle|Here is something odd|Something does not add up] about {place}.'), p('{place} has a [small|quiet] mystery[ that no one in {neighbours} can explain|].', ['neighbours'])],
  [
    p('Of the {eventCountWords} past events on record here, {topWeekdayCountWords} fell on a {topWeekday}. [Nobody planned it that way|No organiser admits to planning it] — or so they say.', ['topWeekday']),
    p('Townbeat has no gathering in {place} on record that has already taken place. [Why a place|How a place] {distance} from downtown, [between|right beside] {neighbours}, has not yet reached Townbeat’s records is anyone’s guess.', ['neighbours', 'distance'], ['firstTitle']),
    p('Townbeat has no gathering in {place} on record that has already taken place, right in the middle of {city}.', [], ['firstTitle', 'distance']),
    p('Of the {eventCountWords} past events Townbeat recorded here, no two fell on the same day of the week[, as if each one waited its turn|, which is stranger than it sounds].', ['lastTitle'], ['topWeekday']),
    p('Townbeat has exactly one record of a gathering here that has already taken place: “{firstTitle}” on {firstDate}. [Whatever happened here before it, Townbeat did not see.|What came before it is not in Townbeat’s records.]', ['firstTitle'], ['lastTitle']),
  ],
  [
    p('Then there is the silence: between {gapFrom} and {gapTo}, {gapDays} days passed with nothing recorded at all, from “{gapAfterTitle}” to “{gapBeforeTitle}”.', ['gapDays']),
    p('{topPartOfDayCountWordsCap} of the gatherings Townbeat recorded here began in the {topPartOfDay}, [as if the place itself keeps a clock|as if something here keeps time].', ['topPartOfDay']),
  ],
  [
    p('And the first event Townbeat recorded here was {firstCategory}, as was the latest — “{firstTitle}” and “{lastTitle}”, {firstDate} and {lastDate}.', ['sameBookends']),
    p('Townbeat’s first record here, “{firstTitle}” on {firstDate}, [reads like any other|looks ordinary enough]; the {topCategory} events recorded after it did not [stop|let up].', ['firstTitle', 'otherCategories']),
  ],
  [p('[Know why|Have an explanation|Remember something the records missed]? Share your story.')],
];

const TITLES: Record<GeneratedCategory, Slot> = {
  legend: [p('The Legend of the {titleObject}'), p('{figureCap} of {place}'), p('{place} and the {titleObject}')],
  history: [p('A Short History of {place}'), p('{place}: [A Recent History|The Record So Far]'), p('{place} in Townbeat’s Records', ['firstTitle'])],
  mystery: [p('The {topWeekday} Mystery of {place}', ['topWeekday']), p('The [Quiet|Silent] Mystery of {place}', [], ['firstTitle']), p('What Happened in {place}?'), p('The {gapDays} Silent Days of {place}', ['gapDays'])],
};

const GRAMMAR: Record<GeneratedCategory, Slot[]> = { history: HISTORY, legend: LEGEND, mystery: MYSTERY };

/**
 * Writes a legend, history or mystery of a place from its facts. The same place, category and
 * seed always give the same story; another seed or another place gives another.
 */
export function generateStory(place: Place, city: CityConfig, category: GeneratedCategory, seed: string | number): GeneratedStory {
  const rng = prng(hash(`${seed}|${place.kind}|${place.name}|${category}`));
  const f = factsOf(place, city);
  if (f.firstCategory) f.firstCategoryArticle = article(f.firstCategory);
  if (f.topCategory) f.topCategoryCap = capital(f.topCategory);
  if (f.topPartOfDayCountWords) f.topPartOfDayCountWordsCap = capital(f.topPartOfDayCountWords);
  const motifs = MOTIFS[f.topCategory ?? ''] ?? (f.topCategory ? MOTIFS.other! : Object.values(MOTIFS).flat());
  const motif = pick(rng, motifs);
  Object.assign(f, { object: motif.object, figure: motif.figure, figureCap: capital(motif.figure), sign: motif.sign, titleObject: motif.titleObject });

  const sentences = GRAMMAR[category].map((slot) => fill(slot, f, rng)).filter((s): s is string => s !== null);
  // Two or three sentences a paragraph, split where the seed says.
  const paragraphs: string[] = [];
  let current: string[] = [];
  for (const s of sentences) {
    current.push(capital(s));
    if (current.length >= 3 || (current.length === 2 && rng() < 0.5)) {
      paragraphs.push(current.join(' '));
      current = [];
    }
  }
  if (current.length) paragraphs.push(current.join(' '));
  const title = capital(fill(TITLES[category], f, rng) ?? place.name);
  return { title, content: paragraphs.join('\n\n') };
}

/** The facts of a place as plain data, for a language model's prompt. */
export function placeBrief(place: Place, city: CityConfig): Record<string, unknown> {
  const tz = city.timeZone;
  const fmt = new Intl.DateTimeFormat('en-US', { timeZone: tz, month: 'long', day: 'numeric', year: 'numeric' });
  const f = factsOf(place, city);
  return {
    place: place.name,
    kind: place.kind,
    neighbourhood: place.neighbourhood,
    city: city.name,
    ...(f.distance ? { fromCityCentre: `${f.distance} ${f.direction}` } : {}),
    ...(f.neighbours ? { nearby: f.neighbours } : {}),
    pastEvents: place.events.slice(-20).map((e) => ({ title: e.title, date: fmt.format(e.start), category: e.category, venue: e.venue || null })),
    totalPastEvents: place.events.length,
  };
}
