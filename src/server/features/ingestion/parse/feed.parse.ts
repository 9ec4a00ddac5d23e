// RSS 2.0, RSS 1.0 (RDF) and Atom feeds of events to candidate events. Runs in the sandbox.
//
// The event's date comes from an event extension when the item has one (mod_event's
// ev:startdate/ev:enddate, xCal's dtstart/dtend, Google's gd:when), else from the item's text
// (title, then description) read with chrono: wall-clock fields converted in the city's zone.
// Items without any date are skipped. XML with a DOCTYPE or entity declarations is refused
// outright (billion laughs, external entities).

import * as chrono from 'chrono-node';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { readTimestamp } from '../../../../contract/time.ts';
import { htmlToText } from '../../../lib/text.ts';
import { SourceError, type CandidateEvent } from '../ingestion.types.ts';
import { createRunNotes, SKIP } from '../run-notes.ts';
import { addDaysInZone, compact, coordinates, describeError, notOver, parseIsoDate, splitLocation, toUtc, toWall, uniqueIds, type ParseContext, type ParseOutput } from './common.ts';

export interface FeedParseInput extends ParseContext {
  text: string;
  /** The feed's URL, to resolve relative links. */
  baseUrl?: string;
}

type Node = Record<string, unknown>;

const NS = {
  ev: 'http://purl.org/rss/1.0/modules/event/',
  xcal: 'urn:ietf:params:xml:ns:xcal',
  gd: 'http://schemas.google.com/g/2005',
  geo: 'http://www.w3.org/2003/01/geo/wgs84_pos#',
  georss: 'http://www.georss.org/georss',
  media: 'http://search.yahoo.com/mrss/',
  content: 'http://purl.org/rss/1.0/modules/content/',
  dc: 'http://purl.org/dc/elements/1.1/',
} as const;
type NsKey = keyof typeof NS;

/** The prefixes feeds usually bind, used when the document does not declare the namespace. */
const USUAL_PREFIX: Record<NsKey, string[]> = {
  ev: ['ev'],
  xcal: ['xCal', 'xcal'],
  gd: ['gd'],
  geo: ['geo'],
  georss: ['georss'],
  media: ['media'],
  content: ['content'],
  dc: ['dc'],
};

const ARRAYS = new Set(['item', 'entry', 'category', 'link', 'dc:subject', 'media:content', 'media:thumbnail', 'enclosure']);

/** Refuses DOCTYPE and ENTITY declarations (outside CDATA sections and comments). */
export function assertNoDoctype(xml: string): void {
  const outsideCdata = xml.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '').replace(/<!--[\s\S]*?-->/g, '');
  if (/<!DOCTYPE|<!ENTITY/i.test(outsideCdata)) throw new SourceError('XML with a DOCTYPE or entities is refused');
}

function parseXml(xml: string): Node {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    // Only the five predefined entities can occur (DOCTYPE is refused above).
    processEntities: true,
    htmlEntities: false,
    isArray: (name) => ARRAYS.has(name),
  });
  return parser.parse(xml) as Node;
}

