// Reads an event out of the OCR text of a flyer: title, when, where, price, link. Pure: no I/O,
// the clock and the city come in `ctx`. Flyers put the date and the time on separate lines, shout
// in capitals, and OCR adds its own noise ("8:3O PM"), so each part is found line by line.
import * as chrono from 'chrono-node';
import { priceFromText } from '../../ingestion/pipeline/price.ts';

export interface ExtractContext {
  now: Date;
  /** IANA zone of the city ("America/Los_Angeles"): wall-clock times on the flyer are in it. */
  timeZone: string;
  venues: { name: string }[];
}

export interface ExtractedEvent {
  title: string | null;
  start: Date | null;
  end: Date | null;
  allDay: boolean;
  venueName: string | null;
  price: number | null;
  priceMax: number | null;
  priceNote: string | null;
  isFree: boolean;
  url: string | null;
  description: string;
}

// ---------------------------------------------------------------------------------------------
// Text clean-up

const MONTHS = 'jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec';
const DAYS = 'mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun';

/** Tidies OCR text into trimmed, non-empty lines with plain dashes and spaces. */
export function cleanLines(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[|¦]/g, ' | ')
    .split('\n')
    .map((l) => l.replace(/[ \t\u00a0]+/g, ' ').replace(/\s\|\s*$/, '').replace(/^\s*\|\s/, '').trim())
    .filter((l) => (l.match(/[a-z0-9]/gi)?.length ?? 0) >= 2);
}

/** Mends what OCR does to dates and times, and rewrites what chrono does not read, for the date parser only. */
function forChrono(line: string): string {
  return (
    line
      // "8:3O PM", "7:O0pm", "l0:30": letters read for digits inside a time.
      .replace(/\b([0-9OoIl]{1,2})[:.]([0-9OoIl]{2})(?=\s*(?:[ap]\.?\s?m\b|\b))/gi, (m, h: string, mi: string) => {
        const fix = (s: string) => s.replace(/[Oo]/g, '0').replace(/[Il]/g, '1');
        return /\d/.test(h + mi) ? `${fix(h)}:${fix(mi)}` : m;
      })
      // "7 P M", "7 p.m.": one token.
      .replace(/\b(\d{1,2}(?::\d\d)?)\s*([ap])\s?\.?\s?m\b\.?/gi, '$1$2m')
      // "SAT. DEC. 6": the dots stop chrono joining day and month in some orders.
      .replace(new RegExp(String.raw`\b(${MONTHS}|${DAYS})\.`, 'gi'), '$1')
      // "DEC 12 - 8:30PM", "12/13 · 9pm": a dash or dot between a day and a time separates them; chrono would read an hour range ("12 - 8:30PM").
      .replace(
        new RegExp(String.raw`(\b(?:${MONTHS})[a-z]*\s+\d{1,2}(?:st|nd|rd|th)?\b|\b\d{1,2}\/\d{1,2}(?:\/\d{2,4})?)\s*[-|•·]\s*(?=\d{1,2}(?::\d\d)?\s*[ap]m\b|\d{1,2}:\d\d|noon\b|midnight\b)`, 'gi'),
        '$1 at ',
      )
      // "12/13 @ 9PM", "DEC 6 | 7:00PM", "Dec 6 • 7pm": one phrase.
      .replace(/\s*@\s*(?=\d)/g, ' at ')
      .replace(/\s*[|•·]\s*/g, ' ')
      // "7pm-late", "7pm till late": an open end.
      .replace(/\s*(?:-|to|till|til|until)\s*(?:late|close|closing)\b/gi, '')
  );
}

// ---------------------------------------------------------------------------------------------
// Time zones

/** The wall-clock fields of an instant in a zone. */
function wallClock(at: Date, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(at);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour') % 24, minute: get('minute'), second: get('second') };
}

