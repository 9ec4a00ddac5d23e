import { haversineM } from '../../../lib/geo.ts';

// Deduplication decides whether two records of different sources describe one event. A merge
// needs agreeing evidence on all three counts: the start (within 30 minutes), the title (the same
// words once wording is set aside, and nothing that tells events apart: a number, a date, a
// differing word such as Spanish / French or U10 / U12), and the place (the same venue, precise
// coordinates within 150 m, or the same address) or, where one place is unknown, the same page of
// that one event (a site relisting an event links to its page). Where the evidence is thin the pair is only
// proposed to admins ('possible'); both events stay listed until someone decides. Two items of one
// source are never compared here: a source knows its own events (see ingestion's matching step).

export const START_WINDOW_MS = 30 * 60 * 1000;
/** A title that only contains the other merges when the starts are this close. */
const CONTAINED_WINDOW_MS = 15 * 60 * 1000;
const NEARBY_M = 150;

const STOP = new Set(['the', 'a', 'an', 'and', 'of', 'at', 'in', 'on', 'for', 'with', 'w', 'to', 'by', 'from', 'de', 'la', 'le', 'der', 'die', 'das', 'und', 'vs', 's', 'our', 'your', 'all']);
/** Words that say what kind of listing it is, not which event: two sites word them differently. */
const GENERIC = new Set([
  'night', 'evening', 'morning', 'afternoon', 'day', 'session', 'class', 'lesson', 'meetup', 'meeting', 'event', 'show', 'party',
  'weekly', 'monthly', 'present', 'live', 'series', 'edition', 'official', 'annual', 'screening', 'gathering', 'hour', 'program',
  'special', 'featuring', 'feat', 'ft', 'presented', 'hosted', 'free', 'new', 'pdx', 'join', 'us', 'celebration', 'level',
  // The start already says which day it is.
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'weekend', 'tonight', 'today',
]);
/** Words that name no particular place: "Main Room" and "Back Room" share only these. */
const VENUE_GENERIC = new Set([
  'venue', 'room', 'hall', 'stage', 'main', 'back', 'front', 'upstairs', 'downstairs', 'center', 'centre', 'theater', 'theatre',
  'park', 'studio', 'lounge', 'bar', 'club', 'cafe', 'pub', 'building', 'space', 'gallery', 'church', 'library', 'branch',
  'community', 'house', 'patio', 'garden', 'plaza', 'square', 'street', 'st', 'avenue', 'ave', 'road', 'rd', 'north', 'south',
  'east', 'west', 'n', 'se', 'sw', 'ne', 'nw', 'or', 'oregon', 'usa', 'us',
]);
const SYNONYMS: Record<string, string> = { kid: 'child', children: 'child', childrens: 'child', youth: 'child', teen: 'teen', doubleheader: 'doubleheader' };
const ORDINAL_WORDS: Record<string, string> = { first: '1', second: '2', third: '3', fourth: '4', fifth: '5', sixth: '6', seventh: '7', eighth: '8', ninth: '9', tenth: '10' };
const ROMAN: Record<string, string> = { ii: '2', iii: '3', iv: '4', vi: '6', vii: '7', viii: '8', ix: '9', xi: '11', xii: '12' };
/** One-letter roman numerals, read as numbers only after a word that numbers parts ("Part I", not "I Love Lucy"). */
const ROMAN_LETTERS: Record<string, string> = { i: '1', v: '5', x: '10' };
const NUMBERING = new Set(['part', 'pt', 'vol', 'volume', 'chapter', 'ch', 'act', 'book', 'episode', 'ep', 'season', 'round', 'no', 'number', 'level', 'week', 'day', 'game']);
/**
 * Words that say which of several events it is, by whom it is for or in which language: one title
 * with such a word that the other lacks ("Salsa Class - Advanced" / "Salsa Class", "Trivia Night -
 * Kids Edition" / "Trivia Night") may be another event at the same place and hour, so it is
 * proposed to admins, never merged on its own. (Stemmed as titles are: see `variantWord`.)
 */