export function parseFeed(input: FeedParseInput): ParseOutput {
  const xml = input.text.replace(/^\uFEFF/, '');
  const head = xml.slice(0, 65_536);
  if (/^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<(!doctype\s+html|html)[\s>]/i.test(head)) throw new SourceError('not an RSS or Atom feed (the URL returns an HTML page)');
  assertNoDoctype(xml);
  if (!/<(rss|feed|rdf:RDF)[\s>]/i.test(head)) {
    throw new SourceError(/^\s*</.test(xml) ? 'not an RSS or Atom feed' : 'not an RSS or Atom feed (not XML)');
  }
  const valid = XMLValidator.validate(xml);
  let doc: Node;
  try {
    doc = parseXml(xml);
  } catch (err) {
    throw new SourceError(`invalid XML: ${describeError(err)}`);
  }
  const root = (doc.rss ?? doc.feed ?? doc['rdf:RDF']) as Node | undefined;
  const invalid = valid === true ? null : `invalid XML: ${valid.err.msg} (line ${valid.err.line})`;
  if (!root || typeof root !== 'object') throw new SourceError(invalid ?? 'not an RSS or Atom feed');

  const isAtom = doc.feed !== undefined;
  const channel = (isAtom ? root : (root.channel ?? root)) as Node;
  const items = asArray(isAtom ? root.entry : (channel.item ?? root.item)).filter(isNode);
  if (invalid && items.length === 0) throw new SourceError(invalid);

  const ns = namespaces(root, channel);
  const language = text(channel.language) ?? text(channel['@_xml:lang']) ?? text(root['@_xml:lang']);
  const parser = chronoFor(language, input.timeZone);
  const baseUrl = input.baseUrl ?? link(channel, isAtom);

  const out: CandidateEvent[] = [];
  const notes = createRunNotes();
  for (const item of items) {
    // What names the item in a note: its title, else its id or link.
    const label = () => plain(item.title) || text(item.guid) || text(item.id) || text(item.link);
    try {
      const c = isAtom ? atomEntry(item, ns, input, parser, baseUrl) : rssItem(item, ns, input, parser, baseUrl);
      if (!c) notes.add('skipped', plain(item.title ?? item[ns.key('dc', 'title')]) ? SKIP.noStart : SKIP.noTitle, label());
      else if (notOver(c, input.now)) out.push(c);
    } catch (err) {
      if (err instanceof SourceError) throw err;
      notes.add('skipped', SKIP.unreadable, label());
    }
  }
  // Slightly malformed feeds are common and still readable; one that yields nothing is an error.
  if (invalid && out.length === 0) throw new SourceError(invalid);
  const unique = uniqueIds(out, notes);
  return { candidates: unique.candidates, notes: notes.list() };
}

// ---------------------------------------------------------------------------------------------
// Items

interface Common {
  id?: string;
  title: string;
  link?: string;
  description?: string;
  published?: Date;
  categories: string[];
  imageUrl?: string;
}

function rssItem(item: Node, ns: Namespaces, ctx: FeedParseInput, parser: chrono.Chrono, baseUrl?: string): CandidateEvent | null {
  const guid = text(item.guid);
  const enclosure = imageLink(asArray(item.enclosure).filter(isNode), '@_url');
  const common: Common = {
    id: guid,
    title: plain(item.title ?? item[ns.key('dc', 'title')]),
    link: absolute(text(item.link) ?? text(item['@_rdf:about']), baseUrl),
    description: text(item[ns.key('content', 'encoded')]) ?? text(item.description),
    published: parseLooseDate(text(item.pubDate) ?? text(item[ns.key('dc', 'date')])),
    categories: [...asArray(item.category).map(text), ...asArray(item[ns.key('dc', 'subject')]).map(text)].filter((c): c is string => !!c),
    imageUrl: absolute(enclosure ?? mediaImage(item, ns), baseUrl),
  };
  return build(item, common, ns, ctx, parser);
}

function atomEntry(entry: Node, ns: Namespaces, ctx: FeedParseInput, parser: chrono.Chrono, baseUrl?: string): CandidateEvent | null {
  const links = asArray(entry.link).filter(isNode);
  const alternate = links.find((l) => (text(l['@_rel']) ?? 'alternate') === 'alternate') ?? links[0];
  const image = imageLink(links.filter((l) => text(l['@_rel']) === 'enclosure'), '@_href');
  const common: Common = {
    id: text(entry.id),
    title: plain(entry.title),
    link: absolute(text(alternate?.['@_href']), baseUrl),
    description: text(entry.content) ?? text(entry.summary),
    published: parseLooseDate(text(entry.published) ?? text(entry.updated)),
    categories: asArray(entry.category)
      .filter(isNode)
      .map((c) => text(c['@_label']) ?? text(c['@_term']))
      .filter((c): c is string => !!c),
    imageUrl: absolute(image ?? mediaImage(entry, ns), baseUrl),
  };
  return build(entry, common, ns, ctx, parser);
}