/** The instant at which a zone's clocks show the given wall-clock time (the later one in a gap). */
export function zonedTime(year: number, month: number, day: number, hour: number, minute: number, timeZone: string): Date {
  const want = Date.UTC(year, month - 1, day, hour, minute);
  const offsetAt = (t: number) => {
    const w = wallClock(new Date(t), timeZone);
    return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - t;
  };
  // Two passes: the offset at the first guess may differ from the offset at the answer across a change.
  let t = want - offsetAt(want);
  t = want - offsetAt(t);
  return new Date(t);
}

// ---------------------------------------------------------------------------------------------
// Dates

interface Found {
  line: number;
  text: string;
  result: chrono.ParsedResult;
  hasDate: boolean;
  hasTime: boolean;
  /** The share of the line the date phrase covers: a line that is all date is not a title. */
  cover: number;
}

function findDates(lines: string[], ref: Date): Found[] {
  const out: Found[] = [];
  lines.forEach((raw, line) => {
    const text = forChrono(raw);
    for (const result of chrono.parse(text, ref, { forwardDate: true })) {
      const s = result.start;
      const hasDate = s.isCertain('day') || s.isCertain('weekday') || s.isCertain('month');
      const hasTime = s.isCertain('hour');
      // "NIGHT" parses as tonight with nothing certain: not a date.
      if (!hasDate && !hasTime) continue;
      // "3D-Modelle": chrono's "3d" (three days from now) is a word, not a date.
      if (/^\d+\s?(?:d|h|w|y|mo|min|s)$/i.test(result.text.trim())) continue;
      // A month without a day ("June Cline", "MAY") is a word, not a start.
      if (!s.isCertain('day') && !s.isCertain('weekday') && !hasTime) continue;
      // A bare number or a year alone is not a time.
      if (!hasDate && !/\d\s*(?:[ap]m\b|:\d\d)|\b(?:noon|midnight)\b/i.test(result.text)) continue;
      out.push({ line, text: result.text, result, hasDate, hasTime, cover: result.text.replace(/\W/g, '').length / Math.max(1, raw.replace(/\W/g, '').length) });
    }
  });
  return out;
}

interface When {
  start: Date | null;
  end: Date | null;
  allDay: boolean;
  lines: Set<number>;
}

function resolveWhen(found: Found[], ctx: ExtractContext): When {
  const used = new Set<number>();
  // Stacked "FRIDAY" / "JANUARY 8" / "9:00 PM": a month and day beats a bare weekday.
  const dated = found.find((f) => f.hasDate && f.result.start.isCertain('day') && f.result.start.isCertain('month')) ?? found.find((f) => f.hasDate);
  if (!dated) return { start: null, end: null, allDay: false, lines: used };
  used.add(dated.line);
  const s = dated.result.start;
  const y = s.get('year')!;
  const mo = s.get('month')!;
  const d = s.get('day')!;
  let time: chrono.ParsedComponents | null = dated.hasTime ? s : null;
  let endTime: chrono.ParsedComponents | null = dated.hasTime ? (dated.result.end ?? null) : null;
  const endDate: chrono.ParsedComponents | null = !dated.hasTime && dated.result.end ? dated.result.end : null;
  if (!time) {
    // "SATURDAY DECEMBER 6" then "DOORS 7PM": the nearest time-only line after the date, else before it.
    const timeOnly = found.filter((f) => !f.hasDate && f.hasTime);
    const pick = timeOnly.find((f) => f.line >= dated.line && f.line <= dated.line + 4) ?? timeOnly.find((f) => f.line < dated.line && f.line >= dated.line - 3);
    if (pick) {
      time = pick.result.start;
      endTime = pick.result.end ?? null;
      used.add(pick.line);
    }
  }
  for (const f of found) if (f.cover > 0.6) used.add(f.line);
  if (!time) {
    const start = zonedTime(y, mo, d, 0, 0, ctx.timeZone);
    const end = endDate ? zonedTime(endDate.get('year')!, endDate.get('month')!, endDate.get('day')!, 0, 0, ctx.timeZone) : null;
    return { start, end: end && end > start ? end : null, allDay: true, lines: used };
  }
  const start = zonedTime(y, mo, d, time.get('hour')!, time.get('minute') ?? 0, ctx.timeZone);
  let end: Date | null = null;
  if (endTime?.isCertain('hour')) {
    // The end's clock time on the start's day, or the next morning ("10pm-2am").
    let e = zonedTime(y, mo, d, endTime.get('hour')!, endTime.get('minute') ?? 0, ctx.timeZone);
    if (e <= start) e = zonedTime(y, mo, d + 1, endTime.get('hour')!, endTime.get('minute') ?? 0, ctx.timeZone);
    end = e;
  }
  return { start, end, allDay: false, lines: used };
}