const VARIANT_WORDS = [
  'beginner', 'beginners', 'intermediate', 'advanced', 'novice', 'intro', 'introductory', 'basics', 'expert', 'experienced',
  'kid', 'kids', 'child', 'children', 'youth', 'teen', 'teens', 'tween', 'tweens', 'adult', 'adults', 'senior', 'seniors', 'elder', 'elders',
  'family', 'families', 'toddler', 'toddlers', 'baby', 'babies', 'infant', 'infants', 'preschool', 'preschooler', 'preschoolers', 'student', 'students',
  'girl', 'girls', 'boy', 'boys', 'women', 'woman', 'womens', 'men', 'man', 'mens', 'ladies', 'lady', 'junior', 'juniors', 'jr', 'varsity', 'jv', 'coed', 'masters',
  'soprano', 'sopranos', 'alto', 'altos', 'tenor', 'tenors',
  'spanish', 'french', 'german', 'italian', 'japanese', 'chinese', 'mandarin', 'cantonese', 'korean', 'russian', 'arabic', 'portuguese',
  'vietnamese', 'english', 'esl', 'asl', 'hindi', 'tagalog', 'ukrainian', 'polish', 'bilingual',
];

/** Lower case, accents off, words of letters and digits. */
function words(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/'s\b/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .split(' ')
    .filter(Boolean);
}

/** A small English stemmer: enough for "Lessons" / "Lesson", "Dancing" / "Dance", "Sundays" / "Sunday". */
export function stem(w: string): string {
  if (SYNONYMS[w]) return SYNONYMS[w];
  if (w.length <= 3 || /\d/.test(w)) return w;
  let s = w;
  if (/(ss|sh|ch|x)es$/.test(s)) s = s.slice(0, -2);
  else if (s.endsWith('ies') && s.length > 4) s = `${s.slice(0, -3)}y`;
  else if (s.endsWith('s') && !s.endsWith('ss') && !s.endsWith('us') && !s.endsWith('is')) s = s.slice(0, -1);
  if (s.endsWith('ing') && s.length > 5) s = s.slice(0, -3);
  if (s.endsWith('e') && s.length > 4) s = s.slice(0, -1);
  return SYNONYMS[s] ?? s;
}

/** A title as compared: its content words (stemmed), and the numbers in it. */
interface TitleParts {
  /** Every stemmed word but stop words and numbers. */
  all: readonly string[];
  /** The words that say which event it is: `all` without the generic ones. */
  content: ReadonlySet<string>;
  /** Numbers, ordinals, roman numerals and identifiers with digits ("u10", "2b"). */
  numbers: ReadonlySet<string>;
  joined: string;
}

const CACHE_LIMIT = 100_000;
const titleCache = new Map<string, TitleParts>();
function titleParts(title: string): TitleParts {
  const hit = titleCache.get(title);
  if (hit) return hit;
  const all: string[] = [];
  const numbers = new Set<string>();
  const ws = words(title);
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i]!;
    if (STOP.has(w)) continue;
    // Times of day ("7pm", "7:30") repeat the start, which is compared on its own.
    if (/^\d{1,2}(am|pm)$/.test(w) || ((w === 'am' || w === 'pm') && i > 0 && /^\d+$/.test(ws[i - 1]!))) continue;
    if (/^\d+(st|nd|rd|th)?$/.test(w)) {
      numbers.add(String(Number.parseInt(w, 10)));
      continue;
    }
    if (/\d/.test(w)) {
      numbers.add(w);
      continue;
    }
    if (ORDINAL_WORDS[w]) {
      numbers.add(ORDINAL_WORDS[w]);
      continue;
    }
    if (ROMAN[w] && ws.length > 1) {
      numbers.add(ROMAN[w]);
      continue;
    }
    if (ROMAN_LETTERS[w] && i > 0 && NUMBERING.has(ws[i - 1]!)) {
      numbers.add(ROMAN_LETTERS[w]);
      continue;
    }
    all.push(stem(w));
  }
  const p: TitleParts = { all, content: new Set(all.filter((w) => !GENERIC.has(w))), numbers, joined: all.join(' ') };
  if (titleCache.size >= CACHE_LIMIT) titleCache.clear();
  titleCache.set(title, p);
  return p;
}