function build(item: Node, common: Common, ns: Namespaces, ctx: FeedParseInput, parser: chrono.Chrono): CandidateEvent | null {
  if (!common.title) return null;
  const when = extensionDates(item, ns, ctx.timeZone) ?? textDates(common, ctx, parser);
  if (!when) return null;

  // Where: ev:location, xCal location, gd:where; coordinates from W3C geo or GeoRSS.
  const gdWhere = asArray(item[ns.key('gd', 'where')]).filter(isNode)[0];
  const location = plainOrUndefined(item[ns.key('ev', 'location')]) ?? plainOrUndefined(item[ns.key('xcal', 'location')]) ?? text(gdWhere?.['@_valueString']);
  const place = location ? splitLocation(location) : {};
  let ll = coordinates(text(item[ns.key('geo', 'lat')]), text(item[ns.key('geo', 'long')]));
  if (ll.lat === undefined) {
    const point = text(item[ns.key('georss', 'point')])?.split(/[\s,]+/);
    if (point && point.length >= 2) ll = coordinates(point[0], point[1]);
  }
  const evType = text(item[ns.key('ev', 'type')]);
  const categories = [...common.categories, ...(evType ? [evType] : [])];
  const externalId = common.id ?? common.link ?? `${common.title}@${when.start.toISOString()}`;
  return compact({
    externalId,
    title: common.title,
    description: common.description,
    url: common.link,
    imageUrl: common.imageUrl,
    start: when.start,
    end: when.end,
    allDay: when.allDay || undefined,
    venueName: place.venueName,
    address: place.address,
    lat: ll.lat,
    lng: ll.lng,
    categories: categories.length ? [...new Set(categories)] : undefined,
  });
}

interface When {
  start: Date;
  end?: Date;
  allDay: boolean;
}

function extensionDates(item: Node, ns: Namespaces, zone: string): When | null {
  const pairs: [string | undefined, string | undefined][] = [
    [text(item[ns.key('ev', 'startdate')]), text(item[ns.key('ev', 'enddate')])],
    [text(item[ns.key('xcal', 'dtstart')]), text(item[ns.key('xcal', 'dtend')])],
  ];
  const gdWhen = asArray(item[ns.key('gd', 'when')]).filter(isNode)[0];
  if (gdWhen) pairs.push([text(gdWhen['@_startTime']), text(gdWhen['@_endTime'])]);
  for (const [s, e] of pairs) {
    if (!s) continue;
    const start = parseIsoDate(s, zone);
    if (!start) continue;
    const end = e ? parseIsoDate(e, zone) : null;
    let endDate = end && end.date.getTime() > start.date.getTime() ? end.date : undefined;
    // An all-day range written inclusively (start 2026-04-05, end 2026-04-05): to the end of the day.
    if (start.allDay && end?.allDay && end.date.getTime() >= start.date.getTime()) endDate = addDaysInZone(end.date, 1, zone);
    // A day without an end is that whole day.
    if (start.allDay && !endDate) endDate = addDaysInZone(start.date, 1, zone);
    return { start: start.date, end: endDate, allDay: start.allDay };
  }
  return null;
}

/**
 * Words before a date that make it another date than the event's: when tickets go on sale, a
 * deadline to register by, when the post was written ("Tickets go on sale December 1 for the
 * concert on January 16" is a concert on January 16).
 */
const NOT_THE_EVENTS_DATE = /\b(?:on sale|sales? (?:start|starts|begin|begins|open|opens)|presale|pre-sale|register(?:ing)? by|registration (?:closes|ends|opens|deadline)|deadline|rsvp by|apply by|submissions? (?:due|close|closes)|posted|published|updated)\b[^.!?\n]{0,20}$/i;