// ---------------------------------------------------------------------------------------------
// Venue, URL, title

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(up + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
}

/** A known venue named on a line, allowing OCR errors: any run of words within 20% edits of the name. */
function matchVenue(line: string, venues: { name: string }[]): string | null {
  // OCR reads o as 0, l as 1, s as 5 inside words.
  const ocr = (w: string) => (/[a-z]/.test(w) ? w.replace(/0/g, 'o').replace(/1/g, 'l').replace(/5/g, 's') : w);
  const words = norm(line).split(' ').filter(Boolean).map(ocr);
  let best: { name: string; score: number } | null = null;
  for (const v of venues) {
    const target = norm(v.name).replace(/^the /, '');
    if (target.length < 3) continue;
    const n = target.split(' ').length;
    for (let k = Math.max(1, n - 1); k <= n + 1; k++) {
      for (let i = 0; i + k <= words.length; i++) {
        const window = words.slice(i, i + k).join(' ').replace(/^the /, '');
        const score = editDistance(window, target) / Math.max(window.length, target.length);
        if (score <= 0.2 && (!best || score < best.score)) best = { name: v.name, score };
      }
    }
  }
  return best?.name ?? null;
}

const URL_RE = /\b(?:https?:\/\/[^\s<>"']+|www\.[^\s<>"']+|(?<![@\w.-])[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.(?:com|org|net|io|co|us|ca|uk|info|events|app|me|fm|live|band|art|club|bar|music|xyz|ly|gg|tv|city|nyc|la)\b(?:\/[^\s<>"']*)?)/i;

/** The first link on the flyer, as an https URL. */
function findUrl(lines: string[]): { url: string; line: number } | null {
  for (const [i, l] of lines.entries()) {
    const m = URL_RE.exec(l);
    if (!m) continue;
    let u = m[0].replace(/[.,;:!?)\]]+$/, '');
    u = u.replace(/^https?:\/\//i, '');
    const slash = u.indexOf('/');
    const host = (slash < 0 ? u : u.slice(0, slash)).toLowerCase();
    return { url: `https://${host}${slash < 0 ? '' : u.slice(slash)}`, line: i };
  }
  return null;
}

const BOILERPLATE =
  /\b(?:presents?|presented|present|tickets?|tix|doors?|all ages|\d\d\+|21\s?\+|18\s?\+|www|http|admission|cover|rsvp|free entry|info|sponsored|featuring|feat|with special guests?|hosted by|in association|follow us|call|tel|phone|email|instagram|facebook|no refunds?|limited|sold out)\b/i;