/** Optimal-string-alignment distance (edits and adjacent swaps), from three rows: a typo or another word. */
function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let prev2 = new Array<number>(b.length + 1).fill(0);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  let cur = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > cap) return cap + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[b.length]!;
}

const isTypoOf = (a: string, b: string) => {
  const n = Math.min(a.length, b.length);
  // Typos keep a word's length and at least one of its ends.
  if (n < 4 || Math.abs(a.length - b.length) > 2 || (a[0] !== b[0] && a[a.length - 1] !== b[b.length - 1])) return false;
  return editDistance(a, b, 2) <= (n >= 8 ? 2 : 1);
};

/**
 * Words left on each side once the shared ones, typos of each other and split compounds
 * ("Bluegrass" / "Blue Grass") are paired off.
 */
function unpaired(a: ReadonlySet<string>, b: ReadonlySet<string>, aAll: readonly string[], bAll: readonly string[]) {
  const onlyA = [...a].filter((w) => !b.has(w));
  const onlyB = [...b].filter((w) => !a.has(w));
  const drop = (list: string[], w: string) => list.splice(list.indexOf(w), 1);
  for (const x of [...onlyA]) {
    const y = onlyB.find((c) => isTypoOf(x, c));
    if (y) {
      drop(onlyA, x);
      drop(onlyB, y);
    }
  }
  const compound = (side: string[], otherAll: readonly string[], other: string[]) => {
    for (const x of [...side]) {
      for (let i = 0; i + 1 < otherAll.length; i++) {
        if (otherAll[i]! + otherAll[i + 1]! === x || stem(otherAll[i]! + otherAll[i + 1]!) === x) {
          drop(side, x);
          for (const part of [otherAll[i]!, otherAll[i + 1]!]) if (other.includes(part)) drop(other, part);
          break;
        }
      }
    }
  };
  compound(onlyA, bAll, onlyB);
  compound(onlyB, aAll, onlyA);
  return { onlyA, onlyB };
}

export type TitleRelation = 'equal' | 'contains' | 'variant' | 'weak' | 'conflict';

/**
 * How two titles relate: 'equal' (same words once wording is set aside), 'contains' (one says
 * more: a performer, a venue), 'variant' (one says more that may name another event: a level, an
 * audience, a language), 'weak' (too little in common to say), 'conflict' (something tells them
 * apart: a different number, or each has a word the other lacks).
 */
export function titleRelation(a: string, b: string, ctx: { startYears?: number[]; isPlaceWord?: (w: string) => boolean } = {}): TitleRelation {
  const pa = titleParts(a);
  const pb = titleParts(b);
  if (pa.joined === pb.joined && sameSet(pa.numbers, pb.numbers)) return 'equal';
  // Numbers tell events apart: "Concert 12" is not "Concert 13". A year that is the event's own is no difference.
  const years = new Set((ctx.startYears ?? []).map(String));
  const na = [...pa.numbers].filter((n) => !years.has(n));
  const nb = [...pb.numbers].filter((n) => !years.has(n));
  if (na.length && nb.length && !sameSet(new Set(na), new Set(nb))) return 'conflict';
  const oneSidedNumber = na.length !== nb.length && (na.length === 0 || nb.length === 0);

  const { onlyA, onlyB } = unpaired(pa.content, pb.content, pa.all, pb.all);
  const place = ctx.isPlaceWord;
  const extraA = place ? onlyA.filter((w) => !place(w)) : onlyA;
  const extraB = place ? onlyB.filter((w) => !place(w)) : onlyB;
  if (extraA.length && extraB.length) return 'conflict';
  // Words of A paired with words of B (shared, typos, compounds): none means two different events.
  const common = pa.content.size - onlyA.length;
  if (common === 0) return pa.content.size === 0 && pb.content.size === 0 ? 'weak' : 'conflict';
  if (!extraA.length && !extraB.length) return oneSidedNumber ? 'weak' : 'equal';
  // One side says more. It merges when the shorter title still names the event (two words or more).
  const shorter = extraA.length ? pb : pa;
  if (oneSidedNumber || shorter.all.length < 2) return 'weak';
  // Unless what it says more names a level, an audience or a language: maybe another event.
  if ([...extraA, ...extraB].some(variantWord)) return 'variant';
  return 'contains';
}