/** A date read from the title, else the description (the first mention with a day in it that is not another date, NOT_THE_EVENTS_DATE). */
function textDates(common: Common, ctx: FeedParseInput, parser: chrono.Chrono): When | null {
  const reference = common.published ?? ctx.now;
  const offsetMinutes = Math.round((Date.UTC(...wallArgs(toWall(reference, ctx.timeZone))) - reference.getTime()) / 60_000);
  const sources = [common.title, common.description ? htmlToText(common.description).slice(0, 2000) : ''];
  for (const source of sources) {
    if (!source) continue;
    const results = parser.parse(source, { instant: reference, timezone: offsetMinutes }, { forwardDate: true });
    for (const r of results) {
      if (NOT_THE_EVENTS_DATE.test(source.slice(Math.max(0, r.index - 60), r.index))) continue;
      const tags = [...r.tags()];
      const start = componentsToDate(r.start, tags, ctx.timeZone);
      if (!start) continue;
      const end = r.end ? componentsToDate(r.end, tags, ctx.timeZone) : null;
      let endDate = end && end.date.getTime() > start.date.getTime() ? end.date : undefined;
      if (end?.allDay && endDate) endDate = addDaysInZone(end.date, 1, ctx.timeZone);
      if (start.allDay && !endDate) endDate = addDaysInZone(start.date, 1, ctx.timeZone);
      return { start: start.date, end: endDate, allDay: start.allDay };
    }
  }
  return null;
}

function wallArgs(w: { year: number; month: number; day: number; hour: number; minute: number; second: number }): [number, number, number, number, number, number] {
  return [w.year, w.month - 1, w.day, w.hour, w.minute, w.second];
}

/**
 * Wall-clock fields of a chrono result converted in the zone; null when the text names no day
 * ("now", or "night" alone, which chrono reads as tonight). chrono's certainty flags get lost
 * when it merges a casual time with a date ("Night – April 3rd at 7pm"), so the parsers that
 * matched (its tags) count too.
 */
function componentsToDate(c: chrono.ParsedComponents, resultTags: string[], zone: string): { date: Date; allDay: boolean } | null {
  const tags = [...resultTags, ...c.tags()];
  if (tags.includes('casualReference/now')) return null;
  const namesDay = c.isCertain('day') || c.isCertain('weekday') || tags.some((t) => t.startsWith('parser/') && !/CasualTime|TimeExpression/.test(t));
  if (!namesDay) return null;
  const year = c.get('year');
  const month = c.get('month');
  const day = c.get('day');
  if (year === null || month === null || day === null) return null;
  if (c.isCertain('timezoneOffset')) return { date: c.date(), allDay: false };
  const timed = c.isCertain('hour') || tags.some((t) => /TimeExpression/.test(t));
  return {
    date: toUtc({ year, month, day, hour: timed ? (c.get('hour') ?? 0) : 0, minute: timed ? (c.get('minute') ?? 0) : 0 }, zone),
    allDay: !timed,
  };
}

/** chrono for the feed's language; English day/month order outside the Americas. */
function chronoFor(language: string | undefined, zone: string): chrono.Chrono {
  const lang = (language ?? '').toLowerCase();
  const primary = lang.split(/[-_]/)[0];
  switch (primary) {
    case 'de':
      return chrono.de.casual;
    case 'fr':
      return chrono.fr.casual;
    case 'nl':
      return chrono.nl.casual;
    case 'es':
      return chrono.es.casual;
    case 'pt':
      return chrono.pt.casual;
    case 'it':
      return chrono.it.casual;
    case 'sv':
      return chrono.sv.casual;
    case 'en':
      return lang === 'en' ? (zone.startsWith('America/') ? chrono.casual : chrono.en.GB) : lang === 'en-us' || lang === 'en-ca' ? chrono.casual : chrono.en.GB;
    default:
      return zone.startsWith('America/') || zone.startsWith('US/') ? chrono.casual : chrono.en.GB;
  }
}

// ---------------------------------------------------------------------------------------------
// Small readers

interface Namespaces {
  key(ns: NsKey, local: string): string;
}

