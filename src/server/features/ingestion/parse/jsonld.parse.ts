// schema.org Events in web pages: JSON-LD blocks (with @graph, arrays, nested objects, @id
// references) and microdata (itemscope/itemtype/itemprop). Runs in the sandbox.

import { Parser } from 'htmlparser2';
import { htmlToText } from '../../../lib/text.ts';
import { isRealTimeOfDay } from '../../../../contract/time.ts';
import type { CandidateEvent } from '../ingestion.types.ts';
import { createRunNotes, SKIP } from '../run-notes.ts';
import { addDaysInZone, compact, coordinates, DAY_MS, isValidTimeZone, notOver, parseIsoDate, parseIsoDuration, splitLocation, toNumber, toUtc, toWall, uniqueIds, type ParseContext, type ParseOutput } from './common.ts';

export interface JsonLdParseInput extends ParseContext {
  text: string;
  /** The page's URL, to resolve relative links. */
  baseUrl?: string;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

/** schema.org Event and its subtypes. */
const EVENT_TYPES = new Set([
  'Event',
  'BusinessEvent',
  'ChildrensEvent',
  'ComedyEvent',
  'CourseInstance',
  'DanceEvent',
  'DeliveryEvent',
  'EducationEvent',
  'EventSeries',
  'ExhibitionEvent',
  'Festival',
  'FoodEvent',
  'Hackathon',
  'LiteraryEvent',
  'MusicEvent',
  'PublicationEvent',
  'BroadcastEvent',
  'OnDemandEvent',
  'SaleEvent',
  'ScreeningEvent',
  'SocialEvent',
  'SportsEvent',
  'TheaterEvent',
  'VisualArtsEvent',
  'UserInteraction',
]);

const MAX_NODES = 200_000;
const MAX_DEPTH = 24;
/** Keys that point back up (walking them would collect the parent again). */
const SKIP_KEYS = new Set(['superEvent', '@context']);

export function parseJsonLd(source: JsonLdParseInput): ParseOutput {
  const { blocks, microdata, baseHref, pageImage } = extract(source.text);
  // Relative links resolve against the page's <base href> when it has one, as in a browser.
  const input = { ...source, baseUrl: absolute(baseHref, source.baseUrl) ?? source.baseUrl };
  const roots: Json[] = [];
  const notes = createRunNotes();
  for (const block of blocks) {
    const value = parseJsonBlock(block);
    if (value === undefined) notes.add('skipped', SKIP.unreadable, `a JSON-LD block: ${block.trim().slice(0, 40)}`);
    else roots.push(value);
  }
  roots.push(...microdata);

  const index = new Map<string, Obj>();
  const events: Obj[] = [];
  collect(roots, index, events);

  const out: CandidateEvent[] = [];
  // A page about one event shows its picture as the page's share image when the event names none.
  const shareImage = events.length === 1 ? absolute(pageImage?.trim(), input.baseUrl) : undefined;
  for (const ev of events) {
    const produced = normalise(ev, index, input).map((c) => (c.imageUrl || !shareImage ? c : { ...c, imageUrl: shareImage }));
    if (produced.length === 0) {
      // Nothing from an event with a title and a start is a schedule with no date ahead: not a loss.
      const title = htmlToText(str(ev.name) ?? '').trim();
      const startText = str(ev.startDate);
      if (!title) notes.add('skipped', SKIP.noTitle, str(ev.url) ?? (typeof ev['@id'] === 'string' ? ev['@id'] : startText));
      else if (!startText || !parseIsoDate(startText, input.timeZone)) {
        if (ev.eventSchedule === undefined) notes.add('skipped', SKIP.noStart, title);
      }
    }
    for (const c of produced) if (notOver(c, input.now)) out.push(c);
  }
  const unique = uniqueIds(out, notes);
  return { candidates: unique.candidates, notes: notes.list() };
}

// ---------------------------------------------------------------------------------------------
// Extraction from HTML

interface MicroItem {
  type: string;
  props: Map<string, Json[]>;
}

interface OpenElement {
  item: MicroItem | null;
  capture: { item: MicroItem; props: string[]; chunks: string[] } | null;
  script: boolean;
}

const SRC_TAGS = new Set(['img', 'audio', 'video', 'source', 'iframe', 'embed', 'track']);
const HREF_TAGS = new Set(['a', 'link', 'area']);

function extract(html: string): { blocks: string[]; microdata: Obj[]; baseHref?: string; pageImage?: string } {
  const blocks: string[] = [];
  let baseHref: string | undefined;
  let pageImage: string | undefined;
  const topItems: MicroItem[] = [];
  const stack: OpenElement[] = [];
  let script: string[] | null = null;
  const current = () => stack[stack.length - 1]?.item ?? null;
  const add = (item: MicroItem, props: string[], value: Json) => {
    for (const p of props) {
      const list = item.props.get(p);
      if (list) list.push(value);
      else item.props.set(p, [value]);
    }
  };

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        // The document's base URL (the first <base href> counts), against which JSON-LD and microdata resolve.
        if (name === 'base' && baseHref === undefined && attrs.href) baseHref = attrs.href;
        // The page's share picture (Open Graph, else Twitter card): the event's own on a page about one event.
        if (name === 'meta' && attrs.content && pageImage === undefined) {
          const key = (attrs.property ?? attrs.name ?? '').toLowerCase();
          if (key === 'og:image' || key === 'og:image:url' || key === 'og:image:secure_url' || key === 'twitter:image') pageImage = attrs.content;
        }
        if (name === 'script') {
          const type = (attrs.type ?? '').toLowerCase().split(';')[0]!.trim();
          const isLd = type === 'application/ld+json';
          if (isLd) script = [];
          stack.push({ item: current(), capture: null, script: isLd });
          return;
        }
        const parent = current();
        const props = attrs.itemprop ? attrs.itemprop.split(/\s+/).filter(Boolean) : [];
        if ('itemscope' in attrs) {
          const type = (attrs.itemtype ?? '').split(/\s+/)[0] ?? '';
          const item: MicroItem = { type, props: new Map() };
          if (parent && props.length) add(parent, props, microRef(item));
          else topItems.push(item);
          stack.push({ item, capture: null, script: false });
          return;
        }
        let capture: OpenElement['capture'] = null;
        if (parent && props.length) {
          const attr =
            attrs.content ??
            (name === 'meta' ? '' : undefined) ??
            (HREF_TAGS.has(name) ? attrs.href : undefined) ??
            (SRC_TAGS.has(name) ? attrs.src : undefined) ??
            (name === 'object' ? attrs.data : undefined) ??
            (name === 'time' ? attrs.datetime : undefined) ??
            (name === 'data' || name === 'meter' ? attrs.value : undefined);
          if (attr !== undefined) add(parent, props, attr);
          else capture = { item: parent, props, chunks: [] };
        }
        stack.push({ item: parent, capture, script: false });
      },
      ontext(text) {
        if (script) {
          script.push(text);
          return;
        }
        for (const el of stack) el.capture?.chunks.push(text);
      },
      onclosetag() {
        const el = stack.pop();
        if (!el) return;
        if (el.script && script) {
          blocks.push(script.join(''));
          script = null;
        }
        if (el.capture) add(el.capture.item, el.capture.props, el.capture.chunks.join('').replace(/\s+/g, ' ').trim());
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return { blocks, microdata: topItems.map((i) => microToJson(i, 0)), baseHref, pageImage };
}

// Microdata items nest by reference while parsing; they become plain objects afterwards.
const MICRO_REFS = new WeakMap<object, MicroItem>();
function microRef(item: MicroItem): Json {
  const ref: Obj = {};
  MICRO_REFS.set(ref, item);
  return ref;
}

function microToJson(item: MicroItem, depth: number): Obj {
  const type = item.type.replace(/^https?:\/\/schema\.org\//i, '').replace(/\/$/, '');
  const out: Obj = { '@type': type };
  for (const [key, values] of item.props) {
    const converted = values.map((v) => {
      const nested = typeof v === 'object' && v !== null ? MICRO_REFS.get(v) : undefined;
      return nested ? (depth < MAX_DEPTH ? microToJson(nested, depth + 1) : null) : v;
    });
    out[key] = converted.length === 1 ? (converted[0] ?? null) : converted;
  }
  return out;
}

/** JSON of a script block; tolerates comment wrappers, trailing commas and raw newlines. */
function parseJsonBlock(raw: string): Json | undefined {
  const text = raw
    .trim()
    .replace(/^<!--/, '')
    .replace(/-->$/, '')
    .replace(/^\s*\/\/\s*<!\[CDATA\[/, '')
    .replace(/\/\/\s*\]\]>\s*$/, '')
    .trim();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as Json;
  } catch {
    try {
      // Control characters inside strings and trailing commas are the usual hand-written slips.
      // eslint-disable-next-line no-control-regex
      const fixed = text.replace(/[\u0000-\u001f]+/g, ' ').replace(/,\s*([}\]])/g, '$1');
      return JSON.parse(fixed) as Json;
    } catch {
      return undefined;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Walking

function typesOf(node: Obj): string[] {
  const t = node['@type'] ?? node.type;
  const list = Array.isArray(t) ? t : [t];
  return list.filter((x): x is string => typeof x === 'string').map((x) => x.replace(/^(https?:\/\/schema\.org\/|schema:)/i, ''));
}

function isObj(v: Json | undefined): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function collect(roots: Json[], index: Map<string, Obj>, events: Obj[]) {
  let visited = 0;
  const seen = new Set<Obj>();
  const walk = (v: Json, depth: number) => {
    if (depth > MAX_DEPTH || visited++ > MAX_NODES) return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x, depth + 1);
      return;
    }
    if (!isObj(v) || seen.has(v)) return;
    seen.add(v);
    const id = v['@id'];
    if (typeof id === 'string' && Object.keys(v).length > 1 && !index.has(id)) index.set(id, v);
    if (typesOf(v).some((t) => EVENT_TYPES.has(t))) events.push(v);
    for (const [k, x] of Object.entries(v)) {
      if (!SKIP_KEYS.has(k) && typeof x === 'object' && x !== null) walk(x, depth + 1);
    }
  };
  for (const r of roots) walk(r, 0);
}