let variants: ReadonlySet<string> | null = null;
/** Whether a stemmed title word is one of VARIANT_WORDS. */
function variantWord(w: string): boolean {
  variants ??= new Set(VARIANT_WORDS.map(stem));
  return variants.has(w);
}

const sameSet = (a: ReadonlySet<string>, b: ReadonlySet<string>) => a.size === b.size && [...a].every((x) => b.has(x));

/** Dice coefficient of character bigrams: 1 for equal strings, 0 for nothing in common. */
function dice(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const grams = new Map<string, number>();
  for (let i = 0; i < a.length - 1; i++) {
    const g = a.slice(i, i + 2);
    grams.set(g, (grams.get(g) ?? 0) + 1);
  }
  let overlap = 0;
  for (let i = 0; i < b.length - 1; i++) {
    const g = b.slice(i, i + 2);
    const n = grams.get(g) ?? 0;
    if (n > 0) {
      overlap += 1;
      grams.set(g, n - 1);
    }
  }
  return (2 * overlap) / (a.length - 1 + (b.length - 1));
}

export interface Comparable {
  title: string;
  start: Date;
  venueName: string;
  /** The known venue record, when the event is linked to one. */
  venueId?: string | null;
  address?: string | null;
  lat: number | null;
  lng: number | null;
  /** True when lat/lng are only a neighbourhood's centre, which says nothing about the venue. */
  geoApprox?: boolean;
  /** The event's page at its source (see eventPageKey). */
  url?: string | null;
}

/** Last path segments that name a listing of many events, not one event's page. */
const LISTING_SEGMENTS = new Set([
  'event', 'events', 'calendar', 'calendars', 'ticket', 'tickets', 'whats-on', 'whatson', 'programme', 'program', 'programs',
  'schedule', 'shows', 'concerts', 'agenda', 'home', 'index.html', 'index.htm', 'index.php', 'veranstaltungen', 'termine',
]);
const pageCache = new Map<string, string | null>();

/**
 * The page of one event that a record links to, as compared: host without "www." and path, no
 * scheme, query or fragment (a doubled scheme, "http://https://...", repaired). Null when there is
 * none, or when the page is not one event's: a site's home or a listing ("/events", "/calendar"),
 * which many events share. A page is one event's when its last path segment has a digit or at
 * least 12 characters (".../events/osea-membership-registration-1PDMTJ", ".../e/12345").
 */