function namespaces(...nodes: Node[]): Namespaces {
  const prefixByUri = new Map<string, string>();
  for (const node of nodes) {
    for (const [k, v] of Object.entries(node)) {
      if (k.startsWith('@_xmlns:') && typeof v === 'string') prefixByUri.set(v.replace(/#?\/?$/, ''), k.slice('@_xmlns:'.length));
    }
  }
  const cache = new Map<string, string>();
  return {
    key(nsKey, local) {
      const id = `${nsKey}:${local}`;
      let hit = cache.get(id);
      if (!hit) {
        const declared = prefixByUri.get(NS[nsKey].replace(/#?\/?$/, ''));
        hit = `${declared ?? USUAL_PREFIX[nsKey][0]}:${local}`;
        cache.set(id, hit);
      }
      return hit;
    },
  };
}

function isNode(v: unknown): v is Node {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function asArray(v: unknown): unknown[] {
  return v === undefined || v === null ? [] : Array.isArray(v) ? v : [v];
}

/** The text of an element (string, or an object with #text). */
function text(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim() || undefined;
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) return text(v[0]);
  if (isNode(v)) return text(v['#text']);
  return undefined;
}

function plain(v: unknown): string {
  const t = text(v);
  return t ? htmlToText(t).replace(/\s+/g, ' ').trim() : '';
}

function plainOrUndefined(v: unknown): string | undefined {
  return plain(v) || undefined;
}

function link(channel: Node, isAtom: boolean): string | undefined {
  if (!isAtom) return text(channel.link);
  const links = asArray(channel.link).filter(isNode);
  return text((links.find((l) => text(l['@_rel']) === 'alternate') ?? links[0])?.['@_href']);
}

const IMAGE_EXTENSION = /\.(jpe?g|png|gif|webp|avif)$/i;
const looksLikeImage = (url: string | undefined) => Boolean(url && IMAGE_EXTENSION.test(url.split(/[?#]/)[0]!));

/** The first enclosure that is an image: by its type, or, when it gives none, by its file name. */
function imageLink(links: Node[], attr: '@_url' | '@_href'): string | undefined {
  const typed = links.find((l) => /^image\//i.test(text(l['@_type']) ?? ''));
  if (typed) return text(typed[attr]);
  return links.map((l) => (text(l['@_type']) ? undefined : text(l[attr]))).find(looksLikeImage);
}

/**
 * Media RSS: an image media:content (medium="image", an image type, or an image file name when it
 * says neither; the isDefault one first), directly or inside media:group, else a media:thumbnail
 * (of the item, a group or a media:content such as a video's poster).
 */
function mediaImage(item: Node, ns: Namespaces): string | undefined {
  const groups = asArray(item[ns.key('media', 'group')]).filter(isNode);
  const contents = [item, ...groups].flatMap((n) => asArray(n[ns.key('media', 'content')]).filter(isNode));
  const isImage = (m: Node) => {
    const medium = text(m['@_medium'])?.toLowerCase();
    const type = text(m['@_type'])?.toLowerCase();
    if (medium || type) return medium === 'image' || Boolean(type?.startsWith('image/'));
    return looksLikeImage(text(m['@_url']));
  };
  const images = contents.filter(isImage).sort((a, b) => Number(text(b['@_isDefault']) === 'true') - Number(text(a['@_isDefault']) === 'true'));
  const content = images.map((m) => text(m['@_url'])).find(Boolean);
  if (content) return content;
  for (const n of [item, ...groups, ...contents]) {
    const thumb = asArray(n[ns.key('media', 'thumbnail')]).filter(isNode)[0];
    if (text(thumb?.['@_url'])) return text(thumb?.['@_url']);
  }
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

/** RFC 822 (RSS) or ISO 8601 (Atom, dc:date) timestamps. */
function parseLooseDate(value: string | undefined): Date | undefined {
  if (!value) return undefined;
  const iso = parseIsoDate(value, 'UTC');
  if (iso) return iso.date;
  return readTimestamp(value);
}
