// iCalendar (RFC 5545) to candidate events, with ical.js. Runs inside the parse sandbox.
//
// Times: a TZID that names an IANA zone is converted with Intl (current rules, whatever the
// file's VTIMEZONE says); a Windows zone name is mapped to IANA; any other TZID uses the file's
// own VTIMEZONE; floating times and dates use X-WR-TIMEZONE, else the city's zone.
// Recurrences (RRULE, RDATE, EXDATE, RECURRENCE-ID overrides) are expanded from `now` to
// `now + horizonDays`, at most `maxOccurrences` per event, with iteration budgets so a rule like
// FREQ=SECONDLY cannot spin (the sandbox's time limit is the last line of defence). The set is
// RFC 5545's: DTSTART, the RRULE's instances and the RDATEs, less the EXDATEs, each date once.

import ICAL from 'ical.js';
import { isRealWallClock, type WallClock } from '../../../../contract/time.ts';
import { SourceError, type CandidateEvent } from '../ingestion.types.ts';
import { createRunNotes, SKIP, type RunNotes } from '../run-notes.ts';
import { canonicalZone, compact, coordinates, DAY_MS, describeError, fromUtcFields, isValidTimeZone, notOver, splitLocation, toUtc, toWall, uniqueIds, type ParseContext, type ParseOutput } from './common.ts';
import { windowsZoneToIana } from './windows-zones.ts';

type Component = InstanceType<typeof ICAL.Component>;
type Time = InstanceType<typeof ICAL.Time>;
type Event = InstanceType<typeof ICAL.Event>;
type Property = InstanceType<typeof ICAL.Property>;

export interface IcalParseInput extends ParseContext {
  text: string;
}

/** Iterations of one event's recurrence before it is given up (an iteration costs ~10-20 us). */
const MAX_ITERATIONS_PER_EVENT = 20_000;
/** Iterations across a whole file (a few seconds), plus 100 per series up to the ceiling; beyond
 * it, further recurring events are not expanded. */
const MAX_ITERATIONS_PER_FILE = 200_000;
const MAX_ITERATIONS_CEILING = 1_000_000;