/** Follows a bare {"@id": ...} reference to the node it names (once). */
function deref(v: Json | undefined, index: Map<string, Obj>): Json | undefined {
  if (isObj(v) && typeof v['@id'] === 'string' && Object.keys(v).length === 1) return index.get(v['@id']) ?? v;
  return v;
}

function first(v: Json | undefined): Json | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function str(v: Json | undefined): string | undefined {
  const x = first(v);
  if (typeof x === 'string') return x.trim() || undefined;
  if (typeof x === 'number') return String(x);
  if (isObj(x)) return str(x['@value'] ?? x.name);
  return undefined;
}

function absolute(url: string | undefined, base: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url, base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Normalising one Event

function normalise(ev: Obj, index: Map<string, Obj>, input: JsonLdParseInput): CandidateEvent[] {
  const title = htmlToText(str(ev.name) ?? '').replace(/\s+/g, ' ').trim();
  if (!title) return [];
  const url = absolute(str(ev.url), input.baseUrl) ?? absolute(typeof ev['@id'] === 'string' && /^https?:/.test(ev['@id']) ? ev['@id'] : undefined, input.baseUrl);
  const place = location(ev, index);
  const offer = offers(ev, index);
  const types = typesOf(ev).filter((t) => t !== 'Event');
  const categories = [...types, ...keywords(ev.keywords), ...keywords(ev.genre)];
  const status = str(ev.eventStatus) ?? '';
  const base: Omit<CandidateEvent, 'externalId' | 'start'> = compact({
    title,
    description: str(ev.description),
    url,
    imageUrl: image(ev.image, index, input.baseUrl),
    venueName: place.venueName,
    address: place.address,
    lat: place.lat,
    lng: place.lng,
    price: offer.price,
    priceMax: offer.priceMax,
    isFree: offer.isFree,
    currency: offer.currency,
    categories: categories.length ? [...new Set(categories)] : undefined,
    cancelled: /EventCancelled/i.test(status) || undefined,
    // EventRescheduled carries its new startDate and is read as any event; EventPostponed has no new date yet.
    postponed: /EventPostponed/i.test(status) || undefined,
  });
  const id = url ?? (typeof ev['@id'] === 'string' ? ev['@id'] : undefined);

  const startText = str(ev.startDate);
  const start = startText ? parseIsoDate(startText, input.timeZone) : null;
  const out: CandidateEvent[] = [];
  if (start) {
    const endText = str(ev.endDate);
    let end = endText ? parseIsoDate(endText, input.timeZone)?.date : undefined;
    // An end date without a time is inclusive: the event runs to the end of that day.
    if (end && start.allDay && end.getTime() >= start.date.getTime() && !/T/.test(endText ?? '')) end = addDaysInZone(end, 1, input.timeZone);
    if (!end) {
      const d = str(ev.duration);
      const ms = d ? parseIsoDuration(d) : null;
      if (ms) end = new Date(start.date.getTime() + ms);
    }
    if (end && end.getTime() <= start.date.getTime()) end = undefined;
    if (!end && start.allDay) end = addDaysInZone(start.date, 1, input.timeZone);
    out.push(compact({ externalId: id ?? `${title}@${start.date.toISOString()}`, ...base, start: start.date, end, allDay: start.allDay || undefined }));
  }
  const schedules = (Array.isArray(ev.eventSchedule) ? ev.eventSchedule : ev.eventSchedule ? [ev.eventSchedule] : []).map((s) => deref(s, index)).filter(isObj);
  let standalone = out.length === 1;
  for (const schedule of schedules) {
    for (const occ of expandSchedule(schedule, input)) {
      // The event's own startDate is often its schedule's first occurrence: one item, not two.
      if (standalone && start && occ.start.getTime() === start.date.getTime()) {
        out.shift();
        standalone = false;
      }
      out.push(compact({ externalId: `${id ?? title}@${occ.start.toISOString()}`, ...base, start: occ.start, end: occ.end, allDay: occ.allDay || undefined, timeZone: occ.zone }));
    }
  }
  return out;
}

function keywords(v: Json | undefined): string[] {
  const list = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return list
    .flatMap((x) => (typeof x === 'string' ? x.split(',') : []))
    .map((x) => x.trim())
    .filter((x) => x && x.length < 60);
}

interface Place {
  venueName?: string;
  address?: string;
  lat?: number;
  lng?: number;
}

function location(ev: Obj, index: Map<string, Obj>): Place {
  const raw = ev.location;
  const list = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map((l) => deref(l, index));
  const physical = list.find((l) => typeof l === 'string' || (isObj(l) && !typesOf(l).includes('VirtualLocation')));
  if (typeof physical === 'string') return splitLocation(htmlToText(physical));
  if (isObj(physical)) {
    const addr = deref(physical.address, index);
    const address = typeof addr === 'string' ? addr.trim() : isObj(addr) ? postalAddress(addr) : undefined;
    const geo = deref(physical.geo, index);
    const ll = isObj(geo) ? coordinates(str(geo.latitude), str(geo.longitude)) : coordinates(str(physical.latitude), str(physical.longitude));
    const name = str(physical.name);
    return compact({ venueName: name ? htmlToText(name) : undefined, address: address || undefined, lat: ll.lat, lng: ll.lng });
  }
  const virtual = list.some((l) => isObj(l) && typesOf(l).includes('VirtualLocation'));
  if (virtual || /OnlineEventAttendanceMode/i.test(str(ev.eventAttendanceMode) ?? '')) return { venueName: 'Online' };
  return {};
}

function postalAddress(a: Obj): string | undefined {
  const country = isObj(a.addressCountry) ? str(a.addressCountry.name) : str(a.addressCountry);
  const region = [str(a.addressRegion), str(a.postalCode)].filter(Boolean).join(' ');
  const parts = [str(a.streetAddress), str(a.addressLocality), region, country].filter((p): p is string => !!p);
  return parts.length ? parts.join(', ') : str(a.name);
}

/** The lowest and highest price of the offers (Offer, AggregateOffer low/highPrice, PriceSpecification min/maxPrice). */
function offers(ev: Obj, index: Map<string, Obj>): { price?: number | null; priceMax?: number; isFree?: boolean; currency?: string } {
  const raw = ev.offers;
  const list = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map((o) => deref(o, index)).filter(isObj);
  // AggregateOffer may nest the individual offers.
  for (const o of [...list]) {
    const inner = o.offers;
    if (inner) list.push(...(Array.isArray(inner) ? inner : [inner]).map((x) => deref(x, index)).filter(isObj));
  }
  let min: number | undefined;
  let max: number | undefined;
  let currency: string | undefined;
  const amount = (p: string | undefined) => {
    if (p === undefined) return undefined;
    const n = /^\s*free\s*$/i.test(p) ? 0 : toNumber(p);
    return n !== undefined && n >= 0 ? n : undefined;
  };
  for (const o of list) {
    const spec = deref(o.priceSpecification, index);
    const lows = [str(o.price), str(o.lowPrice)];
    const highs = [str(o.price), str(o.highPrice)];
    if (isObj(spec)) {
      lows.push(str(spec.price), str(spec.minPrice));
      highs.push(str(spec.price), str(spec.maxPrice));
    }
    for (const n of lows.map(amount)) {
      if (n !== undefined && (min === undefined || n < min)) {
        min = n;
        currency = str(o.priceCurrency) ?? (isObj(spec) ? str(spec.priceCurrency) : undefined) ?? currency;
      }
    }
    for (const n of highs.map(amount)) if (n !== undefined && (max === undefined || n > max)) max = n;
    currency ??= str(o.priceCurrency);
  }
  const freeFlag = ev.isAccessibleForFree === true || /^true$/i.test(str(ev.isAccessibleForFree) ?? '');
  if (freeFlag) return { price: 0, isFree: true, currency };
  const notFree = ev.isAccessibleForFree === false || /^false$/i.test(str(ev.isAccessibleForFree) ?? '');
  if (min === undefined) return compact({ currency, isFree: notFree ? false : undefined });
  const priceMax = max !== undefined && max > min ? max : undefined;
  // Free only when every offer is: a free tier beside paid ones ("$0-20") is a range from 0.
  return compact({ price: min, priceMax, isFree: min === 0 && priceMax === undefined, currency });
}

const IMAGE_EXTENSION = /\.(jpe?g|png|gif|webp|avif)$/i;

/**
 * schema.org `image`: a URL, an ImageObject (its url or contentUrl, else its thumbnailUrl), a
 * reference to one elsewhere in the graph, or a list of these (the first usable one).
 */
function image(v: Json | undefined, index: Map<string, Obj>, base: string | undefined, depth = 0): string | undefined {
  if (depth > 3) return undefined;
  for (const item of Array.isArray(v) ? v : [v]) {
    const x = deref(item ?? undefined, index);
    let found: string | undefined;
    if (typeof x === 'string') found = absolute(x.trim(), base);
    else if (isObj(x)) {
      found = image(x.url ?? undefined, index, base, depth + 1) ?? image(x.contentUrl ?? undefined, index, base, depth + 1) ?? image(x.thumbnailUrl ?? undefined, index, base, depth + 1);
      // {"@id": "https://example.org/photo.jpg"} with no node of that id: the id is the image's address.
      const id = typeof x['@id'] === 'string' ? x['@id'] : undefined;
      if (!found && id && IMAGE_EXTENSION.test(id.split(/[?#]/)[0]!)) found = absolute(id, base);
    }
    if (found) return found;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// eventSchedule (schema.org Schedule)

const WEEKDAYS: Record<string, number> = { sunday: 0, monday: 1, tuesday: 2, wednesday: 3, thursday: 4, friday: 5, saturday: 6, su: 0, mo: 1, tu: 2, we: 3, th: 4, fr: 5, sa: 6 };

function weekday(v: Json): number | undefined {
  if (typeof v !== 'string') return undefined;
  const name = v.replace(/^.*[/:#]/, '').toLowerCase();
  return WEEKDAYS[name];
}

interface Occurrence {
  start: Date;
  end?: Date;
  allDay: boolean;
  zone?: string;
}

/** "19:00" or "19:00:30" as a time of day; null when there is none, false when no clock shows it ("25:00"). */
function clockTime(text: string | undefined): { hour: number; minute: number; second: number } | null | false {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?/.exec(text ?? '');
  if (!m) return null;
  const t = { hour: Number(m[1]), minute: Number(m[2]), second: Number(m[3] ?? 0) };
  return isRealTimeOfDay(t.hour, t.minute, t.second) ? t : false;
}

/** Occurrences of a Schedule from now to the horizon, at most maxOccurrences. */
export function expandSchedule(s: Obj, ctx: ParseContext): Occurrence[] {
  const tzName = str(s.scheduleTimezone);
  const zone = tzName && isValidTimeZone(tzName) ? tzName : ctx.timeZone;
  const startDate = str(s.startDate) ? parseIsoDate(str(s.startDate)!, zone) : null;
  const endDate = str(s.endDate) ? parseIsoDate(str(s.endDate)!, zone) : null;
  const freqText = (str(s.repeatFrequency) ?? '').replace(/^.*[/:#]/, '');
  const list = (v: Json | undefined) => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
  const byDay = list(s.byDay)
    .map(weekday)
    .filter((d): d is number => d !== undefined);
  const byMonthDay = list(s.byMonthDay)
    .map((d) => toNumber(d))
    .filter((d): d is number => d !== undefined);
  const byMonth = list(s.byMonth)
    .map((d) => toNumber(d))
    .filter((d): d is number => d !== undefined);
  const except = new Set(
    list(s.exceptDate)
      .map((d) => (typeof d === 'string' ? d.slice(0, 10) : undefined))
      .filter((d): d is string => !!d),
  );
  let unit: 'day' | 'week' | 'month' | 'year' | null = null;
  let interval = 1;
  const dur = /^P(\d+)([DWMY])$/i.exec(freqText);
  if (dur) {
    interval = Math.max(1, Number(dur[1]));
    unit = ({ D: 'day', W: 'week', M: 'month', Y: 'year' } as const)[dur[2]!.toUpperCase() as 'D' | 'W' | 'M' | 'Y'];
  } else if (/^daily$/i.test(freqText)) unit = 'day';
  else if (/^weekly$/i.test(freqText)) unit = 'week';
  else if (/^monthly$/i.test(freqText)) unit = 'month';
  else if (/^(yearly|annually)$/i.test(freqText)) unit = 'year';
  else if (byDay.length) unit = 'week';
  else if (byMonthDay.length) unit = 'month';
  if (!unit) return [];

  const time = clockTime(str(s.startTime));
  const endTime = clockTime(str(s.endTime));
  // A start time no clock shows ("25:00", "19:61") would roll the dates over to the next day or hour.
  if (time === false) return [];
  const durationMs = str(s.duration) ? parseIsoDuration(str(s.duration)!) : null;
  const repeatCount = toNumber(str(s.repeatCount));

  const horizonEnd = ctx.now.getTime() + ctx.horizonDays * DAY_MS;
  const anchor = toWall(startDate?.date ?? ctx.now, zone);
  const anchorDay = Date.UTC(anchor.year, anchor.month - 1, anchor.day) / DAY_MS;
  // Walk days from the schedule's start (for intervals and repeatCount), at most ten years back.
  const today = toWall(ctx.now, zone);
  const todayDay = Date.UTC(today.year, today.month - 1, today.day) / DAY_MS;
  let day = Math.max(anchorDay, todayDay - 3650);
  const lastDay = Math.min(endDate ? Date.UTC(toWall(endDate.date, zone).year, toWall(endDate.date, zone).month - 1, toWall(endDate.date, zone).day) / DAY_MS : Infinity, Math.ceil(horizonEnd / DAY_MS) + 1);
  const out: Occurrence[] = [];
  let count = 0;
  for (let guard = 0; day <= lastDay && guard < 4000; day++, guard++) {
    const d = new Date(day * DAY_MS);
    const y = d.getUTCFullYear();
    const m = d.getUTCMonth() + 1;
    const dd = d.getUTCDate();
    const dow = d.getUTCDay();
    const since = day - anchorDay;
    let match: boolean;
    if (unit === 'day') match = since % interval === 0;
    else if (unit === 'week') match = (byDay.length ? byDay.includes(dow) : dow === new Date(anchorDay * DAY_MS).getUTCDay()) && Math.floor((since + new Date(anchorDay * DAY_MS).getUTCDay()) / 7) % interval === 0;
    else if (unit === 'month') {
      const monthsSince = (y - anchor.year) * 12 + (m - anchor.month);
      match = (byMonthDay.length ? byMonthDay.includes(dd) : byDay.length ? byDay.includes(dow) : dd === anchor.day) && monthsSince % interval === 0;
    } else match = m === anchor.month && dd === anchor.day && (y - anchor.year) % interval === 0;
    if (byMonth.length && !byMonth.includes(m)) match = false;
    if (!match) continue;
    const key = `${y}-${String(m).padStart(2, '0')}-${String(dd).padStart(2, '0')}`;
    if (except.has(key)) continue;
    count++;
    if (repeatCount !== undefined && count > repeatCount) break;
    const start = toUtc({ year: y, month: m, day: dd, ...(time || {}) }, zone);
    let end: Date | undefined;
    if (time && endTime) {
      end = toUtc({ year: y, month: m, day: dd, ...endTime }, zone);
      if (end.getTime() <= start.getTime()) end = addDaysInZone(end, 1, zone);
    } else if (durationMs) end = new Date(start.getTime() + durationMs);
    else if (!time) end = addDaysInZone(start, 1, zone);
    if ((end ?? start).getTime() < ctx.now.getTime()) continue;
    if (start.getTime() > horizonEnd) break;
    out.push({ start, end, allDay: !time, zone: tzName && zone === tzName ? zone : undefined });
    if (out.length >= ctx.maxOccurrences) break;
  }
  return out;
}