const ADDRESS = /^\d{1,5}\s+[A-Za-z0-9.' ]+\b(?:st|street|ave|avenue|rd|road|blvd|boulevard|way|dr|drive|ln|lane|pl|place|hwy|highway|pkwy|ct|court|sq|square)\b\.?/i;
const VENUE_CUE = /(?:^|\s)(?:at|@|venue\s*:|location\s*:|where\s*:|place\s*:)\s+(.{3,60})$/i;
const SMALL_WORDS = new Set(['a', 'an', 'and', 'at', 'by', 'for', 'in', 'of', 'on', 'or', 'the', 'to', 'with', 'vs', 'w/']);

/** "WINTER JAZZ NIGHT" -> "Winter Jazz Night"; mixed-case titles stay as written. */
export function displayTitle(s: string): string {
  const letters = s.replace(/[^a-z]/gi, '');
  if (!letters || letters !== letters.toUpperCase()) return s;
  return s
    .toLowerCase()
    .split(' ')
    .map((w, i) => (i > 0 && SMALL_WORDS.has(w) ? w : capitalizeWord(w)))
    .join(' ');
}

/**
 * Capitals at the start of a word and after - / ( " or an opening quote. An apostrophe inside a
 * word starts a new part only after a one-letter prefix ("o'neill" -> "O'Neill", "d'arcy"), never
 * in a possessive or contraction ("year's", "kids'", "don't").
 */
function capitalizeWord(w: string): string {
  return w.replace(/(^|[-/("'\u2018\u2019])([a-z])/g, (m: string, p: string, c: string, at: number) => {
    const inWord = (p === "'" || p === '\u2019') && at > 0 && /[\p{L}\p{N}]/u.test(w[at - 1]!);
    if (inWord && !/(?:^|[^\p{L}\p{N}])\p{L}$/u.test(w.slice(0, at))) return m;
    return p + c.toUpperCase();
  });
}

const upperShare = (s: string) => {
  const letters = s.replace(/[^a-z]/gi, '');
  return letters ? letters.replace(/[^A-Z]/g, '').length / letters.length : 0;
};

/** Whether a line could be (part of) a title: mostly letters, a few words, nothing that is a date, price, link or boilerplate. */
function titleLike(line: string): boolean {
  if (line.length < 3 || line.length > 60) return false;
  const letters = line.replace(/[^a-z]/gi, '').length;
  if (letters / line.replace(/\s/g, '').length < 0.6 || letters < 3) return false;
  if (line.split(' ').length > 9) return false;
  if (BOILERPLATE.test(line) || /\$\s?\d|\bfree\b/i.test(line) || URL_RE.test(line) || ADDRESS.test(line)) return false;
  if (/^(?:at|@|venue|location|where)\b/i.test(line)) return false;
  // OCR garbage: words without vowels, or a run of one letter.
  const words = line.split(' ').filter((w) => /[a-z]/i.test(w));
  if (words.filter((w) => w.length > 2 && !/[aeiouy]/i.test(w)).length > words.length / 2) return false;
  if (/^(.)\1+$/i.test(line.replace(/\s/g, ''))) return false;
  return true;
}

/** A line ending with a connective ("A Night of", "FORGE: ARTS &", "Show w/", "Fink at"): the title goes on. */
const CONTINUES = /(?:\b(?:of|with|w\/|and|at|the|a|an|to|for|in|on|from|by|vs|feat|x)|[&:+,\-/])$/i;
/** A line starting lower case or with a joiner ("a new comedy about", "+ MONTE"): it goes on from the line above. */
const CONTINUED = /^(?:[a-z]|[&+/-]\s)/;
const isUpper = (s: string) => upperShare(s) > 0.8;

/**
 * The title: the run of consecutive title-like lines that scores best (capitals, near the top,
 * letters). A run is lines of one case ("PHOENIX DRUPAL" / "USER GROUP" / "MONTHLY MEETUP"), or lines
 * linked by a connective ("A Night of" / "Laughter with" / "June Cline!"); after a line ending in a
 * connective the next line joins even when it names the venue ("FINK AT" / "BURGERWEESHUIS").
 * `skip`: lines that are not title text alone (venue, ...); `hard`: never title text (dates, links).
 */
function findTitle(lines: string[], skip: Set<number>, hard: Set<number> = new Set()): string | null {
  const limit = Math.min(lines.length, 12);
  const cand = (i: number) => i < limit && !skip.has(i) && !hard.has(i) && titleLike(lines[i]!);
  let best: { text: string; score: number } | null = null;
  for (let i = 0; i < limit; i++) {
    if (!cand(i)) continue;
    // Only maximal runs: a line continuing the one above is not a run's start.
    if (i > 0 && cand(i - 1) && joins(i - 1, i)) continue;
    const run = [lines[i]!];
    let j = i;
    while (run.length < 4 && j + 1 < lines.length) {
      const next = lines[j + 1]!;
      const linked = CONTINUES.test(lines[j]!.replace(/[\s.]+$/, ''));
      const ok = (cand(j + 1) && joins(j, j + 1)) || (linked && !hard.has(j + 1) && titleLike(next));
      if (!ok || run.join(' ').length + next.length > 80) break;
      run.push(next);
      j++;
    }
    const text = run.join(' ');
    const score = upperShare(run[0]!) * 3 + Math.max(0, 3 - i * 0.4) + Math.min(text.replace(/[^a-z]/gi, '').length, 24) / 8;
    if (!best || score > best.score) best = { text, score };
  }
  if (!best) return null;
  return displayTitle(best.text.replace(/[\s:;,.+&/-]+$/, '').replace(/^[\s:;,.-]+/, ''));

  function joins(a: number, b: number): boolean {
    const prev = lines[a]!.replace(/[\s.]+$/, '');
    return isUpper(lines[a]!) === isUpper(lines[b]!) || CONTINUES.test(prev) || CONTINUED.test(lines[b]!);
  }
}

// ---------------------------------------------------------------------------------------------

/** Reads title, start and end, venue, price and link from the OCR text of a flyer. */
export function extractEvent(text: string, ctx: ExtractContext): ExtractedEvent {
  // "ISBELLS Al": OCR reads the T of a capital AT ending a line as l or 1.
  const lines = cleanLines(text).map((l) => (isUpper(l) ? l.replace(/\s(?:Al|A1)$/, ' AT') : l));
  // chrono reads against the process's local clock: give it "now" as the city's wall clock.
  const w = wallClock(ctx.now, ctx.timeZone);
  const ref = new Date(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  const when = resolveWhen(findDates(lines, ref), ctx);

  const hard = new Set(when.lines);
  const skip = new Set<number>();
  let venueName: string | null = null;
  // A line that is the venue ("Burgerweeshuis", "at The Lantern Room") is not title text; a line that
  // only names it ("ANATHEMA AT BURGERWEESHUIS") is still read for the title.
  // When lines name different known venues ("machBar" / "Plenum" above the date, "Haus 5 - Seminarraum"
  // below it), the venue is the one from the date on: the one above is part of the title.
  const venueLines: { i: number; v: string }[] = [];
  for (const [i, l] of lines.entries()) {
    const v = matchVenue(l, ctx.venues);
    if (!v) continue;
    const rest = norm(l).replace(/^(?:at|venue|location|where)\s+/, '').replace(/^the /, '');
    if (rest.length <= norm(v).replace(/^the /, '').length + 3) venueLines.push({ i, v });
    else venueName ??= v;
  }
  if (venueLines.length) {
    const firstDate = hard.size ? Math.min(...hard) : Infinity;
    const chosen = venueLines.find((x) => x.i >= firstDate) ?? venueLines[0]!;
    venueName = chosen.v;
    for (const x of venueLines) if (x.v === chosen.v) skip.add(x.i);
  }
  if (!venueName) {
    for (const [i, l] of lines.entries()) {
      const m = VENUE_CUE.exec(l);
      if (!m) continue;
      const place = m[1]!.split(/\s[-|•]\s|,\s(?=\d)/)[0]!.trim();
      if (/^(?:the )?doors?\b|\b(?:\d{1,2}\s?(?:[ap]m)|noon|midnight)\b/i.test(place) || /\$\s?\d/.test(place)) continue;
      venueName = displayTitle(place);
      skip.add(i);
      break;
    }
  }
  if (!venueName) {
    const i = lines.findIndex((l) => ADDRESS.test(l));
    if (i >= 0) {
      venueName = lines[i]!;
      skip.add(i);
    }
  }

  const link = findUrl(lines);
  if (link) hard.add(link.line);
  const description = lines.join('\n');
  // Each line of a flyer is a statement of its own ("Free" alone on a line): read them as sentences.
  const price = priceFromText(lines.map((l) => l.replace(/[.;,:]\s*$/, '')).join('. '));
  return {
    title: findTitle(lines, skip, hard),
    start: when.start,
    end: when.end,
    allDay: when.allDay,
    venueName,
    price: price.price,
    priceMax: price.priceMax,
    priceNote: price.note,
    isFree: price.isFree === true,
    url: link?.url ?? null,
    description,
  };
}