const FREQUENCIES = new Set(['SECONDLY', 'MINUTELY', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY']);

const FAST_FORWARD_STEP_MS: Record<string, number> = {
  SECONDLY: 1000,
  MINUTELY: 60_000,
  HOURLY: 3_600_000,
  DAILY: DAY_MS,
  WEEKLY: 7 * DAY_MS,
};

/** Cheap repairs of mistakes real calendars make, so one bad line does not lose the file. */
function repair(text: string): string {
  let out = text.replace(/^\uFEFF/, '');
  // Trailing lines after the calendar (seen: "X-COMMENT:..." after END:VCALENDAR).
  const end = out.toUpperCase().lastIndexOf('END:VCALENDAR');
  if (end >= 0) out = out.slice(0, end + 'END:VCALENDAR'.length) + '\r\n';
  // DTSTART;TZID="W. Europe Standard Time:20200609T090000" (the quote closed after the value).
  out = out.replace(/^([A-Za-z-]+(?:;[^:"\r\n]*)*;TZID=)"([^":\r\n]*):(\d{8}T\d{6}Z?)"[ \t]*$/gm, '$1"$2":$3');
  // DTSTART:20190101 (a date without VALUE=DATE) is read as a broken date-time otherwise, and so
  // is DTSTART;VALUE=DATE-TIME;TZID=...:20061007 (Evolution's "Boston Summit 2006").
  out = out.replace(/^(DTSTART|DTEND|DUE|RECURRENCE-ID|EXDATE|RDATE)((?:;[^:\r\n]*)?):(\d{8}(?:,\d{8})*)[ \t]*(\r?)$/gim, (all, name: string, params: string, value: string, cr: string) =>
    /;VALUE=(?!DATE-TIME(?:;|$))/i.test(params) ? all : `${name}${params.replace(/;VALUE=DATE-TIME(?=;|$)/i, '')};VALUE=DATE:${value}${cr}`,
  );
  return out;
}

interface ScannedFile {
  /** The first VCALENDAR's own properties (X-WR-TIMEZONE), without its components. */
  calendar: Component | null;
  /** VTIMEZONE definitions by TZID, for TZIDs that are not IANA or Windows names. */
  vtimezones: Map<string, InstanceType<typeof ICAL.Timezone>>;
  /** Where each VEVENT's text is: [start, end) offsets. */
  events: [number, number][];
}

const COMPONENT_LINE = /^(BEGIN|END):([A-Za-z][A-Za-z0-9-]*)[ \t]*\r?$/gim;

/**
 * Finds the components of the file by their BEGIN/END lines without parsing it whole: each
 * VEVENT is then parsed on its own, so memory stays proportional to one event (plus the
 * results) instead of a tree of the whole file, and one broken event does not lose the others.
 * A component that is never closed, or closed by the wrong END, fails the file.
 */
function scanFile(text: string): ScannedFile {
  if (!/BEGIN:(VCALENDAR|VEVENT)/i.test(text)) throw new SourceError('not an iCalendar file (no BEGIN:VCALENDAR)');
  const stack: { name: string; start: number; bodyStart: number }[] = [];
  const events: [number, number][] = [];
  const timezoneBlocks: string[] = [];
  let headerText: string | null = null;
  let headerPieces: string[] = [];
  let headerFrom = 0;
  COMPONENT_LINE.lastIndex = 0;
  for (let m = COMPONENT_LINE.exec(text); m; m = COMPONENT_LINE.exec(text)) {
    const name = m[2]!.toUpperCase();
    const lineEnd = m.index + m[0].length;
    if (m[1]!.toUpperCase() === 'BEGIN') {
      if (stack.length === 1 && stack[0]!.name === 'VCALENDAR') headerPieces.push(text.slice(headerFrom, m.index));
      stack.push({ name, start: m.index, bodyStart: lineEnd });
      if (stack.length === 1 && name === 'VCALENDAR') {
        headerPieces = [];
        headerFrom = lineEnd;
      }
      if (stack.length > 100) throw new SourceError('invalid iCalendar: components nested too deeply');
      continue;
    }
    const open = stack.pop();
    if (!open) throw new SourceError(`invalid iCalendar: END:${name} without BEGIN:${name}`);
    if (open.name !== name) throw new SourceError(`invalid iCalendar: END:${name} closes BEGIN:${open.name}`);
    const parent = stack[stack.length - 1];
    if (name === 'VEVENT' && (!parent || (stack.length === 1 && parent.name === 'VCALENDAR'))) events.push([open.start, lineEnd]);
    else if (name === 'VTIMEZONE' && stack.length === 1) timezoneBlocks.push(text.slice(open.start, lineEnd));
    if (stack.length === 1 && parent?.name === 'VCALENDAR') headerFrom = lineEnd;
    if (stack.length === 0 && name === 'VCALENDAR' && headerText === null) {
      headerPieces.push(text.slice(headerFrom, m.index));
      headerText = `BEGIN:VCALENDAR\r\n${headerPieces.join('').trim()}\r\nEND:VCALENDAR`;
    }
  }
  const unclosed = stack[stack.length - 1];
  if (unclosed) throw new SourceError(`invalid iCalendar: BEGIN:${unclosed.name} is never closed`);

  let calendar: Component | null = null;
  if (headerText) {
    try {
      calendar = new ICAL.Component(ICAL.parse(headerText) as unknown[]);
    } catch {
      // unreadable calendar properties: floating times use the city's zone
    }
  }
  const vtimezones = new Map<string, InstanceType<typeof ICAL.Timezone>>();
  for (const block of timezoneBlocks) {
    try {
      const comp = new ICAL.Component(ICAL.parse(block) as unknown[]);
      const tzid = comp.getFirstPropertyValue('tzid');
      if (typeof tzid === 'string' && !vtimezones.has(tzid)) vtimezones.set(tzid, new ICAL.Timezone({ component: comp, tzid }));
    } catch {
      // a broken VTIMEZONE: its TZID falls back to the calendar's zone
    }
  }
  return { calendar, vtimezones, events };
}

interface Zones {
  /** For floating times and dates without a TZID. */
  floating: string;
  floatingIsSource: boolean;
  resolve(tzid: string | null | undefined): string | null;
  defined: Map<string, InstanceType<typeof ICAL.Timezone>>;
}

function makeZones(calendar: Component | null, ctxZone: string, defined: Zones['defined']): Zones {
  const cache = new Map<string, string | null>();
  const resolve = (tzid: string | null | undefined): string | null => {
    if (!tzid) return null;
    let hit = cache.get(tzid);
    if (hit === undefined) {
      hit = resolveTzid(tzid);
      cache.set(tzid, hit);
    }
    return hit;
  };
  const xwr = calendar?.getFirstPropertyValue('x-wr-timezone');
  const fromFile = typeof xwr === 'string' ? resolve(xwr) : null;
  return { floating: fromFile ?? ctxZone, floatingIsSource: fromFile !== null, resolve, defined };
}

/** An IANA zone for a TZID: IANA names, Mozilla-style prefixed names, Windows names; or null. */
export function resolveTzid(raw: string): string | null {
  const tzid = raw.trim().replace(/^"|"$/g, '');
  if (!tzid) return null;
  if (isValidTimeZone(tzid)) return canonicalZone(tzid);
  // "/mozilla.org/20050126_1/Europe/Tallinn", "/freeassociation.sourceforge.net/Tzfile/Europe/London"
  const parts = tzid.split('/').filter(Boolean);
  for (let n = Math.min(3, parts.length - 1); n >= 2; n--) {
    const tail = parts.slice(-n).join('/');
    if (isValidTimeZone(tail)) return canonicalZone(tail);
  }
  return windowsZoneToIana(tzid);
}

interface Instant {
  date: Date;
  allDay: boolean;
  zone?: string;
}

function validTime(t: Time | null | undefined): t is Time {
  return !!t && Number.isFinite(t.year) && Number.isFinite(t.month) && Number.isFinite(t.day) && t.year > 1000 && (t.isDate || (Number.isFinite(t.hour) && Number.isFinite(t.minute)));
}

const WRITTEN_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?/;

/** A DATE or DATE-TIME as the file writes it (jCal text, or a PERIOD's pair) names a day and time that exist. */
function writtenTimeExists(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(writtenTimeExists);
  const m = typeof value === 'string' ? WRITTEN_TIME.exec(value) : null;
  if (!m) return true;
  return isRealWallClock({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), hour: Number(m[4] ?? 0), minute: Number(m[5] ?? 0), second: Number(m[6] ?? 0) });
}

/**
 * Removes the dates a VEVENT writes that do not exist, before ical.js reads them: it turns
 * DTSTART:20270230T190000 into 2 March 19:00 (and 25:00 into the next day), so the event would
 * be listed on another day. An impossible DTSTART or RECURRENCE-ID leaves the event without a
 * start (skipped and noted as having none that could be read); an impossible DTEND leaves it
 * without an end; impossible EXDATE and RDATE values are dropped. `jcal` is ICAL.parse's output.
 */
function dropImpossibleDates(jcal: unknown): void {
  if (!Array.isArray(jcal) || !Array.isArray(jcal[1])) return;
  const props = jcal[1] as unknown[][];
  let noStart = false;
  const kept = props.flatMap((prop): unknown[][] => {
    const [name, params, type, ...values] = prop;
    if (type !== 'date' && type !== 'date-time' && type !== 'period') return [prop];
    if (name === 'exdate' || name === 'rdate') {
      const real = values.filter(writtenTimeExists);
      return real.length ? [[name, params, type, ...real]] : [];
    }
    if (values.every(writtenTimeExists)) return [prop];
    if (name === 'dtstart' || name === 'recurrence-id') noStart = true;
    return [];
  });
  jcal[1] = noStart ? kept.filter(([name]) => name !== 'dtstart' && name !== 'recurrence-id') : kept;
}

function toInstant(t: Time, tzid: string | null, zones: Zones): Instant {
  const fields = { year: t.year, month: t.month, day: t.day, hour: t.isDate ? 0 : t.hour, minute: t.isDate ? 0 : t.minute, second: t.isDate ? 0 : t.second };
  const iana = zones.resolve(tzid);
  if (t.isDate) {
    const zone = iana ?? zones.floating;
    return { date: toUtc(fields, zone), allDay: true, zone: iana ?? (zones.floatingIsSource ? zone : undefined) };
  }
  const zone = t.zone;
  if (zone && zone.tzid === 'UTC') {
    return { date: new Date(Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute, fields.second)), allDay: false };
  }
  if (iana) return { date: toUtc(fields, iana), allDay: false, zone: iana };
  const defined = tzid ? zones.defined.get(tzid) : undefined;
  if (defined) {
    // A TZID we cannot name, defined by the file's own VTIMEZONE.
    const local = t.clone();
    local.zone = defined;
    return { date: new Date(local.toUnixTime() * 1000), allDay: false };
  }
  return { date: toUtc(fields, zones.floating), allDay: false, zone: zones.floatingIsSource ? zones.floating : undefined };
}

function tzidOf(component: Component, prop: string): string | null {
  const p = component.getFirstProperty(prop);
  const tzid = p?.getParameter('tzid');
  return typeof tzid === 'string' ? tzid : Array.isArray(tzid) ? (tzid[0] ?? null) : null;
}

function textOf(component: Component, name: string): string | undefined {
  const v = component.getFirstPropertyValue(name);
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  return t ? t : undefined;
}

function httpUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const v = value.trim();
  return /^https?:\/\/\S+$/i.test(v) ? v : undefined;
}

function altDescription(components: Component[]): string | undefined {
  for (const comp of components) {
    const alt = comp.getFirstProperty('x-alt-desc');
    const fmt = alt?.getParameter('fmttype');
    const v = alt?.getFirstValue();
    if (typeof v === 'string' && v.trim() && (!fmt || /html/i.test(String(fmt)))) return v.trim();
  }
  return undefined;
}

const IMAGE_EXTENSION = /\.(jpe?g|png|gif|webp|avif)$/i;
/** RFC 7986 DISPLAY values, best first for a picture of the event (BADGE is the default). */
const DISPLAY_RANK = ['graphic', 'fullsize', 'badge', 'thumbnail'];

function paramList(p: Property, name: string): string[] {
  const v = p.getParameter(name) as unknown;
  const list = Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
  return list.flatMap((x) => String(x).split(',')).map((x) => x.trim().toLowerCase()).filter(Boolean);
}

/**
 * The event's picture: an RFC 7986 IMAGE given by URI (the best DISPLAY kind), else an ATTACH
 * that is an image (FMTTYPE image/..., or no type and an image file name), else the sizes
 * WordPress calendars list in X-WP-IMAGES-URL (the full size). Inline BINARY images are left out.
 */
function imageOf(c: Component): string | undefined {
  const rank = (p: Property) => {
    const display = paramList(p, 'display');
    const ranks = (display.length ? display : ['badge']).map((d) => DISPLAY_RANK.indexOf(d)).filter((r) => r >= 0);
    return ranks.length ? Math.min(...ranks) : DISPLAY_RANK.length;
  };
  const images = c
    .getAllProperties('image')
    .filter((p) => typeof p.getFirstValue() === 'string' && httpUrl(p.getFirstValue() as string))
    .sort((a, b) => rank(a) - rank(b));
  if (images[0]) return httpUrl(images[0].getFirstValue() as string);
  for (const a of c.getAllProperties('attach')) {
    const v = a.getFirstValue();
    const url = typeof v === 'string' ? httpUrl(v) : undefined;
    if (!url) continue;
    const fmt = paramList(a, 'fmttype')[0];
    if (fmt ? fmt.startsWith('image/') : IMAGE_EXTENSION.test(url.split(/[?#]/)[0]!)) return url;
  }
  const wp = c.getFirstPropertyValue('x-wp-images-url');
  if (typeof wp === 'string') {
    // "thumbnail;URL;300;199,medium;URL;...,full;URL;1000;662" (with ; and , escaped as TEXT).
    const sizes = new Map(
      wp.split(/\\?,/).map((entry) => {
        const [name = '', url = ''] = entry.split(/\\?;/);
        return [name.trim().toLowerCase(), httpUrl(url)] as const;
      }),
    );
    return sizes.get('full') ?? sizes.get('large') ?? sizes.get('medium') ?? [...sizes.values()].find(Boolean);
  }
  return undefined;
}

/** The descriptive fields of an event (an override falls back to its master's). */
function details(c: Component, master: Component | null): Omit<CandidateEvent, 'externalId' | 'start' | 'end' | 'allDay' | 'timeZone'> {
  const get = (name: string) => textOf(c, name) ?? (master ? textOf(master, name) : undefined);
  const title = get('summary') ?? '';
  // DESCRIPTION is the standard field; Outlook's X-ALT-DESC (HTML) only when there is none.
  const description = get('description') ?? altDescription(master ? [c, master] : [c]);
  const location = get('location');
  // A meeting link as the location: an online event.
  const place = !location ? {} : /^https?:\/\/\S+$/i.test(location) ? { venueName: 'Online' } : splitLocation(location);
  const categories: string[] = [];
  for (const comp of c.hasProperty('categories') || !master ? [c] : [master]) {
    for (const p of comp.getAllProperties('categories')) {
      for (const v of p.getValues()) {
        if (typeof v === 'string' && v.trim() && !categories.includes(v.trim())) categories.push(v.trim());
      }
    }
  }
  const geo = (c.getFirstPropertyValue('geo') ?? master?.getFirstPropertyValue('geo')) as unknown;
  const ll = Array.isArray(geo) ? coordinates(geo[0], geo[1]) : {};
  const imageUrl = imageOf(c) ?? (master ? imageOf(master) : undefined);
  const status = (textOf(c, 'status') ?? '').toUpperCase();
  return compact({
    title,
    description,
    url: httpUrl(get('url')),
    imageUrl,
    venueName: place.venueName,
    address: place.address,
    lat: ll.lat,
    lng: ll.lng,
    categories: categories.length ? categories : undefined,
    cancelled: status === 'CANCELLED' ? true : undefined,
  });
}

function endOf(start: Instant, endTime: Time | null, tzid: string | null, zones: Zones): Date | undefined {
  if (!validTime(endTime)) return start.allDay ? new Date(start.date.getTime() + DAY_MS) : undefined;
  const end = toInstant(endTime, tzid, zones).date;
  if (end.getTime() <= start.date.getTime()) return start.allDay ? new Date(start.date.getTime() + DAY_MS) : undefined;
  return end;
}

interface Budget {
  left: number;
}

export function parseIcal(input: IcalParseInput): ParseOutput {
  const now = input.now;
  const horizonEnd = new Date(now.getTime() + input.horizonDays * DAY_MS);
  const text = repair(input.text);
  const { calendar, vtimezones, events } = scanFile(text);
  const zones = makeZones(calendar, input.timeZone, vtimezones);
  const x: ExpandContext = { now, horizonEnd, zones, max: input.maxOccurrences, budget: { left: MAX_ITERATIONS_PER_FILE } };

  const out: CandidateEvent[] = [];
  const notes = createRunNotes();
  let parsed = 0;
  let firstError: string | null = null;
  // Series (RRULE/RDATE) and their overrides (RECURRENCE-ID) wait until every VEVENT is read,
  // since an override may come before its series; single events are done at once.
  const series: Component[] = [];
  const overrides = new Map<string, Component[]>();

  for (const [from, to] of events) {
    let ve: Component;
    try {
      // Standalone components: ical.js would otherwise look up every TZID by scanning all of
      // the calendar's components (quadratic); file-defined zones are looked up by us instead.
      const jcal = ICAL.parse(text.slice(from, to)) as unknown[];
      dropImpossibleDates(jcal);
      ve = new ICAL.Component(jcal);
      parsed++;
    } catch (err) {
      firstError ??= describeError(err);
      notes.add('skipped', SKIP.unreadable, labelInText(text.slice(from, to)));
      continue;
    }
    const uid = textOf(ve, 'uid');
    if (uid && ve.hasProperty('recurrence-id')) {
      const list = overrides.get(uid) ?? [];
      list.push(ve);
      overrides.set(uid, list);
    } else if (ve.hasProperty('rrule') || ve.hasProperty('rdate')) series.push(ve);
    else collect(out, notes, ve, x, () => expandEvent(ve, [], x));
  }
  if (parsed === 0 && firstError) throw new SourceError(`invalid iCalendar: ${firstError}`);

  // The iteration budget grows with the number of series (a big city calendar has thousands
  // of weekly ones), within a ceiling; the sandbox's time limit stays the last bound.
  x.budget.left = Math.min(MAX_ITERATIONS_CEILING, MAX_ITERATIONS_PER_FILE + 100 * series.length);
  const seriesUids = new Set<string>();
  for (const master of series) {
    const uid = textOf(master, 'uid');
    if (uid) seriesUids.add(uid);
    collect(out, notes, master, x, () => expandEvent(master, overrides.get(uid ?? '') ?? [], x));
  }
  // Overrides whose series is not in the file: keep them as single events.
  for (const [uid, list] of overrides) {
    if (seriesUids.has(uid)) continue;
    for (const ve of list) {
      collect(out, notes, ve, x, () => {
        const one = singleEvent(ve, null, zones, `${uid}@${recurrenceIdIso(ve, zones)}`);
        return one && notOver(one, now) ? [one] : [];
      });
    }
  }
  const unique = uniqueIds(out, notes);
  return { candidates: unique.candidates, notes: notes.list() };
}

/** What the budget note says: repeats of a series beyond it are not listed this run. */
export const BUDGET_NOTE = 'had repeats beyond what one run expands (the calendar has very many repeating events); later dates are not listed';

/**
 * Adds what `produce` returns to `out`. An entry that gives nothing is noted with why when that
 * is a loss (no start, no title, a rule that cannot be expanded, the repeat budget spent), not when
 * it is merely over or further ahead than the horizon; one that fails is noted as unreadable.
 */
function collect(out: CandidateEvent[], notes: RunNotes, ve: Component, x: ExpandContext, produce: () => CandidateEvent[]): void {
  const label = () => textOf(ve, 'summary') ?? textOf(ve, 'uid');
  const recurring = ve.hasProperty('rrule') || ve.hasProperty('rdate');
  let produced: CandidateEvent[];
  try {
    produced = produce();
  } catch (err) {
    if (err instanceof SourceError) throw err;
    notes.add('skipped', SKIP.unreadable, label());
    return;
  }
  for (const c of produced) out.push(c);
  if (recurring && x.budget.left <= 0) notes.add('unread', BUDGET_NOTE, label());
  else if (produced.length >= x.max) notes.add('unread', `reached ${x.max} dates within the horizon, the most one run lists of a series; later dates are not listed`, label());
  else if (produced.length === 0) {
    const dtstart = ve.getFirstPropertyValue('dtstart') as Time | null;
    const dtend = ve.getFirstPropertyValue('dtend') as Time | null;
    // A single event long over is not a loss, whatever it lacks (broken rules are gone by now).
    const single = !ve.hasProperty('rrule') && !ve.hasProperty('rdate');
    if (!validTime(dtstart)) notes.add('skipped', SKIP.noStart, label());
    else if (single && (validTime(dtend) ? dtend : dtstart).toJSDate().getTime() < x.now.getTime() - DAY_MS) return;
    else if (!textOf(ve, 'summary')) notes.add('skipped', SKIP.noTitle, textOf(ve, 'uid'));
    else if (recurring && ve.getAllProperties('rrule').length > 0 && !expandable(ve)) notes.add('skipped', SKIP.rule, label());
  }
}

/** False for sub-daily rules restricted to days of the month or year: they can search forever without a match. */
function expandable(ve: Component): boolean {
  return ve.getAllProperties('rrule').every((p) => {
    const rule = p.getFirstValue() as InstanceType<typeof ICAL.Recur>;
    const parts = rule.parts as Record<string, unknown>;
    return !(['SECONDLY', 'MINUTELY', 'HOURLY'].includes(rule.freq) && (parts.BYMONTHDAY || parts.BYYEARDAY || parts.BYWEEKNO || parts.BYSETPOS));
  });
}

/** The SUMMARY or UID of a VEVENT that could not be parsed, read from its text. */
function labelInText(text: string): string | undefined {
  return /^SUMMARY[^:\r\n]*:(.+)$/m.exec(text)?.[1]?.trim() || /^UID[^:\r\n]*:(.+)$/m.exec(text)?.[1]?.trim();
}

function recurrenceIdIso(ve: Component, zones: Zones): string {
  const rid = ve.getFirstPropertyValue('recurrence-id') as Time | null;
  return validTime(rid) ? toInstant(rid, tzidOf(ve, 'recurrence-id'), zones).date.toISOString() : 'unknown';
}

function singleEvent(ve: Component, master: Component | null, zones: Zones, externalId: string): CandidateEvent | null {
  const dtstart = ve.getFirstPropertyValue('dtstart') as Time | null;
  if (!validTime(dtstart)) return null;
  const tzid = tzidOf(ve, 'dtstart');
  const start = toInstant(dtstart, tzid, zones);
  let endTime = ve.getFirstPropertyValue('dtend') as Time | null;
  if (!endTime && ve.hasProperty('duration')) {
    const ev = new ICAL.Event(ve);
    endTime = ev.endDate;
  }
  const d = details(ve, master);
  if (!d.title) return null;
  return compact({
    externalId,
    ...d,
    start: start.date,
    end: endOf(start, endTime, tzidOf(ve, ve.hasProperty('dtend') ? 'dtend' : 'dtstart'), zones),
    allDay: start.allDay || undefined,
    timeZone: start.zone,
  });
}

interface ExpandContext {
  now: Date;
  horizonEnd: Date;
  zones: Zones;
  max: number;
  budget: Budget;
}

function expandEvent(master: Component, overrideComps: Component[], x: ExpandContext): CandidateEvent[] {
  const uid = textOf(master, 'uid');
  const dtstart = master.getFirstPropertyValue('dtstart') as Time | null;
  if (!validTime(dtstart)) return [];
  // An empty or broken RRULE ("RRULE:" is seen in the wild) is dropped; without any rule or
  // RDATE left, the event is a single one.
  for (const p of master.getAllProperties('rrule')) {
    const rule = p.getFirstValue() as InstanceType<typeof ICAL.Recur> | null;
    if (!rule || typeof rule !== 'object' || !FREQUENCIES.has(String(rule.freq))) master.removeProperty(p);
  }
  const recurring = master.hasProperty('rrule') || master.hasProperty('rdate');
  const baseId = uid ?? `${textOf(master, 'summary') ?? ''}|${dtstart.toString()}`;

  if (!recurring) {
    const one = singleEvent(master, null, x.zones, baseId);
    return one && notOver(one, x.now) ? [one] : [];
  }
  if (x.budget.left <= 0) return [];

  const periodEnds = periodsToStarts(master, x.zones);
  alignRecurrenceTimes(master, overrideComps, x.zones);
  if (!completeRecurrenceDates(master)) return [];
  const event: Event = new ICAL.Event(master, { strictExceptions: false, exceptions: overrideComps });
  const tzid = tzidOf(master, 'dtstart');
  const base = details(master, null);
  const duration = event.duration;

  const rules = master.getAllProperties('rrule').map((p) => p.getFirstValue() as InstanceType<typeof ICAL.Recur>);
  if (!expandable(master)) return [];
  const iterator = event.iterator(fastForward(dtstart, rules, master, x, duration.toSeconds() * 1000));

  const produced: CandidateEvent[] = [];
  const pastLimit = x.now.getTime() - Math.max(0, duration.toSeconds() * 1000) - 2 * DAY_MS;
  const seen = new Set<number>();
  let iterations = 0;
  for (;;) {
    if (iterations++ >= MAX_ITERATIONS_PER_EVENT || x.budget.left-- <= 0) break;
    const next = iterator.next();
    if (!next) break;
    if (!validTime(next)) break;
    const recurrence = toInstant(next, tzid, x.zones);
    if (recurrence.date.getTime() > x.horizonEnd.getTime()) break;
    // Long over (an occurrence that started before now may still be running): skip cheaply.
    if (recurrence.date.getTime() < pastLimit) continue;
    // ical.js yields a date that both the RRULE and an RDATE give twice: it is one occurrence.
    if (seen.has(recurrence.date.getTime())) continue;
    seen.add(recurrence.date.getTime());
    const occ = event.getOccurrenceDetails(next);
    const item = occ.item;
    const isOverride = item !== event;
    const startInstant = isOverride ? toInstant(occ.startDate, tzidOf(item.component, 'dtstart'), x.zones) : recurrence;
    let end: Date | undefined;
    if (isOverride) {
      end = endOf(startInstant, item.component.hasProperty('dtend') || item.component.hasProperty('duration') ? occ.endDate : null, tzidOf(item.component, item.component.hasProperty('dtend') ? 'dtend' : 'dtstart'), x.zones);
    } else {
      const hasEnd = master.hasProperty('dtend') || master.hasProperty('duration');
      // An end the clocks skip or repeat (its wall time read at a change of offset) may come out at
      // or before the start: the event's length then says where it ends.
      const lasting = duration.toSeconds() > 0 ? new Date(startInstant.date.getTime() + duration.toSeconds() * 1000) : undefined;
      end = periodEnds.get(recurrence.date.getTime()) ?? (hasEnd ? (endOf(startInstant, occ.endDate, tzid, x.zones) ?? lasting) : endOf(startInstant, null, tzid, x.zones));
    }
    const candidate = compact({
      externalId: `${baseId}@${recurrence.date.toISOString()}`,
      ...(isOverride ? details(item.component, master) : base),
      start: startInstant.date,
      end,
      allDay: startInstant.allDay || undefined,
      timeZone: startInstant.zone,
    } as CandidateEvent);
    if (!candidate.title || !notOver(candidate, x.now) || candidate.start.getTime() > x.horizonEnd.getTime()) continue;
    produced.push(candidate);
    if (produced.length >= x.max) break;
  }
  return produced;
}

/** Reads instants as wall-clock fields in the frame DTSTART is written in (UTC, a zone, floating). */
function wallInFrameOf(dtstart: Time, tzid: string | null, zones: Zones): (instant: Date) => WallClock {
  if (dtstart.zone?.tzid === 'UTC') return fromUtcFields;
  const iana = zones.resolve(tzid);
  if (iana) return (instant) => toWall(instant, iana);
  const defined = tzid ? zones.defined.get(tzid) : undefined;
  if (defined) {
    return (instant) => {
      const local = ICAL.Time.fromJSDate(instant, true).convertToZone(defined);
      return { year: local.year, month: local.month, day: local.day, hour: local.hour, minute: local.minute, second: local.second };
    };
  }
  return (instant) => toWall(instant, zones.floating);
}

/**
 * ical.js compares recurrence times (UNTIL, EXDATE, RDATE, RECURRENCE-ID) with the expanded
 * occurrences field by field unless it knows both zones, and the components here are detached
 * from their VTIMEZONEs (see scanFile and parseIcal). So every such time that is not already in DTSTART's
 * frame (another TZID, or UTC against a zoned DTSTART) is rewritten as the wall-clock reading
 * of the same instant in DTSTART's frame: "UNTIL=20190320T030000Z" against a Berlin DTSTART
 * becomes 04:00, and includes the 04:00 occurrence as RFC 5545 says.
 */
function alignRecurrenceTimes(master: Component, overrides: Component[], zones: Zones) {
  const dtstart = master.getFirstPropertyValue('dtstart') as Time;
  if (dtstart.isDate) return;
  const tzid = tzidOf(master, 'dtstart');
  const isUtc = dtstart.zone?.tzid === 'UTC';
  const frameKey = isUtc ? 'UTC' : (tzid ?? '');
  const sameFrame = (t: Time, tTzid: string | null) => (t.zone?.tzid === 'UTC' ? isUtc : !isUtc && (tTzid ?? '') === frameKey);
  const wall = wallInFrameOf(dtstart, tzid, zones);
  const inFrame = (t: Time, tTzid: string | null): Time => {
    if (t.isDate || sameFrame(t, tTzid)) return t;
    return new ICAL.Time({ ...wall(toInstant(t, tTzid, zones).date), isDate: false }, dtstart.zone);
  };
  for (const p of master.getAllProperties('rrule')) {
    const rule = p.getFirstValue() as InstanceType<typeof ICAL.Recur>;
    if (rule.until && validTime(rule.until) && !rule.until.isDate) rule.until = inFrame(rule.until, null);
  }
  for (const name of ['exdate', 'rdate']) {
    for (const p of master.getAllProperties(name)) {
      const ptzid = typeof p.getParameter('tzid') === 'string' ? (p.getParameter('tzid') as string) : null;
      const values = p.getValues() as unknown[];
      if (values.every((v) => v instanceof ICAL.Time && validTime(v))) p.setValues((values as Time[]).map((v) => inFrame(v, ptzid)));
    }
  }
  for (const o of overrides) {
    const p = o.getFirstProperty('recurrence-id');
    const v = p?.getFirstValue() as Time | undefined;
    if (p && validTime(v)) p.setValue(inFrame(v, tzidOf(o, 'recurrence-id')));
  }
}

/**
 * Turns RDATE;VALUE=PERIOD values into their starts, which ical.js can expand (it yields a period
 * as it is, which ends the expansion: the whole series was lost), and returns each period's end
 * by the instant it starts, for the occurrence that period gives.
 */
function periodsToStarts(master: Component, zones: Zones): Map<number, Date> {
  const ends = new Map<number, Date>();
  for (const p of master.getAllProperties('rdate')) {
    const values = p.getValues() as unknown[];
    if (!values.some((v) => v instanceof ICAL.Period)) continue;
    const ptzid = typeof p.getParameter('tzid') === 'string' ? (p.getParameter('tzid') as string) : null;
    const starts: Time[] = [];
    for (const v of values) {
      if (!(v instanceof ICAL.Period) || !validTime(v.start)) continue;
      const start = toInstant(v.start, ptzid, zones).date;
      const endTime = v.getEnd();
      const end = validTime(endTime) ? toInstant(endTime, ptzid, zones).date : null;
      if (end && end.getTime() > start.getTime()) ends.set(start.getTime(), end);
      starts.push(v.start);
    }
    if (starts.length) p.setValues(starts);
    else master.removeProperty(p);
  }
  return ends;
}

/**
 * Makes the RDATEs what ical.js needs to expand RFC 5545's recurrence set (DTSTART, the RRULE's
 * instances and the RDATEs, less the EXDATEs), once times are in DTSTART's frame:
 * - without an RRULE ical.js yields the RDATEs alone, so DTSTART joins them (a run of shows
 *   given as its opening night plus RDATEs was listed without the opening night);
 * - ical.js yields a date given twice (by two RDATEs, or by an RDATE and the RRULE) twice, and an
 *   EXDATE removes only the first copy: so each RDATE is kept once and those an EXDATE removes
 *   are dropped here (the expansion skips a date the RRULE gives again).
 * Returns false when no date is left.
 */
function completeRecurrenceDates(master: Component): boolean {
  const dtstart = master.getFirstPropertyValue('dtstart') as Time;
  // Compared as ical.js compares them, a DATE EXDATE removing every time on its day.
  const dayOf = (t: Time) => ICAL.Time.fromData({ year: t.year, month: t.month, day: t.day }).toUnixTime();
  const exTimes = new Set<number>();
  const exDays = new Set<number>();
  for (const p of master.getAllProperties('exdate')) {
    for (const v of p.getValues() as unknown[]) {
      if (!(v instanceof ICAL.Time) || !validTime(v)) continue;
      exTimes.add(v.toUnixTime());
      if (v.isDate) exDays.add(v.toUnixTime());
    }
  }
  const kept = new Set<number>();
  const keep = (t: Time): boolean => {
    const at = t.toUnixTime();
    if (kept.has(at) || exTimes.has(at) || (!t.isDate && exDays.has(dayOf(t)))) return false;
    kept.add(at);
    return true;
  };
  const ruled = master.hasProperty('rrule');
  // DTSTART first, so that an RDATE repeating it is the one left out.
  const startKept = !ruled && keep(dtstart);
  for (const p of master.getAllProperties('rdate')) {
    const values = p.getValues() as unknown[];
    if (!values.every((v): v is Time => v instanceof ICAL.Time)) continue;
    const left = values.filter(keep);
    if (left.length === 0) master.removeProperty(p);
    else if (left.length < values.length) p.setValues(left);
  }
  if (startKept) {
    const p = new ICAL.Property('rdate');
    const tzid = tzidOf(master, 'dtstart');
    if (tzid) p.setParameter('tzid', tzid);
    p.setValue(dtstart.clone());
    master.addProperty(p);
  }
  return ruled || kept.size > 0;
}

/**
 * For frequent rules without COUNT, starts the expansion near `now` instead of at DTSTART (a
 * FREQ=SECONDLY rule from years ago would otherwise take billions of steps to arrive). The new
 * start keeps the rule's phase (a whole number of intervals later) and stays safely before now,
 * so the first, possibly unaligned, value is always in the past and dropped.
 */
function fastForward(dtstart: Time, rules: InstanceType<typeof ICAL.Recur>[], master: Component, x: ExpandContext, durationMs: number): Time | undefined {
  if (rules.length !== 1 || master.hasProperty('rdate')) return undefined;
  const rule = rules[0]!;
  const unit = FAST_FORWARD_STEP_MS[rule.freq];
  if (!unit || rule.count) return undefined;
  const step = unit * Math.max(1, rule.interval || 1);
  const startWall = Date.UTC(dtstart.year, dtstart.month - 1, dtstart.day, dtstart.hour, dtstart.minute, dtstart.second);
  // Now as DTSTART's frame reads it, less the duration (an occurrence that started earlier may
  // still be running) and two steps: the new start is a real occurrence, or at worst in the past.
  const nowWall = wallInFrameOf(dtstart, tzidOf(master, 'dtstart'), x.zones)(x.now);
  const target = Date.UTC(nowWall.year, nowWall.month - 1, nowWall.day, nowWall.hour, nowWall.minute, nowWall.second) - Math.max(0, durationMs) - 2 * step;
  if (target - startWall < 2 * step) return undefined;
  const k = Math.floor((target - startWall) / step);
  const t = new Date(startWall + k * step);
  return new ICAL.Time(
    { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate(), hour: t.getUTCHours(), minute: t.getUTCMinutes(), second: t.getUTCSeconds(), isDate: dtstart.isDate },
    dtstart.zone,
  );
}