export function eventPageKey(url: string | null | undefined): string | null {
  if (!url) return null;
  const hit = pageCache.get(url);
  if (hit !== undefined) return hit;
  let key: string | null = null;
  try {
    const u = new URL(url.trim().replace(/^https?:\/\/(https?):?\/\//i, '$1://'));
    const segments = u.pathname.split('/').filter(Boolean);
    const last = segments.at(-1) ?? '';
    if ((u.protocol === 'http:' || u.protocol === 'https:') && last && !LISTING_SEGMENTS.has(last.toLowerCase()) && (/\d/.test(last) || last.length >= 12)) {
      key = `${u.hostname.toLowerCase().replace(/^www\d*\./, '')}/${segments.join('/')}`;
    }
  } catch {
    key = null;
  }
  if (pageCache.size >= CACHE_LIMIT) pageCache.clear();
  pageCache.set(url, key);
  return key;
}

/** A venue name as compared: its words without the city's, and which of them name this place. */
interface VenueParts {
  words: ReadonlySet<string>;
  /** The words stemmed as titles are, to recognise a venue named in a title. */
  stems: ReadonlySet<string>;
  distinctive: ReadonlySet<string>;
  numbers: ReadonlySet<string>;
  joined: string;
}
const venueCache = new Map<string, VenueParts>();
let cityWords: ReadonlySet<string> = new Set(['portland']);

/** The words of the city's name are no evidence of a venue ("Venue 12, Portland"). */
export function setCityWords(name: string) {
  cityWords = new Set(words(name));
  venueCache.clear();
}

function venueParts(name: string): VenueParts {
  const hit = venueCache.get(name);
  if (hit) return hit;
  const ws = words(name).filter((w) => !STOP.has(w) && !cityWords.has(w));
  const numbers = new Set(ws.filter((w) => /\d/.test(w)));
  const plain = ws.filter((w) => !/\d/.test(w));
  const p: VenueParts = { words: new Set(plain), stems: new Set(plain.map(stem)), distinctive: new Set(plain.filter((w) => !VENUE_GENERIC.has(w))), numbers, joined: ws.join(' ') };
  if (venueCache.size >= CACHE_LIMIT) venueCache.clear();
  venueCache.set(name, p);
  return p;
}

const ADDRESS_WORDS: Record<string, string> = { street: 'st', avenue: 'ave', boulevard: 'blvd', road: 'rd', drive: 'dr', place: 'pl', northeast: 'ne', northwest: 'nw', southeast: 'se', southwest: 'sw', north: 'n', south: 's', east: 'e', west: 'w', suite: 'ste' };
/** An address as compared: lower case, abbreviations, no punctuation, no city or country. */
export function normaliseAddress(address: string | null | undefined): string {
  if (!address) return '';
  return words(address.split(',')[0] ?? '')
    .map((w) => ADDRESS_WORDS[w] ?? w)
    .join(' ');
}

export type PlaceRelation = 'same' | 'near' | 'unknown' | 'different';

const hasPoint = (c: Comparable) => c.lat !== null && c.lng !== null && !c.geoApprox;

/**
 * Whether two records are at one place: the same known venue, the same venue name, precise
 * coordinates within 150 m, or the same address. Two different named venues are two places; only
 * when they also stand within 150 m is the pair 'near' (one building, two names?) for an admin.
 */
export function placeRelation(a: Comparable, b: Comparable): PlaceRelation {
  if (a.venueId && b.venueId && a.venueId === b.venueId) return 'same';
  const close = hasPoint(a) && hasPoint(b) ? haversineM(a.lat!, a.lng!, b.lat!, b.lng!) <= NEARBY_M : null;
  const addrA = normaliseAddress(a.address);
  const addrB = normaliseAddress(b.address);
  const sameAddress = addrA !== '' && addrA === addrB;
  const va = venueParts(a.venueName);
  const vb = venueParts(b.venueName);
  if (va.joined && vb.joined) {
    // "Venue 12" and "Venue 13", "Room 1" and "Room 2": numbered places are different places.
    if ((va.numbers.size || vb.numbers.size) && !sameSet(va.numbers, vb.numbers)) return 'different';
    if (va.joined === vb.joined) return 'same';
    const shared = [...va.distinctive].filter((w) => vb.distinctive.has(w));
    const aInB = [...va.words].every((w) => vb.words.has(w));
    const bInA = [...vb.words].every((w) => va.words.has(w));
    // "Doug Fir" and "Doug Fir Lounge"; "The Crystal Ballroom" and "Crystal Ballroom, Portland".
    if ((aInB || bInA) && shared.length > 0) return 'same';
    if (dice(va.joined, vb.joined) >= 0.85) return 'same';
    // "Main Stage", "Back Patio": a part of some place, not another named venue; coordinates decide.
    if (va.distinctive.size === 0 || vb.distinctive.size === 0) {
      if (close !== null) return close ? 'same' : 'different';
      return sameAddress ? 'same' : 'near';
    }
    // Names that share a word ("Crystal Ballroom", "Crystal Hotel"): one place when they stand
    // together, two when their coordinates are apart; without coordinates, an admin decides.
    if (shared.length > 0) return close === true || sameAddress ? 'same' : close === false ? 'different' : 'near';
    return close === true || sameAddress ? 'near' : 'different';
  }
  if (close !== null) return close ? 'same' : 'different';
  if (sameAddress) return 'same';
  if (addrA && addrB) return 'different';
  return 'unknown';
}

export type Verdict = 'same' | 'possible' | 'different';

export interface Comparison {
  verdict: Verdict;
  /** 0..1: how much the evidence agrees; kept with proposed pairs, and what admins' decisions train. */
  score: number;
  /** Why, in a few words an admin reads. */
  reason: string;
  /**
   * Only an admin merges such a pair, whatever its score (never the threshold admins' decisions
   * train): one title names a level, an audience or a language the other lacks, or the two name
   * different venues that stand close together (two named venues are two events until an admin
   * says otherwise; decisions on pairs with an unknown venue say nothing of them).
   */
  adminOnly?: true;
}

const DIFFERENT = (reason: string): Comparison => ({ verdict: 'different', score: 0, reason });

/** Whether two records of different sources describe one event, and how sure that is. */
export function compareEvents(a: Comparable, b: Comparable): Comparison {
  const dt = Math.abs(a.start.getTime() - b.start.getTime());
  if (dt > START_WINDOW_MS) return DIFFERENT('different start');
  const place = placeRelation(a, b);
  if (place === 'different') return DIFFERENT('different place');
  const [sa, sb] = [venueParts(a.venueName).stems, venueParts(b.venueName).stems];
  const years = [a.start.getUTCFullYear(), b.start.getUTCFullYear()];
  const title = titleRelation(a.title, b.title, { startYears: years, isPlaceWord: (w) => sa.has(w) || sb.has(w) });
  if (title === 'conflict') return DIFFERENT('titles tell them apart');
  const titleScore = title === 'equal' ? 1 : title === 'contains' ? 0.85 : 0.6;
  const thin = title === 'weak' || title === 'variant';
  const placeScore = place === 'same' ? 1 : place === 'near' ? 0.75 : 0.65;
  const timeScore = 1 - (dt / START_WINDOW_MS) * 0.3;
  const score = Math.round(titleScore * placeScore * timeScore * 1000) / 1000;
  if (place === 'same' && title === 'equal') return { verdict: 'same', score, reason: 'same title, place and start' };
  if (place === 'same' && title === 'contains' && dt <= CONTAINED_WINDOW_MS) return { verdict: 'same', score, reason: 'one title contains the other, same place and start' };
  // No place agrees, none differs: the same page of one event says it is one event.
  if ((title === 'equal' || (title === 'contains' && dt <= CONTAINED_WINDOW_MS)) && a.url && b.url) {
    const page = eventPageKey(a.url);
    if (page !== null && page === eventPageKey(b.url)) return { verdict: 'same', score: Math.round(titleScore * timeScore * 1000) / 1000, reason: 'same event page, title and start' };
  }
  if (thin && place !== 'same') return DIFFERENT('too little in common');
  const why = [
    title === 'equal' ? 'same title' : title === 'contains' ? 'one title contains the other' : title === 'variant' ? 'one title names a level, audience or language the other lacks' : 'titles share few words',
    place === 'same' ? 'same place' : place === 'near' ? 'venues named differently but close' : 'venue unknown',
    dt === 0 ? 'same start' : `starts ${Math.round(dt / 60_000)} min apart`,
  ];
  return { verdict: 'possible', score, reason: why.join('; '), ...(title === 'variant' || place === 'near' ? { adminOnly: true as const } : {}) };
}

/** Whether two records of different sources are one event beyond doubt (what merges without an admin). */
export function isSameEvent(a: Comparable, b: Comparable): boolean {
  return compareEvents(a, b).verdict === 'same';
}

/**
 * The score at or above which admins' decisions say a proposed pair is one event: the lowest
 * score with at least `minDecisions` decisions at or above it, of which at least 95% were merges.
 * Null until the decisions support one (proposals then always wait for an admin).
 */
export function learnedMergeThreshold(decisions: readonly { score: number; merged: boolean }[], minDecisions = 10): number | null {
  const sorted = [...decisions].sort((x, y) => y.score - x.score);
  let merged = 0;
  let best: number | null = null;
  for (let i = 0; i < sorted.length; i++) {
    if (sorted[i]!.merged) merged += 1;
    const n = i + 1;
    // Only where a score ends (ties are taken together).
    if (i + 1 < sorted.length && sorted[i + 1]!.score === sorted[i]!.score) continue;
    if (n >= minDecisions && merged / n >= 0.95) best = sorted[i]!.score;
  }
  return best;
}
